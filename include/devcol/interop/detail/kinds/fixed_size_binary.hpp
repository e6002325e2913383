/**
 * @file fixed_size_binary.hpp
 * @brief Arrow export and import of fixed-size binary columns: the format "w:N" read from
 * untrusted input, the schema and array nodes, the structure checks and the import.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>

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

/// Reads the size N of an untrusted format "w:N" (see parse_format_size); 0 is a width Arrow allows
/// (every row the empty string).
/// @throws devcol::arrow_error naming `path` and the format when it is malformed or N out of range
template <int = 0>
[[nodiscard]] std::size_t parse_fixed_size_binary_format(std::string_view format, std::string const& path) {
  return parse_format_size(format, "w:", "fixed-size binary ('w:N')", "byte width", 0, path);
}

/// The schema node of a fixed-size binary column: "w:N" and `name`, no children.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(fixed_size_binary_column<Policy> const& col, std::string name) {
  return std::make_unique<schema_node>(col.arrow_format(), std::move(name), 0);
}

/// Where a fixed-size binary column's memory lives (its data, or its mask when it has no data).
template <buffer_policy Policy>
arrow_device device_of(fixed_size_binary_column<Policy> const& col) {
  void const* p = col.data_buffer().data(access::read);
  return device_of(p != nullptr ? p : col.mask_buffer().data(access::read));
}

/**
 * The array node of a fixed-size binary column: validity and data at the column's offset, zero-copy
 * with a copy-on-write handle on the column; a snapshot of its rows when its memory is exposed or
 * shared without copy-on-write (Arrow requires exported memory not to change).
 */
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(fixed_size_binary_column<Policy> const& col, stream_ref stream) {
  fixed_size_binary_column<Policy> kept = export_handle(col, stream);
  std::unique_ptr<array_node> node;
  auto const& held = hold_in(node, 0, std::move(kept));
  describe_rows(*node, held, held.offset(), held.mask_buffer().data(access::read), 2);
  node->buffers[1] = held.data_buffer().data(access::read);
  return node;
}

/// Checks that an array (structure already checked) is a fixed-size binary array devcol can read:
/// its format parses, two buffers. Reads no buffer.
template <int = 0>
void check_fixed_size_binary(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  std::size_t const width = parse_fixed_size_binary_format(field.format, path);
  check_values_layout(array, field, path, "fixed_size_binary", width, width == 0);
}

/**
 * A checked fixed-size binary array's rows [offset, offset + length) as a column: the data borrowed
 * from the producer (bytes need no alignment), validity borrowed or copied as for fixed-width
 * columns; null_count -1 is counted (one pass, synchronises).
 */
template <buffer_policy Policy>
fixed_size_binary_column<Policy> import_fixed_size_binary(ArrowArray const& array, arrow_field const& field,
                                                          std::shared_ptr<void const> const& keep, stream_ref stream) {
  using buffer_type = buffer<Policy>;
  std::size_t const width = parse_fixed_size_binary_format(field.format, "array");
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  buffer_type data;
  if (rows != 0 && width != 0) { data = buffer_type::borrow(array.buffers[1], (first + rows) * width, keep, stream); }
  auto [mask, nulls] = import_validity<Policy>(array, first, rows, array.null_count, false, keep, stream);
  return fixed_size_binary_column<Policy>(width, std::move(data), std::move(mask), rows, nulls, rows != 0 ? first : 0);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
