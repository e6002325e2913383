/**
 * @file from_arrow.hpp
 * @brief Import of columns and tables through the Arrow C Device Data Interface, zero-copy, from
 * untrusted producers.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds.hpp>
#include <devcol/interop/detail/record_batch.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Imports a `T` array, taking ownership of it: `array` is marked released at once, and its
 * producer's `release` is called exactly once, when the last devcol handle on its memory goes
 * (slices and copies of the result included). `schema` is released before this returns.
 *
 * Zero-copy: the column borrows the producer's buffers, which devcol never writes (a write through
 * the column copies first). Copies happen only for bit-packed bools (unpacked to one byte per row)
 * and values not aligned for `T`, and for bitmaps not word-aligned or whose bytes do not end on a
 * 64-bit word, unless devcol exported them (devcol reads whole words; Arrow's padding is only
 * recommended): those are copied,
 * one pass over 1/64 of the values' bytes. `null_count` -1 is counted (one pass, which
 * synchronises). On CUDA, `release` waits for the work devcol queued on `stream`.
 *
 * Before anything is touched the input is checked, and on any failure both structs are released
 * and `devcol::arrow_error` names the field and value: NULL or released structs and children;
 * nesting deeper than 64 or cycles; a format that is not `T` (timestamps of any zone match their
 * unit); buffer and child counts; dictionary presence; negative length or offset, their overflow;
 * null counts outside [-1, length] or without a bitmap; NULL values for rows; a device the backend
 * cannot read (host: CPU with device id -1 or 0; CUDA: the current device, pinned or managed
 * memory). Non-zero `reserved` is accepted. On CUDA, `stream` waits for the producer's
 * `sync_event` without blocking the host; on the host backend a `sync_event` is ignored.
 * @tparam T the column's value type (an Arrow primitive)
 * @tparam Policy the buffer policy of the column
 * @param schema the producer's schema, released before this returns
 * @param array the producer's device array, moved in (marked released)
 * @param stream the stream the import's copies and checks run on
 * @throws devcol::arrow_error, what allocation throws (for the copies above), devcol::cuda_error
 */
template <arrow_fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::import_guard guard(schema, array);
  detail::arrow_field const field = detail::check_device_import(schema, array);
  detail::check_fixed_width<T>(array->array, field, "array");
  guard.release_schema();
  auto const taken = guard.take_array(stream);
  ArrowArray const& imported = taken->device.array;
  detail::wait_for_producer(taken->device.sync_event, taken->device.device_type, stream);
  return detail::import_column<T, Policy>(imported, static_cast<std::size_t>(imported.offset),
                                          static_cast<std::size_t>(imported.length), imported.null_count, taken, stream);
}

/// @brief Whether `C` is a `basic_strings_column` (what from_arrow<C> imports from utf8 / large utf8,
/// or binary / large binary for a binary column).
/// @tparam C a type (a cv-qualified or reference type is not)
template <class C>
concept strings_column_type =
    std::same_as<C, std::remove_cvref_t<C>> && (of_kind<C, kind::strings> || of_kind<C, kind::binary>);

/// @brief Satisfied by the column kinds besides `column<T>` that `from_arrow<K>` imports (strings,
/// decimal, fixed-size binary, list, struct and dictionary columns of any policy): those with a
/// `detail::arrow_importer`.
/// @tparam K a column type
template <class K>
concept arrow_importable = detail::arrow_importer<K>::enabled;

/**
 * @brief Imports an array as a column of kind `K`: `from_arrow<devcol::strings_column>` (utf8; large
 * utf8 as `large_strings_column`; binary as `binary_column`, large binary as `large_binary_column`),
 * `from_arrow<decimal128_column>` (and decimal32/64),
 * `from_arrow<fixed_size_binary_column<my_policy>>`. Takes ownership as the fixed-width
 * from_arrow() does: `array` is marked released at once, its producer's `release` called exactly
 * once when the last devcol handle on its memory goes; `schema` is released before this returns.
 *
 * Zero-copy: the column borrows the producer's buffers (never written: a write through the column
 * copies first) and keeps the array's offset (O(1) for a slice). Copies only strings offsets and
 * decimal values misaligned for their type (the rows' only), and bitmaps as the fixed-width import
 * copies them.
 *
 * Checked before anything is adopted, the input released on every failure, `devcol::arrow_error`
 * naming the field and value: first the structure (as from_arrow() checks it, and per kind: strings
 * "u" for 32-bit offsets, "U" for 64-bit, binary "z" and "Z", three buffers, offsets not NULL unless there are no rows;
 * decimals "d:P,S[,W]" read as untrusted text, W 32, 64 or 128 matching `K` (256 is named as not
 * supported), P within the width's range, integers that fit an int; fixed-size binary "w:N" with
 * 1 <= N < 2^31), reading no buffer; then, for strings, the offsets' content in one kernel whose
 * result comes back in one copy (synchronises `stream`): the first offset not negative, none
 * decreasing, a NULL data buffer only when no bytes are reached. The C interface does not carry
 * buffer sizes: a strings data buffer is trusted to hold the bytes the last offset reaches. On
 * CUDA, `stream` first waits for the producer's `sync_event`.
 * @tparam K the column kind to import (see arrow_importable)
 * @param schema the producer's schema, released before this returns
 * @param array the producer's device array, moved in (marked released)
 * @param stream the stream the import's copies and checks run on
 * @throws devcol::arrow_error naming the field and value (the input released), what allocation
 *         throws, devcol::cuda_error
 */
