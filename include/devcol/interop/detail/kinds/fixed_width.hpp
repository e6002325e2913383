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
#include <devcol/column/detail/width_word.hpp>
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

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema subtree of a fixed-width column.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(column<T, Policy> const&, std::string name) {
  return leaf_schema(arrow_format_v<T>, std::move(name));
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

/// The private data of one column's ArrowArray: two buffers at the kept column's offset, no children.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_values_node(column<T, Policy> const& col, stream_ref stream) {
  column<T, Policy> kept = export_handle(col, stream);
  // Packed bools start in the mask's word of the first row, so a slice costs its rows, not its offset.
  std::size_t const skipped_words = type_traits<T>::arrow_bit_packed ? kept.offset() / bits_per_word : 0;
  std::size_t const offset = kept.offset() - skipped_words * bits_per_word;
  buffer<Policy> packed;
  if constexpr (type_traits<T>::arrow_bit_packed) { packed = pack_bools(kept, offset, stream); }
  std::unique_ptr<array_node> node;
  auto const& held = hold_in(node, 0, exported<column<T, Policy>>{std::move(kept), std::move(packed)});
  auto const* mask = static_cast<bitmask_word const*>(held.col.mask_buffer().data(access::read));
  describe_rows(*node, held.col, offset, mask != nullptr ? mask + skipped_words : nullptr, 2);
  node->buffers[1] = type_traits<T>::arrow_bit_packed ? held.made.data(access::read) : held.col.data_buffer().data(access::read);
  return node;
}

/// Whether `T`'s Arrow export and import run as its width's word: every type that moves as a word
/// but bool, which Arrow bit-packs.
template <class T>
inline constexpr bool arrow_moves_as_word = moves_as_word<T> && !type_traits<T>::arrow_bit_packed;

/// export_values_node(col); a type whose width has a word exports as that word's column (the same
/// buffers), so that every type of one width shares one body.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_column_node(column<T, Policy> const& col, stream_ref stream) {
  if constexpr (arrow_moves_as_word<T>) {
    return export_values_node(as_words(col), stream);
  } else {
    return export_values_node(col, stream);
  }
}

/// The array subtree of a fixed-width column (see export_column_node).
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

/**
 * @brief Rows [first, first + rows) of a checked array's buffers as a column. Values are borrowed
 * (no copy) unless they are bit-packed bools (unpacked, one pass) or misaligned for `T` (copied);
 * then the rows start at 0 and the validity bits are moved to match. `null_count` < 0: counted.
 */
template <fixed_width T, buffer_policy Policy>
column<T, Policy> import_values(ArrowArray const& array, std::size_t first, std::size_t rows, std::int64_t null_count,
                                std::shared_ptr<void const> const& keep, stream_ref stream) {
  using buffer_type = buffer<Policy>;
  void const* const values = array.buffers[1];
  constexpr bool packed = type_traits<T>::arrow_bit_packed;
  bool const shift = packed || reinterpret_cast<std::uintptr_t>(values) % alignof(T) != 0;
  buffer_type data;
  if constexpr (packed) {
    buffer_type bits = import_bits<Policy>(values, first, rows, false, exported_by_devcol(array), keep, stream);
    data = buffer_type(rows * sizeof(T), stream);
    executor exec(stream);
    detail::tabulate(exec, rows, static_cast<T*>(data.data(access::write, stream)),
                     unpack_bit{static_cast<bitmask_word const*>(bits.data(access::read)), first});
  } else if (shift) {  // misaligned values: copy the rows to aligned memory
    data = buffer_type(rows * sizeof(T), stream);
    copy_bytes(data.data(access::write, stream), static_cast<std::byte const*>(values) + first * sizeof(T),
               rows * sizeof(T), stream);
  } else {
    data = buffer_type::borrow(values, (first + rows) * sizeof(T), keep, stream);
  }
  auto [mask, nulls] = import_validity<Policy>(array, first, rows, null_count, shift, keep, stream);
  return column<T, Policy>(std::move(data), std::move(mask), rows, nulls, shift ? 0 : first);
}

/// import_values<T>; a type whose width has a word imports as that word's column, whose buffers it
/// then holds, so that every type of one width shares one body (as export_column_node).
template <fixed_width T, buffer_policy Policy>
column<T, Policy> import_column(ArrowArray const& array, std::size_t first, std::size_t rows, std::int64_t null_count,
                                std::shared_ptr<void const> const& keep, stream_ref stream) {
  if constexpr (arrow_moves_as_word<T>) {
    return from_words<T>(import_values<width_word_t<T>, Policy>(array, first, rows, null_count, keep, stream));
  } else {
    return import_values<T, Policy>(array, first, rows, null_count, keep, stream);
  }
}

}  // namespace detail
DEVCOL_NAMESPACE_END
