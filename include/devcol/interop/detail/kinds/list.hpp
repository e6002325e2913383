/**
 * @file list.hpp
 * @brief Arrow for list columns (list "+l", large list "+L", map "+m"): the schema and zero-copy array
 * nodes (the child exported whole, offsets not rebased), the structure checks and the import (the
 * producer's offsets content-checked, then borrowed), each recursing into the child through the
 * dispatch over every kind.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/list_column.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>
#include <devcol/interop/detail/offsets.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a list: "+l" / "+L" with one child, named "item" as Arrow C++ names it; a map's
/// "+m" with its non-nullable "entries" struct, whose keys are non-nullable too (Arrow's map type).
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(basic_list_column<O, Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), 1);
  publish(schema_of(col.child(), col.is_map() ? "entries" : "item"), col.is_map() ? 0 : ARROW_FLAG_NULLABLE,
          node->children[0]);
  if (col.is_map()) { node->children[0]->children[0]->flags = 0; }
  return node;
}

/// The array of a list: validity and offsets at the column's offset, the whole child as child 0
/// (offsets are absolute rows of it). Zero-copy; a snapshot when exposed or not copy-on-write.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<array_node> export_node(basic_list_column<O, Policy> const& col, stream_ref stream) {
  buffer<Policy> zero;
  if (col.offsets_buffer().empty()) {  // no buffers (0 rows): Arrow still wants one offset
    zero = zeroed_export_buffer<Policy>(sizeof(O), col.resource(), stream);
  }
  // With the export's own {0} (a column without buffers, whose offset may be anything), offset 0:
  // a consumer reads offsets[offset], which must lie in that one-element buffer.
  auto node = export_own_buffers<Policy>({&col.mask_buffer(), &col.offsets_buffer()}, 2, true, col.size(), col.null_count(),
                                         col.offset(), 1, std::move(zero), stream);
  publish(pinned_export_node(col.child(), stream), node->children[0]);
  return node;
}

/// Where a list's memory lives: its offsets', its child's when it has none.
template <arrow_offset O, buffer_policy Policy>
arrow_device device_of(basic_list_column<O, Policy> const& col) {
  void const* p = col.offsets_buffer().data(access::read);
  return p != nullptr ? device_of(p) : device_of(col.child());
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A map's entries field: a struct ("+s") of exactly 2 fields, keys and values.
template <int = 0>
void expect_map_entries(arrow_field const& entries, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(entries.format == "+s" && entries.dictionary.empty(), path, ".format '", entries.format,
                       "': a map's entries are a struct ('+s')");
  DEVCOL_ARROW_EXPECTS(entries.children.size() == 2, path, ".n_children is ", entries.children.size(),
                       ", a map's entries struct has 2 (keys and values)");
}

/// A list array: 2 buffers, offsets present for any row, one child (checked recursively); a map's
/// child a struct of exactly 2 fields.
template <int = 0>
void check_list(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  char const* what = field.format == "+l" ? "list" : field.format == "+m" ? "map" : "large list";
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded ", what, " is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.size() == 1, path, ".n_children is ", field.children.size(), ", a ", what,
                       " array has 1");
  if (field.format == "+m") { expect_map_entries(field.children[0], path + ".children[0]"); }
  check_validity(array, 2, path, what);
  std::size_t const size = field.format == "+L" ? 8 : 4;
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / size, path, ": ", rows + 1, " offsets of ", size, " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (offsets) is NULL for ", rows,
                       " rows");
  check_any<0>(*array.children[0], field.children[0], path + ".children[0]");
}

// ---- import ----------------------------------------------------------------------------------

/// A checked list array as a list column over the producer's offsets (copied only when
/// misaligned), its child imported whole; the offsets content-checked first; a map's keys checked
/// for nulls (their count is known: no read).
template <arrow_offset O, buffer_policy Policy>
basic_list_column<O, Policy> import_list(ArrowArray const& array, arrow_field const& field,
                                         std::shared_ptr<void const> const& keep, stream_ref stream,
                                         std::string const& path) {
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  ArrowArray const& child_array = *array.children[0];
  auto child = import_any<Policy>(child_array, field.children[0], keep, stream, path + ".children[0]");
  bool const map = field.format == "+m";
  if (map) {  // the entries are a struct of two fields (check_list); its first, the keys, never null
    auto const& keys = devcol::get<struct_column<Policy>>(child).child(0);
    DEVCOL_ARROW_EXPECTS(devcol::null_count(keys) == 0, path, ".children[0].children[0] (the keys) holds ",
                         devcol::null_count(keys), " null rows of ", devcol::size(keys),
                         ": a map's keys are never null");
  }
  if (first + rows == 0 && array.buffers[1] == nullptr) {
    return basic_list_column<O, Policy>(buffer<Policy>{}, std::move(child), buffer<Policy>{}, 0, 0)
        .as_map(map);
  }
  std::size_t const bytes = (first + rows + 1) * sizeof(O);
  buffer<Policy> offsets;
  if (reinterpret_cast<std::uintptr_t>(array.buffers[1]) % alignof(O) == 0) {
    offsets = buffer<Policy>::borrow(array.buffers[1], bytes, keep, stream);
  } else {  // misaligned: copy them
    offsets = buffer<Policy>(bytes, stream);
    copy_bytes(offsets.data(access::write, stream), array.buffers[1], bytes, stream);
  }
  (void)check_offsets(static_cast<O const*>(offsets.data(access::read)) + first, rows + 1, first,
                      std::optional<std::size_t>(static_cast<std::size_t>(child_array.length)), path, stream,
                      "rows of " + path + ".children[0]");
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask), rows, nulls, first)
      .as_map(map);
}

/// What from_arrow<list_column> and large lists check before check_any: the format is the list's
/// (a list_column also takes a map, "+m").
template <arrow_offset O>
void expect_list_format(arrow_field const& field, std::string const& path) {
  std::string_view const want = sizeof(O) == 4 ? "+l" : "+L";
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && (field.format == want || (sizeof(O) == 4 && field.format == "+m")),
                       path, ".format '", field.format,
                       "' is not a ", sizeof(O) == 4 ? "list" : "large list", " ('", want, "')");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
