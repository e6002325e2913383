/**
 * @file width_word.hpp
 * @brief Data movement by element width: the unsigned word that carries a fixed-width type's
 * bytes, and a column seen as a column of that word. Gather, filter and the Arrow export and
 * import move bytes and never read values as numbers, so int64, double, timestamps, durations,
 * date64 and time64 can share one body (the word's) instead of instantiating one each: a
 * consumer's build pays once per width, not once per type. Users include the operations' and
 * interop headers.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The word of `T`'s width, where `T` is aligned at least as the word is (so its buffers alias as
/// words without a misaligned access); `T` itself where no such word exists (3-, 12-byte values,
/// 8-byte structs of two int32s, 16-byte values aligned to 8).
template <class T>
using width_word_t = std::conditional_t<
    sizeof(T) == 1, std::uint8_t,
    std::conditional_t<
        sizeof(T) == 2 && alignof(T) >= 2, std::uint16_t,
        std::conditional_t<sizeof(T) == 4 && alignof(T) >= 4, std::uint32_t,
                           std::conditional_t<sizeof(T) == 8 && alignof(T) >= 8, std::uint64_t,
                                              std::conditional_t<sizeof(T) == 16 && alignof(T) >= alignof(int128_t),
                                                                 int128_t, T>>>>>;

/// Calls `M(W)` for each width word: the data-movement bodies that the precompiled library holds
/// for every type of one of these widths (core/config.hpp).
#define DEVCOL_FOR_EACH_WIDTH_WORD(M) M(std::uint8_t) M(std::uint16_t) M(std::uint32_t) M(std::uint64_t) M(int128_t)

/// Whether `T`'s data movement runs as its width word's (true for every type but the words
/// themselves and the types no word fits).
template <class T>
inline constexpr bool moves_as_word = !std::is_same_v<width_word_t<T>, T>;

// The list above names exactly the words width_word_t picks (each its own word, one per width).
#define DEVCOL_WIDTH_WORD_IS_ITS_OWN(W) &&!moves_as_word<W>
#define DEVCOL_WIDTH_WORD_BYTES(W) +sizeof(W)
static_assert((true DEVCOL_FOR_EACH_WIDTH_WORD(DEVCOL_WIDTH_WORD_IS_ITS_OWN)) &&
                  (0 DEVCOL_FOR_EACH_WIDTH_WORD(DEVCOL_WIDTH_WORD_BYTES)) == 1 + 2 + 4 + 8 + 16,
              "width_word.hpp: DEVCOL_FOR_EACH_WIDTH_WORD must list width_word_t's words, one per width");
#undef DEVCOL_WIDTH_WORD_IS_ITS_OWN
#undef DEVCOL_WIDTH_WORD_BYTES

/// `col`'s buffers, rows, nulls and offset as a column of `U`, a type of `T`'s size (its width
/// word, or the integer a value type stands on; buffers are aligned for either). O(1): shares the buffers (their
/// copy-on-write state and spill owner included), reads no device memory.
template <class U, class T, class Policy>
  requires(sizeof(U) == sizeof(T))
[[nodiscard]] column<U, Policy> rows_as(column<T, Policy> const& col) {
  return column<U, Policy>(col.data_buffer().alias(), col.mask_buffer().alias(), col.size(), col.null_count(),
                           col.offset());
}

/// `col` as a column of `T`'s word (see rows_as).
template <class T, class Policy>
[[nodiscard]] column<width_word_t<T>, Policy> as_words(column<T, Policy> const& col) {
  return rows_as<width_word_t<T>>(col);
}

/// `view`'s rows as `T`'s word: the same memory and validity, for kernels that move values
/// without reading them. O(1).
template <class T>
[[nodiscard]] DEVCOL_HOST_DEVICE column_view<width_word_t<T>> word_view(column_view<T> view) noexcept {
  return {reinterpret_cast<width_word_t<T> const*>(view.data()), view.size(), view.null_mask(), view.mask_offset(),
          view.null_count()};
}

/// `value`'s bytes as `T`'s word (a fill's value, written by the word's kernel).
template <class T>
[[nodiscard]] width_word_t<T> word_value(T const& value) noexcept {
  return std::bit_cast<width_word_t<T>>(value);
}

/// A column of `T`'s word, made by an operation for its caller, as the column of `T` it holds.
/// O(1): adopts the buffers, reads no device memory.
template <class T, class Policy>
[[nodiscard]] column<T, Policy> from_words(column<width_word_t<T>, Policy> const& words) {
  return rows_as<T>(words);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
