/**
 * @file to_arrow.hpp
 * @brief Export of columns and tables through the Arrow C Device Data Interface, zero-copy.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/kinds.hpp>
#include <devcol/interop/detail/record_batch.hpp>

#include <string>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Satisfied by what `to_arrow(col, ...)` exports as one Arrow array: a column of any kind
 * (`column<T>` for every `T` with an Arrow format of its own, strings, decimal, fixed-size binary,
 * list, struct and dictionary columns, of any policy) and `any_column`. Tables have their own
 * overload (a struct array).
 * @tparam C a column type
 */
template <class C>
concept arrow_exportable = detail::exportable_kind<std::remove_cvref_t<C>>();

/**
 * @brief Exports `col` as an Arrow array (`schema` and `array`, which the caller then owns and
 * must release), in the layout of its kind: fixed-width values and validity; strings (utf8 "u",
 * large utf8 "U") as validity, offsets and data; decimals ("d:P,S,32", "d:P,S,64" or "d:P,S") as
 * their unscaled values; fixed-size binary ("w:N") as validity and data; lists ("+l" / "+L", one
 * child "item"; a map "+m", its non-nullable child "entries"), structs ("+s", a child per field) and dictionaries (the indices' "i", the values
 * as the schema's and array's dictionary) recursively; an `any_column` as the kind it holds (one
 * dispatch on its kind).
 *
 * Zero-copy at every level: each array node holds a handle on its column, so the memory stays as
 * exported (a later write through `col` copies first, rule 3: a write to memory another handle
 * holds gives the writer its own copy) until the consumer calls `release`, which frees only what
 * the export made. The array keeps the column's offset, values and mask agreeing: strings and list
 * offsets are not rebased (absolute positions in the data or child, which is exported whole), a
 * struct's offset applies to its children (exported whole, as Arrow specifies). O(1) for any slice
 * but for these documented costs: `bool` values are bit-packed into a new bitmap (one pass); the
 * rows of an exposed column (a third party may write them: rule 11 marks memory exposed once a raw
 * mutable pointer to it is handed out, and rule 12 copies it whole) or of a policy without copy-on-
 * write (writes propagate) are copied as a snapshot (one synchronisation), since Arrow requires
 * exported memory not to change; a strings or list column without buffers (an empty one) exports a
 * one-element {0} offsets buffer (and strings a non-NULL empty data buffer), zeroed bytes from its
 * resource. Under `untracked_exposure` the caller keeps raw pointers it handed out from writing
 * exported memory. For the whole export the column's spillable memory stays on the device, and each
 * node keeps what it exports there until it is released (rule 20).
 *
 * The schema carries `name` and the nullable flag. `device_type`/`device_id` say where the memory
 * is (CPU and -1 on the host backend); on CUDA `sync_event` points to a `cudaEvent_t` recorded on
 * `stream` after the last write, destroyed by `release`; on the host backend it is null and
 * nothing synchronises. `reserved` is zeroed. `schema` and `array` are written only on success.
 * @tparam C the column type (see arrow_exportable)
 * @param col the column to export
 * @param schema where the schema is written (not null)
 * @param array where the device array is written (not null)
 * @param stream the stream the export's copies run on and its `sync_event` is recorded on
 * @param name the field name the schema carries
 * @throws devcol::logic_error (null outputs), what allocation throws (bool, snapshots, an empty
 * column's offsets), devcol::cuda_error
 */
template <arrow_exportable C>
void to_arrow(C const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {},
              std::string name = {}) {
  scoped_device const on_device(column_device(col));  // rule 21: its event and copies on its device
  detail::operation_spill_lock<typename detail::policy_of<C>::type> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, std::move(name));
}

/// @brief Exports only the schema of `col` (as to_arrow(col) would: nullable, named `name`), which
/// the caller then owns. Host work only: no device memory is read, nothing synchronises.
/// @tparam C the column type (see arrow_exportable)
/// @param col the column whose schema is exported
/// @param schema where the schema is written (not null)
/// @param name the field name the schema carries
/// @throws devcol::logic_error (null output), std::bad_alloc
template <arrow_exportable C>
void to_arrow_schema(C const& col, ArrowSchema* schema, std::string name = {}) {
  DEVCOL_EXPECTS(schema != nullptr, "to_arrow_schema: the ArrowSchema to export into is null");
  detail::publish(detail::schema_of(col, std::move(name)), ARROW_FLAG_NULLABLE, schema);
}

