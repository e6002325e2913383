/**
 * @file dictionary.hpp
 * @brief Arrow for dictionary columns (indices of any integer type, "c" to "L", with the values as
 * the dictionary): the schema and zero-copy array nodes, the structure checks and the import (the
 * indices, of the producer's type, checked to lie within the values), the values reached through
 * the dispatch over every kind.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/index_bounds.hpp>
#include <devcol/column/dictionary_column.hpp>
#include <devcol/column/nested_factories.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds/fixed_width.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a dictionary: the indices' format, the values' schema as its dictionary, not
/// ordered (a field_info says otherwise).
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(dictionary_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), 0);
  node->dictionary = std::make_unique<export_children<ArrowSchema>>(1);
  publish(schema_of(col.values(), ""), ARROW_FLAG_NULLABLE, (*node->dictionary)[0]);
  return node;
}

/// The array of a dictionary: the indices' array with the values' array as its dictionary.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(dictionary_column<Policy> const& col, stream_ref stream) {
  auto node = col.visit_indices([&](auto const& indices) { return export_column_node(indices, stream); });
  node->dictionary = std::make_unique<export_children<ArrowArray>>(1);
  publish(pinned_export_node(col.values(), stream), (*node->dictionary)[0]);
  return node;
}

/// Where a dictionary's memory lives: its indices'.
template <buffer_policy Policy>
arrow_device device_of(dictionary_column<Policy> const& col) {
  return col.visit_indices([](auto const& indices) { return device_of(indices); });
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/**
 * Calls `f(std::type_identity<I>{})` for the integer type `I` a dictionary's index format names
 * ("c", "C", "s", "S", "i", "I", "l", "L").
 * @throws devcol::arrow_error naming the format when it is not an integer's
 */
template <class F>
decltype(auto) visit_index_format(std::string_view format, std::string const& path, F&& f) {
  if (format == "c") { return f(std::type_identity<std::int8_t>{}); }
  if (format == "s") { return f(std::type_identity<std::int16_t>{}); }
  if (format == "i") { return f(std::type_identity<std::int32_t>{}); }
  if (format == "l") { return f(std::type_identity<std::int64_t>{}); }
  if (format == "C") { return f(std::type_identity<std::uint8_t>{}); }
  if (format == "S") { return f(std::type_identity<std::uint16_t>{}); }
  if (format == "I") { return f(std::type_identity<std::uint32_t>{}); }
  DEVCOL_ARROW_EXPECTS(format == "L", path, ".format '", format,
                       "': dictionary indices must be an integer type ('c', 'C', 's', 'S', 'i', 'I', 'l' or 'L')");
  return f(std::type_identity<std::uint64_t>{});
}

/// A dictionary array: integer indices with a dictionary (checked recursively).
template <int = 0>
void check_dictionary(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  std::size_t const width =
      visit_index_format(field.format, path, []<class I>(std::type_identity<I>) { return sizeof(I); });
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(),
                       ", dictionary indices have none");
  check_validity(array, 2, path, "dictionary indices");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows <= SIZE_MAX / width, path, ": ", rows, " indices of ", width, " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (indices) is NULL for ", rows,
                       " rows");
  check_any<0>(*array.dictionary, field.dictionary.front(), path + ".dictionary");
}

// ---- import ----------------------------------------------------------------------------------

/// A checked dictionary array: its indices, of the producer's integer type and borrowed (checked to
/// lie within the values: one pass, which synchronises), over its values imported whole.
template <buffer_policy Policy>
dictionary_column<Policy> import_dictionary(ArrowArray const& array, arrow_field const& field,
                                            std::shared_ptr<void const> const& keep, stream_ref stream,
                                            std::string const& path) {
  auto values = import_any<Policy>(*array.dictionary, field.dictionary.front(), keep, stream, path + ".dictionary");
  std::size_t const n = devcol::size(values);
  return visit_index_format(field.format, path, [&]<class I>(std::type_identity<I>) {
    auto indices = import_column<I, Policy>(array, static_cast<std::size_t>(array.offset),
                                            static_cast<std::size_t>(array.length), array.null_count, keep, stream);
    if (auto const bad = first_index_outside(any_index_view(indices.view()), n, stream)) {
      // Named at its place in the producer's buffer, as the other importers name rows: the offset on.
      DEVCOL_ARROW_EXPECTS(false, path, ".buffers[1] (indices): index ", bad->second, " at row ",
                           static_cast<std::size_t>(array.offset) + bad->first, " is outside the ", n,
                           " dictionary values");
    }
    return dictionary_column<Policy>(std::move(indices), std::move(values));
  });
}

/// What from_arrow<dictionary_column> checks before check_any: the schema has a dictionary.
template <int = 0>
void expect_dictionary_format(arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(!field.dictionary.empty(), path, ": format '", field.format,
                       "' without a dictionary is not dictionary-encoded");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
