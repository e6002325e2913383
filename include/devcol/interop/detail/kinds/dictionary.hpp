/**
 * @file dictionary.hpp
 * @brief Arrow for dictionary columns (int32 indices "i" with the values as the dictionary): the
 * schema and zero-copy array nodes, the structure checks and the import (the indices checked to
 * lie within the values), the values reached through the dispatch over every kind.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/dictionary_column.hpp>
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

#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a dictionary: the indices' "i", the values' schema as its dictionary, not ordered.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(dictionary_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>("i", std::move(name), 0);
  node->dictionary = std::make_unique<export_children<ArrowSchema>>(1);
  publish(schema_of(col.values(), ""), ARROW_FLAG_NULLABLE, (*node->dictionary)[0]);
  return node;
}

/// The array of a dictionary: the indices' array with the values' array as its dictionary.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(dictionary_column<Policy> const& col, stream_ref stream) {
  auto node = export_column_node(col.indices(), stream);
  node->dictionary = std::make_unique<export_children<ArrowArray>>(1);
  publish(pinned_export_node(col.values(), stream), (*node->dictionary)[0]);
  return node;
}

/// Where a dictionary's memory lives: its indices'.
template <buffer_policy Policy>
arrow_device device_of(dictionary_column<Policy> const& col) {
  return device_of(col.indices());
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A dictionary array: int32 indices ("i") with a dictionary (checked recursively).
inline void check_dictionary(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "i", path, ".format '", field.format,
                       "': dictionary indices other than int32 ('i') are not supported");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(),
                       ", dictionary indices have none");
  check_validity(array, 2, path, "dictionary indices");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows <= SIZE_MAX / sizeof(std::int32_t), path, ": ", rows, " indices of ", sizeof(std::int32_t),
                       " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (indices) is NULL for ", rows,
                       " rows");
  check_any(*array.dictionary, field.dictionary.front(), path + ".dictionary");
}

// ---- import ----------------------------------------------------------------------------------

/// Whether a valid dictionary index falls outside the `n` dictionary values (a named functor, so
/// that consumers need no extended lambdas).
struct index_outside_dictionary {
  column_view<std::int32_t> indices;
  std::size_t n;
  [[nodiscard]] DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && (indices[i] < 0 || static_cast<std::size_t>(indices[i]) >= n);
  }
};

/// A checked dictionary array: its indices (checked to lie within the values: one pass, which
/// synchronises) over its values imported whole.
template <buffer_policy Policy>
dictionary_column<Policy> import_dictionary(ArrowArray const& array, arrow_field const& field,
                                            std::shared_ptr<void const> const& keep, stream_ref stream,
                                            std::string const& path) {
  arrow_field indices_field{field.format, field.name, {}, {}};
  auto indices = import_column<std::int32_t, Policy>(array, static_cast<std::size_t>(array.offset),
                                                     static_cast<std::size_t>(array.length), array.null_count, keep,
                                                     stream);
  auto values = import_any<Policy>(*array.dictionary, field.dictionary.front(), keep, stream, path + ".dictionary");
  std::size_t const n = devcol::size(values);
  executor exec(stream);
  std::size_t const row = *thrust::find_if(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                                           thrust::counting_iterator<std::size_t>(indices.size()),
                                           index_outside_dictionary{indices.view(), n});
  if (row != indices.size()) {
    std::int32_t index = 0;
    copy_bytes(&index, indices.data(access::read) + row, sizeof(index), stream);
    stream.synchronize();
    DEVCOL_ARROW_EXPECTS(false, path, ".buffers[1] (indices): index ", index, " at row ", row, " is outside the ", n,
                         " dictionary values");
  }
  return dictionary_column<Policy>(std::move(indices), std::move(values));
}

/// What from_arrow<dictionary_column> checks before check_any: the schema has a dictionary.
inline void expect_dictionary_format(arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(!field.dictionary.empty(), path, ": format '", field.format,
                       "' without a dictionary is not dictionary-encoded");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
