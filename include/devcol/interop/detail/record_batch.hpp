/**
 * @file record_batch.hpp
 * @brief Tables through Arrow as struct arrays (record batches): the schema and array of a table,
 * each column of any kind exported as its kind exports it, and the import of a struct array as a
 * table (no null rows, each child of any kind devcol imports).
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/table.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a table: a struct (`+s`) with one named child per column, of any kind, each
/// with what its field_info says; the table's metadata as the struct's.
template <buffer_policy Policy>
std::unique_ptr<schema_node> table_schema_node(basic_table<Policy> const& tbl) {
  std::size_t const n = tbl.num_columns();
  auto tree = std::make_unique<schema_node>("+s", "", n);
  tree->metadata = encode_metadata(tbl.metadata());
  for (std::size_t i = 0; i < n; ++i) {
    publish(schema_of(tbl[i], tbl.name(i)), ARROW_FLAG_NULLABLE, tree->children[i]);
    apply_field_info(*tree->children[i], tbl.field(i), false);
  }
  return tree;
}

/// Exports the array of a table (see to_arrow(table)) into `array`, written only on success.
template <buffer_policy Policy>
void export_table_array(basic_table<Policy> const& tbl, ArrowDeviceArray* array, stream_ref stream,
                        std::unique_ptr<schema_node> schema_tree = nullptr, ArrowSchema* schema = nullptr) {
  std::size_t const n = tbl.num_columns();
  auto node = std::make_unique<array_node>(n);
  node->n_buffers = 1;  // the struct's validity: none, a record batch has no null rows
  std::optional<arrow_device> device;
  for (std::size_t i = 0; i < n; ++i) {
    auto const& col = tbl[i];
    if (devcol::size(col) != 0) {  // an empty column has no memory to be anywhere
      arrow_device const here = device_of(col);
      if (!device) {
        device = here;
      } else {
        DEVCOL_EXPECTS(here.type == device->type && here.id == device->id, "to_arrow: column '", tbl.name(i), "' is on ",
                       arrow_device_name(here.type), " device ", here.id, ", an earlier column on ",
                       arrow_device_name(device->type), " device ", device->id);
      }
    }
    publish(pinned_export_node(col, stream), node->children[i]);
  }
  if (!device) { device = device_of(static_cast<void const*>(nullptr)); }
  node->length = static_cast<std::int64_t>(tbl.num_rows());
  record_ready(*node, stream);
  publish_device_array(std::move(schema_tree), 0, std::move(node), *device, schema, array);
}

// ---- import ----------------------------------------------------------------------------------

/// Checks a struct array that import reads as a table: no null rows, children long enough (names
/// may repeat, as a table's may), each child a column of any kind devcol reads (checked as check_any does).
template <int = 0>
void check_struct(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "+s", path, ".format '", field.format,
                       "' is not a struct ('+s'): a table imports from a struct array (a record batch)");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded struct is not a table");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 1, path, ".n_buffers is ", array.n_buffers, ", a struct array has 1 (validity)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0, path, ".null_count is ", array.null_count,
                       ": a table has no null rows");
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    ArrowArray const& child = *array.children[i];
    arrow_field const& child_field = field.children[i];
    std::string const child_path = path + ".children[" + std::to_string(i) + "]";
    DEVCOL_ARROW_EXPECTS(child.length >= array.offset + array.length, child_path, ".length ", child.length,
                         " is short of the struct's offset ", array.offset, " + length ", array.length);
    check_any<0>(child, child_field, child_path);
  }
}

/// The columns of a checked struct array, of any kind: rows [offset, offset + length) of each child,
/// imported as that window of the child (whose nulls are counted there when it has some and the
/// window is narrower; check_struct made sure each child holds the window).
template <buffer_policy Policy>
basic_table<Policy> import_table(ArrowArray const& array, arrow_field const& field,
                                 std::shared_ptr<void const> const& keep, stream_ref stream) {
  basic_table<Policy> out;
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    // The struct's offset applies to its children: the table's rows are [first, first + rows) of
    // each, imported as that window of the child (its nulls counted there when it is narrower), so
    // that no kind's slice is compiled here.
    ArrowArray child = *array.children[i];
    if (first != 0 || static_cast<std::size_t>(child.length) != rows) {
      child.offset += static_cast<std::int64_t>(first);
      child.length = static_cast<std::int64_t>(rows);
      child.null_count = child.null_count == 0 ? 0 : -1;
    }
    arrow_field const& child_field = field.children[i];
    auto col = import_any<Policy>(child, child_field, keep, stream, "array.children[" + std::to_string(i) + "]");
    out.add_any(child_field.name, std::move(col), field_info_of(child_field));
  }
  out.set_metadata(field.metadata);
  return out;
}

/**
 * @brief Imports the struct array `guard` holds (its structure checked against `field`) as a
 * table: the remaining checks, then ownership, the wait for the producer, and the columns.
 */
