/**
 * @file mask_words.hpp
 * @brief Validity bitmaps read and written a 64-bit word at a time, at any bit offset (host fast
 * paths; see dispatch.hpp).
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>

#include <bit>
#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The 64 bits [bit, bit + 64) of `mask`: two aligned loads and a shift when `bit` is not a
/// multiple of 64. All 64 bits must lie in the mask's rows.
[[nodiscard, gnu::always_inline]] inline bitmask_word word_at(bitmask_word const* mask, std::size_t bit) noexcept {
  std::size_t const w = bit / bits_per_word;
  unsigned const shift = static_cast<unsigned>(bit % bits_per_word);
  if (shift == 0) { return mask[w]; }
  return (mask[w] >> shift) | (mask[w + 1] << (bits_per_word - shift));
}

/// The validity bits of rows [row, row + count) (count <= 64) of a mask at `offset`, low bit first;
/// all set where `mask` is null (no nulls). Bits past `count` are 0.
[[nodiscard, gnu::always_inline]] inline bitmask_word rows_word(bitmask_word const* mask, std::size_t offset,
                                                               std::size_t row, std::size_t count) noexcept {
  if (count == bits_per_word) { return mask == nullptr ? ~bitmask_word{0} : word_at(mask, offset + row); }
  bitmask_word word = 0;
  for (std::size_t b = 0; b < count; ++b) {
    if (mask == nullptr || bit_is_set(mask, offset + row + b)) { word |= bitmask_word{1} << b; }
  }
  return word;
}

/// Writes the AND of two masks (either may be null: all valid) for rows [begin, end) into `out`
/// (row 0 at bit 0; `begin` a multiple of 64) and returns how many of those rows are null.
[[gnu::always_inline]] inline std::size_t and_rows(bitmask_word const* a, std::size_t a_offset, bitmask_word const* b,
                                                   std::size_t b_offset, bitmask_word* out, std::size_t begin,
                                                   std::size_t end) noexcept {
  std::size_t valid = 0;
  for (std::size_t row = begin; row < end; row += bits_per_word) {
    std::size_t const count = end - row < bits_per_word ? end - row : bits_per_word;
    bitmask_word const word = rows_word(a, a_offset, row, count) & rows_word(b, b_offset, row, count);
    out[row / bits_per_word] = word;
    valid += static_cast<std::size_t>(std::popcount(word));
  }
  return (end - begin) - valid;
}

/// Writes the `words` words of a mask whose rows [0, rows) are valid but for the run [null_begin,
/// null_end), and whose bits past `rows` are 0: a sorted column's nulls, which sort puts first or last.
inline void write_null_run(bitmask_word* out, std::size_t words, std::size_t rows, std::size_t null_begin,
                           std::size_t null_end) noexcept {
  auto const below = [](std::size_t bit, std::size_t first) noexcept {  // word `first / 64`'s bits below `bit`
    if (bit <= first) { return bitmask_word{0}; }
    std::size_t const count = bit - first;
    return count >= bits_per_word ? ~bitmask_word{0} : (bitmask_word{1} << count) - 1;
  };
  for (std::size_t w = 0; w < words; ++w) {
    std::size_t const first = w * bits_per_word;
    out[w] = below(rows, first) & ~(below(null_end, first) & ~below(null_begin, first));
  }
}

/// The kernel of and_masks(): one null count per chunk.
struct and_kernel {
  bitmask_word const* a;
  std::size_t a_offset;
  bitmask_word const* b;
  std::size_t b_offset;
  bitmask_word* out;
  std::size_t* nulls;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    nulls[chunk] = and_rows(a, a_offset, b, b_offset, out, begin, end);
  }
};

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
