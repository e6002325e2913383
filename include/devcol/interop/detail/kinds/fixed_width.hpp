/**
 * @file fixed_width.hpp
 * @brief Arrow for fixed-width columns (`column<T>`: integers, floats, bool, timestamps,
 * durations, dates, times of day, half floats, intervals): the schema and zero-copy array nodes
 * (bools bit-packed), the format a producer's schema names, the structure checks and the import
 * over the producer's buffers. Decimals and dictionary indices export and import their values
 * through the same nodes.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

template <arrow_fixed_width T, buffer_policy Policy>
inline constexpr std::string_view leaf_format_v<column<T, Policy>> = arrow_format_v<T>;

/// The schema subtree of a fixed-width column.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(column<T, Policy> const&, std::string name) {
  return leaf_schema(leaf_format_v<column<T, Policy>>, std::move(name));
}

/// Bits [0, first + size) of a new bitmap from `col`'s resource: bit first + i is row i's value
/// (0 for a null row, whose byte is never read). One pass over the words, in order on `stream`.
template <buffer_policy Policy>
buffer<Policy> pack_bools(column<bool, Policy> const& col, std::size_t first, stream_ref stream) {
  return pack_bits<buffer<Policy>>(true_and_valid{col.view()}, first, col.size(), col.resource(), stream);
}

/// Where a column's memory lives (its values, or its mask when it has no values).
template <fixed_width T, buffer_policy Policy>
arrow_device device_of(column<T, Policy> const& col) {
  void const* p = col.data_buffer().data(access::read);
  return device_of(p != nullptr ? p : col.mask_buffer().data(access::read));
}

/**
 * The private data of a fixed-width column's ArrowArray, one body for every width and value type:
 * two buffers, no children. `rows` rows from row `offset` of `mask` and of `values`, whose values
 * are `width` bytes each (0: bit-packed bools, `values` already packed from bit `offset`), with
 * `null_count` nulls. When `snapshot` (memory others may write: exposed, or not copy-on-write), the
 * rows are copied first in order on `stream` (rule 21: on the values' device), as deep_copy copies
 * them; else the node shares the buffers, which then copy on the next write through the column.
 */
template <buffer_policy Policy>
std::unique_ptr<array_node> export_values(value_buffers<Policy> kept, std::size_t offset, std::size_t rows,
                                          std::size_t null_count, std::size_t width, bool snapshot,
                                          stream_ref stream) {
  if (snapshot) {
    kept = copy_value_rows(kept.values, kept.mask, offset, rows, width, stream);
    offset = 0;
  }
  // Packed bools start in the mask's word of the first row, so a slice costs its rows, not its offset.
  std::size_t const skipped_words = width == 0 ? offset / bits_per_word : 0;
  std::unique_ptr<array_node> node;
  auto const& held = hold_in(node, 0, std::move(kept));
  auto const* mask = static_cast<bitmask_word const*>(held.mask.data(access::read));
  node->length = static_cast<std::int64_t>(rows);
  node->null_count = static_cast<std::int64_t>(null_count);
  node->offset = static_cast<std::int64_t>(offset - skipped_words * bits_per_word);
  node->n_buffers = 2;
  node->buffers[0] = mask != nullptr ? mask + skipped_words : nullptr;
  node->buffers[1] = held.values.data(access::read);
  return node;
}

/// The private data of one column's ArrowArray (export_values): zero-copy unless its memory may be
/// written by others; a bool column's values bit-packed, in one pass on `stream`. Decimals and
/// dictionary indices export their values through it too. It passes aliases of the buffers: a
/// copy of an exposed buffer would be made on the buffer's own stream (rule 12), which the
/// export's readiness event does not cover, where export_values copies on `stream`.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_column_node(column<T, Policy> const& col, stream_ref stream) {
  bool const snapshot = !col.copy_on_write() || col.is_exposed();
  if constexpr (type_traits<T>::arrow_bit_packed) {
    // Packing copies the values; the mask is copied only when it must be.
    std::size_t const first = col.offset() % bits_per_word;
    buffer<Policy> packed = pack_bools(col, snapshot ? 0 : first, stream);
    return export_values<Policy>({std::move(packed), col.mask_buffer().alias()}, col.offset(), col.size(),
                                 col.null_count(), 0, snapshot, stream);
  } else {
    return export_values<Policy>({col.data_buffer().alias(), col.mask_buffer().alias()}, col.offset(), col.size(),
                                 col.null_count(), sizeof(T), snapshot, stream);
  }
}

