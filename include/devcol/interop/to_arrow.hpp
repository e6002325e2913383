/**
 * @file to_arrow.hpp
 * @brief Export of columns and tables through the Arrow C Device Data Interface, zero-copy.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/decimal.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_column.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/export_strings.hpp>
#include <devcol/interop/detail/fixed_size_binary.hpp>
#include <devcol/interop/detail/nested.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Records on `stream` the event consumers of a device export wait on (CUDA only).
inline void record_ready(array_node& node, stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
  node.ready.emplace();
  node.ready->record(stream);
  node.ready_handle = node.ready->value();
#else
  (void)node;
  (void)stream;
#endif
}

/// Publishes a complete export: the schema, then the device array around `node`. Never throws.
/// (No schema when `schema_tree` is null: a stream's arrays share the stream's schema.)
inline void publish_device_array(std::unique_ptr<schema_node> schema_tree, std::int64_t schema_flags,
                                 std::unique_ptr<array_node> node, arrow_device device, ArrowSchema* schema,
                                 ArrowDeviceArray* array) noexcept {
  void* const sync_event = node->ready ? static_cast<void*>(&node->ready_handle) : nullptr;
  if (schema_tree != nullptr) { publish(std::move(schema_tree), schema_flags, schema); }
  *array = ArrowDeviceArray{};  // reserved bytes zeroed
  publish(std::move(node), &array->array);
  array->device_id = device.id;
  array->device_type = device.type;
  array->sync_event = sync_event;
}

inline void expect_outputs(void const* schema, void const* array, char const* what) {
  DEVCOL_EXPECTS(schema != nullptr && array != nullptr, what, ": the ArrowSchema (", schema,
                 ") and ArrowDeviceArray (", array, ") to export into must not be null");
}

template <arrow_fixed_width T>
std::unique_ptr<schema_node> column_schema_node(std::string name) {
  return std::make_unique<schema_node>(std::string(arrow_format_v<T>), std::move(name), 0);
}

}  // namespace detail

/**
 * @brief Exports `col` as an Arrow array (`schema` and `array`, which the caller then owns and
 * must release). Zero-copy: the array points at the column's memory and holds a handle on it, so
 * the memory stays as exported (a later write through `col` copies first, rule 3) until the
 * consumer calls `release`, which frees only what the export made. Exceptions, documented costs:
 * `bool` columns are bit-packed into a new bitmap (one pass); the rows of an exposed column (a third
 * party may write them, rule 12) or of a policy without copy-on-write (writes propagate) are
 * copied, since Arrow requires exported memory not to change. Under `untracked_exposure` the
 * caller keeps raw pointers it handed out from writing exported memory.
 *
 * The array keeps the column's offset (values and mask agree), its null count, and `name` in the
 * schema. `device_type`/`device_id` say where the memory is (CPU and -1 on the host backend); on
 * CUDA `sync_event` points to a `cudaEvent_t` recorded on `stream` after the last write, destroyed
 * by `release`. `reserved` is zeroed. `schema` and `array` are written only on success.
 * @throws devcol::logic_error (null outputs), what allocation throws (bool, exposed), devcol::cuda_error
 */
template <arrow_fixed_width T, buffer_policy Policy>
void to_arrow(column<T, Policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {},
              std::string name = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_outputs(schema, array, "to_arrow");
  auto schema_tree = detail::column_schema_node<T>(std::move(name));
  auto node = detail::pinned_export_node(col, stream);
  detail::arrow_device const device = detail::device_of(col);
  detail::record_ready(*node, stream);
  detail::publish_device_array(std::move(schema_tree), ARROW_FLAG_NULLABLE, std::move(node), device, schema, array);
}

/**
 * @brief Exports a strings column as an Arrow utf8 (`strings_column`, format "u") or large utf8
 * (`large_strings_column`, "U") array, which the caller then owns and must release. Zero-copy and
 * O(1) for any slice: three buffers (validity, offsets, data) at the column's offset, the offsets as
 * they are (absolute positions in the data, not rebased); the array holds a handle on the column,
 * so the memory stays as exported (a later write through `col` copies first, rule 3) until the
 * consumer calls `release`, which frees only what the export made. Copies, documented: an exposed
 * column, or one under a policy without copy-on-write, is exported as a snapshot (its rows copied,
 * one synchronisation), since Arrow requires exported memory not to change. A column without
 * buffers (an empty one) exports a one-element {0} offsets buffer (64 zeroed bytes from its
 * resource). `name`, device, `sync_event` and `reserved` as to_arrow(column) states them.
 * `schema` and `array` are written only on success.
 * @throws devcol::logic_error (null outputs), what allocation throws, devcol::cuda_error
 */
