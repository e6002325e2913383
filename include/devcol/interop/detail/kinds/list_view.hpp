/**
 * @file list_view.hpp
 * @brief Arrow for list view columns (list view "+vl", large list view "+vL"): the schema and
 * zero-copy array nodes (offsets and sizes at the column's offset, the child exported whole), the
 * structure checks and the import (every row's offset and size, null rows' too, as Arrow requires,
 * checked against the child in one pass, then the producer's buffers borrowed), each recursing
 * into the child through the dispatch over every kind.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/list_view_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a list view: "+vl" / "+vL" with one child, named "item" as Arrow C++ names it.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(basic_list_view_column<O, Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), 1);
  publish(schema_of(col.child(), "item"), ARROW_FLAG_NULLABLE, node->children[0]);
  return node;
}

/// The array of a list view: validity, offsets and sizes at the column's offset, the whole child as
/// child 0. Zero-copy; a snapshot when exposed or not copy-on-write. A column without buffers (0
/// rows) exports one zeroed value as both its offsets and its sizes, at offset 0.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<array_node> export_node(basic_list_view_column<O, Policy> const& col, stream_ref stream) {
  buffer<Policy> zero;
  if (col.offsets_buffer().empty()) { zero = zeroed_export_buffer<Policy>(sizeof(O), col.resource(), stream); }
  auto node = export_own_buffers<Policy>({&col.mask_buffer(), &col.offsets_buffer(), &col.sizes_buffer()}, 3, true,
                                         col.size(), col.null_count(), col.offset(), 1, std::move(zero), stream);
  publish(pinned_export_node(col.child(), stream), node->children[0]);
  return node;
}

/// Where a list view's memory lives: its offsets', its child's when it has none.
template <arrow_offset O, buffer_policy Policy>
arrow_device device_of(basic_list_view_column<O, Policy> const& col) {
  void const* p = col.offsets_buffer().data(access::read);
  return p != nullptr ? device_of(p) : device_of(col.child());
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A list view array: 3 buffers, offsets and sizes present for any row, one child (checked
/// recursively).
template <int = 0>
void check_list_view(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  char const* what = field.format == "+vl" ? "list view" : "large list view";
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded ", what, " is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.size() == 1, path, ".n_children is ", field.children.size(), ", a ", what,
                       " array has 1");
  check_validity(array, 3, path, what);
  std::size_t const size = field.format == "+vl" ? 4 : 8;
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / size, path, ": ", rows, " offsets of ", size, " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (offsets) is NULL for ", rows,
                       " rows");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[2] != nullptr, path, ".buffers[2] (sizes) is NULL for ", rows,
                       " rows");
  check_any<0>(*array.children[0], field.children[0], path + ".children[0]");
}

// ---- import ----------------------------------------------------------------------------------

/// Whether row `i` of a list view names rows outside [0, child_rows). Null rows are asked too:
/// Arrow requires every row's offset and size within the child, and consumers (Arrow C++'s
/// validation among them) read them.
template <arrow_offset O>
struct view_row_outside {
  O const* offsets;
  O const* sizes;
  std::uint64_t child_rows;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    O const o = offsets[i];
    O const s = sizes[i];
    return o < 0 || s < 0 || static_cast<std::uint64_t>(o) + static_cast<std::uint64_t>(s) > child_rows;
  }
};

/// A buffer of a producer's `count` values of `O` from element 0: borrowed, or copied when misaligned.
template <arrow_offset O, buffer_policy Policy>
buffer<Policy> import_view_values(void const* values, std::size_t count, std::shared_ptr<void const> const& keep,
                                  stream_ref stream) {
  std::size_t const bytes = count * sizeof(O);
  if (reinterpret_cast<std::uintptr_t>(values) % alignof(O) == 0) { return buffer<Policy>::borrow(values, bytes, keep, stream); }
  buffer<Policy> out(bytes, stream);
  copy_bytes(out.data(access::write, stream), values, bytes, stream);
  return out;
}

/// A checked list view array as a column over the producer's offsets and sizes (copied only when
/// misaligned) and its child imported whole, after one pass that finds the first row, null or not,
/// whose offset and size are negative or name rows past the child (its values read back: synchronises).
/// @throws devcol::arrow_error naming that row, its offset and size, and the child's rows
template <arrow_offset O, buffer_policy Policy>
basic_list_view_column<O, Policy> import_list_view(ArrowArray const& array, arrow_field const& field,
                                                   std::shared_ptr<void const> const& keep, stream_ref stream,
                                                   std::string const& path) {
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  ArrowArray const& child_array = *array.children[0];
  auto child = import_any<Policy>(child_array, field.children[0], keep, stream, path + ".children[0]");
  if (first + rows == 0) {
    return basic_list_view_column<O, Policy>(buffer<Policy>{}, buffer<Policy>{}, std::move(child), buffer<Policy>{}, 0, 0);
  }
  auto offsets = import_view_values<O, Policy>(array.buffers[1], first + rows, keep, stream);
  auto sizes = import_view_values<O, Policy>(array.buffers[2], first + rows, keep, stream);
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  if (rows != 0) {
    auto const* o = static_cast<O const*>(offsets.data(access::read)) + first;
    auto const* s = static_cast<O const*>(sizes.data(access::read)) + first;
    view_row_outside<O> const outside{o, s, static_cast<std::uint64_t>(devcol::size(child))};
    executor exec(stream);
    std::size_t const row = find_first_n(exec, rows, outside);
    if (row != rows) {
      O values[2] = {0, 0};
      copy_bytes(&values[0], o + row, sizeof(O), stream);
      copy_bytes(&values[1], s + row, sizeof(O), stream);
      stream.synchronize();
      DEVCOL_ARROW_EXPECTS(false, path, ": row ", first + row, " (offset ", values[0], ", size ", values[1],
                           ") is not within the child's ", devcol::size(child), " rows");
    }
  }
  return basic_list_view_column<O, Policy>(std::move(offsets), std::move(sizes), std::move(child), std::move(mask),
                                           rows, nulls, first);
}

/// What from_arrow<list_view_column> and large list views check before check_any: the format.
template <arrow_offset O>
void expect_list_view_format(arrow_field const& field, std::string const& path) {
  std::string_view const want = sizeof(O) == 4 ? "+vl" : "+vL";
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && field.format == want, path, ".format '", field.format, "' is not a ",
                       sizeof(O) == 4 ? "list view" : "large list view", " ('", want, "')");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
