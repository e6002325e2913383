/**
 * @file struct.hpp
 * @brief Arrow for struct columns ("+s"): the schema and zero-copy array nodes (the struct's
 * offset applies to its children, exported whole), the structure checks and the import, each
 * recursing into the children through the dispatch over every kind.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/struct_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a struct: "+s" with one named child per field.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(struct_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>("+s", std::move(name), col.num_children());
  for (std::size_t i = 0; i < col.num_children(); ++i) {
    publish(schema_of(col.child(i), col.name(i)), ARROW_FLAG_NULLABLE, node->children[i]);
  }
  return node;
}

/// The array of a struct: its validity at its offset, which applies to its children (exported
/// whole), as in Arrow. Zero-copy; a snapshot when exposed or not copy-on-write.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(struct_column<Policy> const& col, stream_ref stream) {
  std::size_t const n = col.num_children();
  auto node = export_own_buffers<Policy>({&col.mask_buffer()}, 1, true, col.size(), col.null_count(), col.offset(), n,
                                         {}, stream);
  for (std::size_t i = 0; i < n; ++i) { publish(pinned_export_node(col.child(i), stream), node->children[i]); }
  return node;
}

/// Where a struct's memory lives: its mask's, its first child's when it has none.
template <buffer_policy Policy>
arrow_device device_of(struct_column<Policy> const& col) {
  void const* p = col.mask_buffer().data(access::read);
  return p != nullptr || col.num_children() == 0 ? device_of(p) : device_of(col.child(0));
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A struct array: 1 buffer, each child at least offset + length long (checked recursively).
template <int = 0>
void check_struct_array(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded struct is not supported");
  check_validity(array, 1, path, "struct");
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    ArrowArray const& child = *array.children[i];
    std::string const child_path = path + ".children[" + std::to_string(i) + "]";
    DEVCOL_ARROW_EXPECTS(child.length >= array.offset + array.length, child_path, ".length ", child.length,
                         " is short of the struct's offset ", array.offset, " + length ", array.length);
    check_any<0>(child, field.children[i], child_path);
  }
}

// ---- import ----------------------------------------------------------------------------------

/// A checked struct array as a struct column: its children imported whole, its offset kept.
template <buffer_policy Policy>
struct_column<Policy> import_struct_column(ArrowArray const& array, arrow_field const& field,
                                           std::shared_ptr<void const> const& keep, stream_ref stream,
                                           std::string const& path) {
  std::vector<std::string> names;
  std::vector<any_column<Policy>> children;
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    names.push_back(field.children[i].name);
    children.push_back(import_any<Policy>(*array.children[i], field.children[i], keep, stream,
                                          path + ".children[" + std::to_string(i) + "]"));
  }
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  return struct_column<Policy>(std::move(names), std::move(children), std::move(mask),
                               static_cast<std::size_t>(array.length), nulls, static_cast<std::size_t>(array.offset));
}

/// What from_arrow<struct_column> checks before check_any: the format is "+s".
template <int = 0>
void expect_struct_format(arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && field.format == "+s", path, ".format '", field.format,
                       "' is not a struct ('+s')");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