template <arrow_importable K>
[[nodiscard]] K from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {}) {
  detail::operation_spill_lock<typename K::policy> const spill_scope{stream};
  detail::import_guard guard(schema, array);
  detail::arrow_field const field = detail::check_device_import(schema, array);
  detail::arrow_importer<K>::check(array->array, field, "array");
  guard.release_schema();
  auto const taken = guard.take_array(stream);
  detail::wait_for_producer(taken->device.sync_event, taken->device.device_type, stream);
  return detail::arrow_importer<K>::import(taken->device.array, field, taken, stream);
}

/**
 * @brief Imports an array of any kind devcol has, chosen at run time from its format (fixed width,
 * strings, decimals, fixed-size binary, lists, structs, dictionaries, recursively), taking
 * ownership as from_arrow() does: `array` is marked released at once and its producer's `release`
 * is called exactly once, when the last devcol handle on any of its memory goes; `schema` is
 * released before this returns.
 *
 * Zero-copy at every level (copies only where the kind's own import copies: bit-packed bools,
 * misaligned values or offsets, bitmaps devcol cannot read whole words of). Checked before
 * anything is adopted, the input released on every failure: first the whole tree's structure
 * (released or NULL nodes, depth over 64, cycles, formats, buffer and child counts, dictionary
 * presence, child lengths against a struct's offset + length, NULL buffers), reading no buffer;
 * then content, level by level: list offsets (one kernel and one copy per list: the first not
 * negative, none decreasing, the last within the child's length), strings offsets, dictionary
 * indices within the values (one pass each). Each synchronises `stream`.
 * @throws devcol::arrow_error naming the field (its path, e.g. "array.children[0].dictionary") and
 * value; what allocation throws; devcol::cuda_error
 * @tparam Policy the buffer policy of the columns
 * @param schema the producer's schema, released before this returns
 * @param array the producer's device array, moved in (marked released)
 * @param stream the stream the import's copies and checks run on
 * @param info where to write, on success only, what the schema says beyond the column's type
 * (name, time zone, nullability, metadata and extension, child names, `ordered`: see field_info),
 * so that to_arrow(col, ..., info) gives back an equal schema; not written when null
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] any_column<Policy> any_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {},
                                                field_info* info = nullptr) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::import_guard guard(schema, array);
  detail::arrow_field const field = detail::check_device_import(schema, array);
  detail::check_any<0>(array->array, field, "array");
  guard.release_schema();
  auto const taken = guard.take_array(stream);
  detail::wait_for_producer(taken->device.sync_event, taken->device.device_type, stream);
  auto col = detail::import_any<Policy>(taken->device.array, field, taken, stream);
  if (info != nullptr) { *info = detail::field_info_of(field); }
  return col;
}

/**
 * @brief Imports a struct array (a record batch) as a table, one column per child under its name,
 * taking ownership as from_arrow() does: one `release` of the whole array, when the last column
 * built over it goes. The struct's offset and length select the children's rows. Checked as
 * from_arrow() checks, and also: the format is `+s`, the struct has no null rows, each child is at
 * least offset + length long and of any kind any_from_arrow() imports (checked as it checks).
 * Names may repeat, as in an Arrow schema: each column keeps its place. Each column's field_info (time zone, nullability, metadata, extension, child
 * names, `ordered`) and the schema's metadata are kept in the table (`field(name)`, `metadata()`).
 * A `null_count` of -1 on the struct is checked by counting its nulls (one pass,
 * which synchronises); each column's content is checked as any_from_arrow() checks it.
 * @tparam Policy the buffer policy of the table's columns
 * @param schema the producer's schema, released before this returns
 * @param array the producer's device array (a struct array), moved in (marked released)
 * @param stream the stream the import's copies and checks run on
 * @throws devcol::arrow_error (the input released), what allocation throws, devcol::cuda_error
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] basic_table<Policy> table_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::import_guard guard(schema, array);
  detail::arrow_field const field = detail::check_device_import(schema, array);
  guard.release_schema();
  return detail::import_struct<Policy>(field, guard, stream);
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): the import of every kind.
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> any_from_arrow<default_policy>(ArrowSchema*, ArrowDeviceArray*,
                                                                                 stream_ref, field_info*);
DEVCOL_EXTERN_TEMPLATE basic_table<default_policy> table_from_arrow<default_policy>(ArrowSchema*, ArrowDeviceArray*,
                                                                                    stream_ref);
#endif

DEVCOL_NAMESPACE_END
