/**
 * @file filter.hpp
 * @brief Host fast path of fixed-width filter where the column or the flags have nulls: the kept
 * values and their validity bits compacted in one branchless pass, the validity read and written
 * a word at a time (see dispatch.hpp). The Thrust path makes three passes and a byte of scratch per
 * kept row (measured on 2^24 int64 rows with 10% nulls: 320 ms, against Arrow C++'s 80 ms).
 * Serial, as the host backend's filter without nulls is (compact_flagged).
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>

#include <bit>
#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The rows of `keep` that are true and valid (validity at bit `keep_offset` of `keep_mask`, or null).
[[nodiscard]] inline std::size_t count_kept(bool const* keep, bitmask_word const* keep_mask, std::size_t keep_offset,
                                            std::size_t n) noexcept {
  std::size_t kept = 0;
  for (std::size_t row = 0; row < n; row += block_rows) {
    std::size_t const count = n - row < block_rows ? n - row : block_rows;
    bitmask_word const valid = rows_word(keep_mask, keep_offset, row, count);
    for (std::size_t b = 0; b < count; ++b) {
      kept += static_cast<std::size_t>(keep[row + b]) & static_cast<std::size_t>((valid >> b) & 1U);
    }
  }
  return kept;
}

/**
 * Compacts the rows of `in` whose flag is true and valid into `out` (exactly `kept` rows) and their
 * validity into `out_words` (row 0 at bit 0; words past the kept rows are zeroed up to
 * `out_word_count`). Returns the number of valid rows written. Per block of 64 rows: the kept
 * flags as one word, the values copied branchlessly (each row written, the cursor advanced by its
 * flag), and the validity bits of the kept rows gathered by walking the set bits of that word and
 * appended to the result's bit stream (a branch per block, not per row).
 */
template <class T>
std::size_t compact_masked(T const* in, bitmask_word const* in_mask, std::size_t in_offset, bool const* keep,
                           bitmask_word const* keep_mask, std::size_t keep_offset, std::size_t n, T* out,
                           std::size_t kept, bitmask_word* out_words, std::size_t out_word_count) noexcept {
  std::size_t j = 0;  // values written
  std::size_t valid = 0;
  bitmask_word current = 0;  // the result's mask word being filled
  for (std::size_t row = 0; row < n && j < kept; row += block_rows) {
    std::size_t const count = n - row < block_rows ? n - row : block_rows;
    bitmask_word flags = 0;
    for (std::size_t b = 0; b < count; ++b) { flags |= static_cast<bitmask_word>(keep[row + b]) << b; }
    flags &= rows_word(keep_mask, keep_offset, row, count);
    bitmask_word const in_valid = rows_word(in_mask, in_offset, row, count);
    std::size_t const start = j;
    for (std::size_t b = 0; b < count && j < kept; ++b) {
      out[j] = in[row + b];
      j += static_cast<std::size_t>((flags >> b) & 1U);
    }
    bitmask_word bits = 0;
    unsigned taken = 0;
    for (bitmask_word rest = flags; rest != 0; rest &= rest - 1, ++taken) {
      bits |= ((in_valid >> std::countr_zero(rest)) & 1U) << taken;
    }
    valid += static_cast<std::size_t>(std::popcount(bits));
    auto const shift = static_cast<unsigned>(start % bits_per_word);
    current |= bits << shift;
    if (shift + taken >= bits_per_word) {
      out_words[start / bits_per_word] = current;
      current = shift == 0 ? 0 : bits >> (bits_per_word - shift);
    }
  }
  std::size_t w = j / bits_per_word;
  if (j % bits_per_word != 0) { out_words[w++] = current; }
  for (; w < out_word_count; ++w) { out_words[w] = 0; }
  return valid;
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