/**
 * @brief As to_arrow(col, schema, array, stream, name), with the schema saying what `info` says
 * beyond the column's type: its name, time zone (timestamps), nullability, metadata (an extension
 * type's name and metadata among it), children's names and flags, `ordered` (dictionaries).
 * What does not fit the column is left out (a time zone on a non-timestamp, children's entries
 * when the counts differ). Costs and throws as the other overload, plus host strings.
 * @tparam C the column kind (or any_column)
 * @param col the column exported
 * @param schema where the schema is written
 * @param array where the device array is written
 * @param stream the stream the export is ordered on
 * @param info the field's description, as any_from_arrow() or a table's field() gives it
 */
template <arrow_exportable C>
void to_arrow(C const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream, field_info const& info) {
  scoped_device const on_device(column_device(col));
  detail::operation_spill_lock<typename detail::policy_of<C>::type> const spill_scope{stream};
  detail::export_kind(col, schema, array, stream, info.name, &info);
}

/**
 * @brief Exports `tbl` as a struct array (a record batch: format `+s`, no validity, one child per
 * column with its name), each column of any kind as its to_arrow() exports it. Zero-copy but for
 * bool and exposed columns. `schema` and `array` are written only on success.
 * Each column's spillable memory stays on the device while it is exported, and each node keeps
 * what it exports there until it is released (rule 20).
 * @tparam Policy the table's buffer policy
 * @param tbl the table to export
 * @param schema where the struct schema is written (not null)
 * @param array where the struct device array is written (not null)
 * @param stream the stream the export's copies run on and its `sync_event` is recorded on
 * @throws devcol::logic_error (null outputs, columns on different kinds of memory); as
 * to_arrow(column)
 */
template <buffer_policy Policy>
void to_arrow(basic_table<Policy> const& tbl, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {}) {
  // Rule 21: the export's event and copies on the columns' device (the first column's: an export
  // of columns on several devices is refused as columns on different kinds of memory are).
  scoped_device const on_device(tbl.num_columns() != 0 ? column_device(tbl[std::size_t{0}]) : current_device());
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_outputs(schema, array, "to_arrow");
  detail::export_table_array(tbl, array, stream, detail::table_schema_node(tbl), schema);
}

/// @brief Exports only the schema of `tbl` (as to_arrow(table) would), which the caller then owns.
/// Host work only: no device memory is read, nothing synchronises.
/// @tparam Policy the table's buffer policy
/// @param tbl the table whose schema is exported
/// @param schema where the schema is written (not null)
/// @throws devcol::logic_error (null output), std::bad_alloc
template <buffer_policy Policy>
void to_arrow_schema(basic_table<Policy> const& tbl, ArrowSchema* schema) {
  DEVCOL_EXPECTS(schema != nullptr, "to_arrow_schema: the ArrowSchema to export into is null");
  detail::publish(detail::table_schema_node(tbl), 0, schema);
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): the export of every kind, through a
// table or a type-erased column, is compiled there once.
DEVCOL_EXTERN_TEMPLATE void to_arrow<any_column<default_policy>>(any_column<default_policy> const&, ArrowSchema*,
                                                                 ArrowDeviceArray*, stream_ref, std::string);
DEVCOL_EXTERN_TEMPLATE void to_arrow<any_column<default_policy>>(any_column<default_policy> const&, ArrowSchema*,
                                                                 ArrowDeviceArray*, stream_ref, field_info const&);
DEVCOL_EXTERN_TEMPLATE void to_arrow_schema<any_column<default_policy>>(any_column<default_policy> const&,
                                                                        ArrowSchema*, std::string);
DEVCOL_EXTERN_TEMPLATE void to_arrow<default_policy>(basic_table<default_policy> const&, ArrowSchema*,
                                                     ArrowDeviceArray*, stream_ref);
DEVCOL_EXTERN_TEMPLATE void to_arrow_schema<default_policy>(basic_table<default_policy> const&, ArrowSchema*);
#endif

DEVCOL_NAMESPACE_END
