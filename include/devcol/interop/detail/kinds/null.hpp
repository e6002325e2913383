/**
 * @file null.hpp
 * @brief Arrow export and import of null columns (format "n"): no buffers either way, only the
 * length, so both are O(1) and nothing of the producer is kept.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/null_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>

#include <cstdint>
#include <memory>
#include <string>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

template <buffer_policy Policy>
inline constexpr std::string_view leaf_format_v<null_column<Policy>> = "n";

/// The schema node of a null column: "n" and `name`, no children.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(null_column<Policy> const& /*col*/, std::string name) {
  return leaf_schema(leaf_format_v<null_column<Policy>>, std::move(name));
}

/// The array node of a null column: its length, every row null, offset 0 and no buffers. O(1).
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(null_column<Policy> const& col, stream_ref /*stream*/) {
  auto node = std::make_unique<array_node>(0);
  describe_rows(*node, col, 0, nullptr, 0);
  return node;
}

/// Where a null column's memory lives: nowhere, so the current device (the CPU on the host backend).
template <buffer_policy Policy>
arrow_device device_of(null_column<Policy> const& /*col*/) {
  return device_of(static_cast<void const*>(nullptr));
}

/// Checks that an array (its tree's structure already checked) is a null array: format "n", no
/// dictionary, children or buffers, and a null count of -1 (not computed), 0 (as some producers
/// leave it) or its length. Reads nothing.
/// @throws devcol::arrow_error naming the field and the value
template <int = 0>
void check_null(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "n", path, ".format '", field.format, "' is not null ('n')");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded null array is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(),
                       ", a null array has none");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 0, path, ".n_buffers is ", array.n_buffers, ", a null array has none");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.null_count == array.length, path, ".null_count is ",
                       array.null_count, " for a null array of ", array.length, " rows");
}

/// A checked null array's rows as a null column of its length (its offset moves nothing). O(1).
template <buffer_policy Policy>
null_column<Policy> import_null(ArrowArray const& array) {
  return null_column<Policy>(static_cast<std::size_t>(array.length));
}

}  // namespace detail
DEVCOL_NAMESPACE_END