template <buffer_policy Policy>
basic_table<Policy> import_struct(arrow_field const& field, import_guard& guard, stream_ref stream) {
  check_struct(guard.array().array, field, "array");
  auto const taken = guard.take_array(stream);
  ArrowArray const& imported = taken->device.array;
  wait_for_producer(taken->device.sync_event, taken->device.device_type, stream);
  if (imported.buffers[0] != nullptr && imported.null_count < 0) {
    auto const first = static_cast<std::size_t>(imported.offset);
    auto const rows = static_cast<std::size_t>(imported.length);
    auto const bits = import_bits<Policy>(imported.buffers[0], first, rows, false, false, taken, stream);
    std::size_t const nulls =
        count_unset_bits(static_cast<bitmask_word const*>(bits.data(access::read)), first, first + rows, stream);
    DEVCOL_ARROW_EXPECTS(nulls == 0, "array.null_count is -1 and the validity bitmap has ", nulls,
                         " null rows: a table has none");
  }
  return import_table<Policy>(imported, field, taken, stream);
}

/// An array of no rows laid out as `field` says (a schema checked by check_schema_any), with its
/// children and dictionary: each layout's buffers, all NULL, which the C Data Interface allows for
/// a buffer of no bytes. Import reads a schema alone through it, as columns of no rows.
struct empty_array {
  ArrowArray array{};
  std::vector<void const*> buffers;
  std::vector<std::unique_ptr<empty_array>> children;
  std::vector<ArrowArray*> child_arrays;
  std::unique_ptr<empty_array> dictionary;
};

/// Builds the empty_array of `field`, recursively.
template <int = 0>
std::unique_ptr<empty_array> make_empty_array(arrow_field const& field) {
  auto node = std::make_unique<empty_array>();
  std::string_view const format = field.format;
  std::size_t buffers = 2;  // validity and values (offsets, indices, type ids and offsets)
  if (field.dictionary.empty()) {
    if (format == "+s" || format.starts_with("+w:") || format.starts_with("+us:")) {
      buffers = 1;
    } else if (format == "+r" || format == "n") {
      buffers = 0;
    } else if (format == "u" || format == "U" || format == "z" || format == "Z" || format == "+vl" ||
               format == "+vL" || format == "vu" || format == "vz") {
      buffers = 3;  // a view's third is its (empty) buffer of variadic buffer sizes
    }
  }
  node->buffers.assign(buffers, nullptr);
  for (auto const& child : field.children) {
    node->children.push_back(make_empty_array(child));
    node->child_arrays.push_back(&node->children.back()->array);
  }
  if (!field.dictionary.empty()) { node->dictionary = make_empty_array(field.dictionary.front()); }
  node->array.n_buffers = static_cast<std::int64_t>(buffers);
  node->array.buffers = node->buffers.data();
  node->array.n_children = static_cast<std::int64_t>(node->child_arrays.size());
  node->array.children = node->child_arrays.data();
  node->array.dictionary = node->dictionary ? &node->dictionary->array : nullptr;
  return node;
}

/**
 * @brief The table of no rows that a struct schema (checked by check_schema_any for each child)
 * describes: each column of its kind with its field_info, and the schema's metadata. Host work; the
 * columns hold the empty tree, as an import holds the producer's.
 */
template <buffer_policy Policy>
basic_table<Policy> empty_table(arrow_field const& field, stream_ref stream) {
  std::shared_ptr<empty_array const> const rows = make_empty_array(field);
  check_struct(rows->array, field, "schema");
  return import_table<Policy>(rows->array, field, rows, stream);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
