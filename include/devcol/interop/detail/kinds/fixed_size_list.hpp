/**
 * @file fixed_size_list.hpp
 * @brief Arrow export and import of fixed-size list columns ("+w:N"): the size read from untrusted
 * text, one validity buffer and one child, zero-copy both ways.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/fixed_size_list_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Reads the size N of an untrusted format "+w:N" (see parse_format_size).
/// @throws devcol::arrow_error naming `path` and the format when it is malformed or N out of range
template <int = 0>
[[nodiscard]] std::size_t parse_fixed_size_list_format(std::string_view format, std::string const& path) {
  return parse_format_size(format, "+w:", "fixed-size list ('+w:N')", "list size", 0, path);
}

/// The schema of a fixed-size list: "+w:N" with one child, named "item" as Arrow C++ names it.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(fixed_size_list_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), 1);
  publish(schema_of(col.child(), "item"), ARROW_FLAG_NULLABLE, node->children[0]);
  return node;
}

/// The array of a fixed-size list: validity at the column's offset, the whole child as child 0
/// (the offset counts lists of it). Zero-copy; a snapshot when exposed or not copy-on-write.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(fixed_size_list_column<Policy> const& col, stream_ref stream) {
  auto node = export_own_buffers<Policy>({&col.mask_buffer()}, 1, true, col.size(), col.null_count(), col.offset(), 1, {},
                                         stream);
  publish(pinned_export_node(col.child(), stream), node->children[0]);
  return node;
}

/// Where a fixed-size list's memory lives: its mask's, its child's when it has none.
template <buffer_policy Policy>
arrow_device device_of(fixed_size_list_column<Policy> const& col) {
  void const* p = col.mask_buffer().data(access::read);
  return p != nullptr ? device_of(p) : device_of(col.child());
}

/// A fixed-size list array: its format, 1 buffer, one child long enough for (offset + length) *
/// N rows (checked recursively). Reads no buffer.
template <int = 0>
void check_fixed_size_list(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  std::size_t const size = parse_fixed_size_list_format(field.format, path);
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded fixed-size list is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.size() == 1, path, ".n_children is ", field.children.size(),
                       ", a fixed-size list array has 1");
  check_validity(array, 1, path, "fixed-size list");
  auto const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(size == 0 || rows <= static_cast<std::uint64_t>(array.children[0]->length) / size, path,
                       ".children[0].length is ", array.children[0]->length, ", fewer than the ", rows, " lists of ",
                       size, " that offset ", array.offset, " and length ", array.length, " need");
  check_any<0>(*array.children[0], field.children[0], path + ".children[0]");
}

/// A checked fixed-size list array as a column over the producer's validity (borrowed or copied
/// as for every kind) and its child, imported whole; the array's offset kept. O(1) beyond the
/// child's import.
template <buffer_policy Policy>
fixed_size_list_column<Policy> import_fixed_size_list(ArrowArray const& array, arrow_field const& field,
                                                      std::shared_ptr<void const> const& keep, stream_ref stream,
                                                      std::string const& path) {
  std::size_t const size = parse_fixed_size_list_format(field.format, path);
  auto child = import_any<Policy>(*array.children[0], field.children[0], keep, stream, path + ".children[0]");
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  return fixed_size_list_column<Policy>(size, std::move(child), std::move(mask), static_cast<std::size_t>(array.length),
                                        nulls, static_cast<std::size_t>(array.offset));
}

}  // namespace detail
DEVCOL_NAMESPACE_END