/// The array subtree of a fixed-width column (export_column_node).
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_node(column<T, Policy> const& col, stream_ref stream) {
  return export_column_node(col, stream);
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// Whether an Arrow format string denotes `T` (timestamps match with any time zone: the values are
/// UTC instants either way; the column does not hold the zone, its `field_info` does).
template <arrow_fixed_width T>
[[nodiscard]] constexpr bool format_matches(std::string_view format) noexcept {
  std::string_view const ours = arrow_format_v<T>;
  if (ours.starts_with("ts")) { return format.starts_with(ours); }
  return format == ours;
}

/// What a refusal of an Arrow format lists: every type devcol does import, by kind.
inline constexpr char importable_formats[] =
    "devcol imports integers of 8 to 64 bits, halffloat, float, double, bool, timestamps with or without a time "
    "zone, durations, date32, date64, time32, time64, the three intervals, decimal32/64/128/256 "
    "('d:P,S[,32|64|256]'), "
    "fixed-size binary ('w:N'), utf8 ('u'), large utf8 ('U'), binary ('z'), large binary ('Z'), list ('+l'), "
    "large list ('+L'), map ('+m'), list view ('+vl'), large list view ('+vL'), fixed-size list ('+w:N'), "
    "struct ('+s'), null ('n'), string view ('vu'), binary view ('vz'), run-end encoded ('+r'), sparse and dense "
    "unions ('+us:<type codes>', '+ud:<type codes>') and dictionaries with integer indices over any of these";

/// Calls `f(std::type_identity<T>{})` for the fixed-width type `T` that `format` denotes.
/// @throws devcol::arrow_error naming the format when it denotes none
template <class F>
void visit_format(std::string_view format, std::string const& path, F&& f) {
  bool found = false;
  auto try_one = [&]<class Column>(std::type_identity<Column>) {
    if constexpr (kind_of<Column> == kind::fixed_width) {
      using T = typename Column::value_type;
      if (!found && format_matches<T>(format)) {
        found = true;
        f(std::type_identity<T>{});
      }
    }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (try_one(std::type_identity<any_column_kind_t<I>>{}), ...);
  }(std::make_index_sequence<any_column_kind_count<>>{});
  DEVCOL_ARROW_EXPECTS(found, path, ".format '", format, "' is not a type devcol imports (", importable_formats, ")");
}

/// The body of check_fixed_width, one for every type: `matches` says whether the format names the
/// type, whose name, format and bytes per value (0: bit-packed) the rest are.
template <int = 0>
void check_fixed_width_layout(ArrowArray const& array, arrow_field const& field, std::string const& path, bool matches,
                              std::string_view name, std::string_view format, std::size_t value_bytes) {
  DEVCOL_ARROW_EXPECTS(matches, path, ".format '", field.format, "' is not ", name, " ('", format, "')");
  check_values_layout(array, field, path, name, value_bytes);
}

/// Checks that an array (structure already checked) is a `T` array devcol can read.
template <arrow_fixed_width T>
void check_fixed_width(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  check_fixed_width_layout(array, field, path, format_matches<T>(field.format), type_name_v<T>, arrow_format_v<T>,
                           type_traits<T>::arrow_bit_packed ? 0 : sizeof(T));
}

// ---- import ----------------------------------------------------------------------------------

/// Bit `first + i` of `words` as row i's bool.
struct unpack_bit {
  bitmask_word const* words;
  std::size_t first;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return bit_is_set(words, first + i); }
};

/// What a fixed-width column imports of a producer's array: its values and mask (borrowed or
/// copied), the null count, and the offset of the first row in both.
template <buffer_policy Policy>
struct imported_values {
  buffer<Policy> values;
  buffer<Policy> mask;
  std::size_t null_count = 0;
  std::size_t offset = 0;
};

/**
 * Rows [first, first + rows) of a checked array's values of `width` bytes and its validity, one
 * body for every width and value type: the values borrowed (no copy) unless misaligned for
 * `alignment`, then copied to aligned memory in order on `stream`, the rows starting at 0 and the
 * validity bits moved to match. `null_count` < 0: counted (one pass; synchronises).
 */
template <buffer_policy Policy>
imported_values<Policy> import_value_buffers(ArrowArray const& array, std::size_t first, std::size_t rows,
                                             std::int64_t null_count, std::shared_ptr<void const> const& keep,
                                             std::size_t width, std::size_t alignment, stream_ref stream) {
  void const* const values = array.buffers[1];
  bool const shift = reinterpret_cast<std::uintptr_t>(values) % alignment != 0;
  imported_values<Policy> out;
  if (shift) {
    out.values = buffer<Policy>(rows * width, stream);
    copy_bytes(out.values.data(access::write, stream), static_cast<std::byte const*>(values) + first * width,
               rows * width, stream);
  } else {
    out.values = buffer<Policy>::borrow(values, (first + rows) * width, keep, stream);
    out.offset = first;
  }
  std::tie(out.mask, out.null_count) = import_validity<Policy>(array, first, rows, null_count, shift, keep, stream);
  return out;
}

/**
 * @brief Rows [first, first + rows) of a checked array's buffers as a column (import_value_buffers).
 * Bit-packed bools are unpacked (one pass), the rows starting at 0 and the validity bits moved to
 * match. Decimals and dictionary indices import their values through it too.
 */
template <fixed_width T, buffer_policy Policy>
column<T, Policy> import_column(ArrowArray const& array, std::size_t first, std::size_t rows, std::int64_t null_count,
                                std::shared_ptr<void const> const& keep, stream_ref stream) {
  if constexpr (type_traits<T>::arrow_bit_packed) {
    buffer<Policy> bits = import_bits<Policy>(array.buffers[1], first, rows, false, exported_by_devcol(array), keep,
                                              stream);
    buffer<Policy> data(rows * sizeof(T), stream);
    executor exec(stream);
    detail::tabulate(exec, rows, static_cast<T*>(data.data(access::write, stream)),
                     unpack_bit{static_cast<bitmask_word const*>(bits.data(access::read)), first});
    auto [mask, nulls] = import_validity<Policy>(array, first, rows, null_count, true, keep, stream);
    return column<T, Policy>(std::move(data), std::move(mask), rows, nulls, 0);
  } else {
    imported_values<Policy> in =
        import_value_buffers<Policy>(array, first, rows, null_count, keep, sizeof(T), alignof(T), stream);
    return column<T, Policy>(std::move(in.values), std::move(in.mask), rows, in.null_count, in.offset);
  }
}

}  // namespace detail
DEVCOL_NAMESPACE_END