template <arrow_offset O, buffer_policy Policy>
void to_arrow(basic_strings_column<O, Policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array,
              stream_ref stream = {}, std::string name = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_outputs(schema, array, "to_arrow");
  auto schema_tree = detail::schema_of(col, std::move(name));
  auto node = detail::pinned_export_node(col, stream);
  detail::arrow_device const device = detail::device_of_node(*node);
  detail::record_ready(*node, stream);
  detail::publish_device_array(std::move(schema_tree), ARROW_FLAG_NULLABLE, std::move(node), device, schema, array);
}

namespace detail {
/// Exports a column of any kind K with a schema_of / export_node / device_of: the common body of
/// the public to_arrow overloads of the kinds beside column<T>.
template <class K>
void export_kind(K const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream, std::string name) {
  expect_outputs(schema, array, "to_arrow");
  auto schema_tree = schema_of(col, std::move(name));
  auto node = pinned_export_node(col, stream);
  arrow_device const device = device_of(col);
  record_ready(*node, stream);
  publish_device_array(std::move(schema_tree), ARROW_FLAG_NULLABLE, std::move(node), device, schema, array);
}
}  // namespace detail

/**
 * @brief Exports a decimal column as an Arrow decimal array (format "d:P,S,32", "d:P,S,64" or
 * "d:P,S"), zero-copy as to_arrow(column) exports its unscaled values (a snapshot only when the
 * memory is exposed or the policy has no copy-on-write). `schema` and `array` are written only on success.
 * @throws devcol::logic_error (null outputs), what allocation throws (exposed), devcol::cuda_error
 */
template <decimal_rep Rep, buffer_policy Policy>
void to_arrow(decimal_column<Rep, Policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array,
              stream_ref stream = {}, std::string name = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, std::move(name));
}

/**
 * @brief Exports a fixed-size binary column as an Arrow fixed-size binary array ("w:N"): validity
 * and data at the column's offset, zero-copy (a snapshot of its rows only when exposed or without
 * copy-on-write). `schema` and `array` are written only on success.
 * @throws devcol::logic_error (null outputs), what allocation throws (exposed), devcol::cuda_error
 */
template <buffer_policy Policy>
void to_arrow(fixed_size_binary_column<Policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array,
              stream_ref stream = {}, std::string name = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, std::move(name));
}

/**
 * @brief Exports a list, struct or dictionary column as an Arrow array (formats "+l" / "+L" with
 * one child "item", "+s" with a child per field, or the indices' "i" with the values as the
 * schema's and array's dictionary), recursively, which the caller then owns and must release.
 * Zero-copy at every level, as to_arrow(column) is: each node holds a handle on its column (a
 * snapshot of it when exposed or not copy-on-write), the column's offset is kept (a list's offsets
 * are not rebased, its child is exported whole; a struct's offset applies to its children, which
 * are exported whole, as Arrow specifies). A list without buffers (an empty one) exports a
 * one-element {0} offsets buffer. Costs beyond that: what each child's export costs (bools are
 * bit-packed). `schema` and `array` are written only on success.
 * @throws devcol::logic_error (null outputs, a child kind this build cannot export), what allocation
 * throws, devcol::cuda_error
 */
template <class C>
  requires detail::is_nested_kind<C>
void to_arrow(C const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {},
              std::string name = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, std::move(name));
}

/// @brief Exports any column as its kind's to_arrow() does (one dispatch on its kind).
/// @throws as that to_arrow()
template <buffer_policy Policy>
void to_arrow(any_column<Policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {},
              std::string name = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, std::move(name));
}

namespace detail {

/// The schema of a table: a struct (`+s`) with one named child per column, of any kind.
template <buffer_policy Policy>
std::unique_ptr<schema_node> table_schema_node(basic_table<Policy> const& tbl) {
  std::size_t const n = tbl.num_columns();
  auto tree = std::make_unique<schema_node>("+s", "", n);
  for (std::size_t i = 0; i < n; ++i) { publish(schema_of(tbl[i], tbl.name(i)), ARROW_FLAG_NULLABLE, tree->children[i]); }
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

}  // namespace detail

/**
 * @brief Exports `tbl` as a struct array (a record batch: format `+s`, no validity, one child per
 * column with its name), each column of any kind as its to_arrow() exports it. Zero-copy but for
 * bool and exposed columns. `schema` and `array` are written only on success.
 * @throws devcol::logic_error when columns live on different kinds of memory; as to_arrow(column)
 */
template <buffer_policy Policy>
void to_arrow(basic_table<Policy> const& tbl, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_outputs(schema, array, "to_arrow");
  detail::export_table_array(tbl, array, stream, detail::table_schema_node(tbl), schema);
}

/// @brief Exports only the schema of `tbl` (as to_arrow(table) would), which the caller then owns.
/// @throws devcol::logic_error (null output), std::bad_alloc
template <buffer_policy Policy>
void to_arrow_schema(basic_table<Policy> const& tbl, ArrowSchema* schema) {
  DEVCOL_EXPECTS(schema != nullptr, "to_arrow_schema: the ArrowSchema to export into is null");
  detail::publish(detail::table_schema_node(tbl), 0, schema);
}

DEVCOL_NAMESPACE_END
