/**
 * @file gather.hpp
 * @brief Host fast path of fixed-width gather (take): values, bounds check and the result's
 * validity words in one pass over the indices (see dispatch.hpp). The Thrust path makes up to
 * three: a check of the indices, the values, and the mask (which reads every index again). Values
 * of a result larger than the cache are written with streaming stores (see streaming_stores.hpp).
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>
#include <devcol/ops/detail/host/streaming_stores.hpp>

#include <bit>
#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// Whether `index` is in [0, rows): one unsigned compare.
template <class I>
[[nodiscard, gnu::always_inline]] inline bool index_in_bounds(I index, std::size_t rows) noexcept {
  return static_cast<std::size_t>(index) < rows;  // a negative index converts to a huge one
}

/**
 * One chunk of a gather. Result row i is `source[indices[i]]` where the index is valid and in
 * bounds, else `T{}`. It counts the valid indices that are out of bounds into outside[chunk]; with
 * `out_mask` it also writes the result's validity words (valid index, in bounds, valid source row)
 * and counts the valid rows into valid[chunk]. Those two counts tell a null source row from a bad
 * index, so the caller can throw on bad indices without a second pass.
 */
template <class T, class I>
struct gather_kernel {
  T const* source;
  std::size_t source_rows;  // > 0
  bitmask_word const* source_mask;
  std::size_t source_offset;
  I const* indices;
  bitmask_word const* index_mask;
  std::size_t index_offset;
  T* __restrict out;
  bitmask_word* out_mask;  // row 0 at bit 0
  std::size_t* outside;    // per chunk: valid indices out of bounds
  std::size_t* valid;      // per chunk, with out_mask: valid result rows
  stream_mode stream;      // values written with streaming stores or not (see streams())

  /// One build (dispatch.hpp's single_build): the gather waits on its random loads, and its AVX2
  /// and AVX-512 builds, which would differ only in the width of their streaming stores, ran no
  /// faster. One thread, int64 by int32 indices, medians of 9 alternated calls per build, without
  /// and with 10% nulls (Intel Xeon VM, model 207): 2^24 rows 104 / 143 ms in the baseline build
  /// against 101 / 145 ms in the AVX-512 one, 2^27 rows 799 / 1,429 against 782 / 1,473 ms.
  static constexpr bool single_build = true;

  /// How many rows ahead the source is prefetched: far enough for the misses of a core's whole
  /// memory-level parallelism to be in flight. `bench_ops`, one thread, 2^24 rows (AMD EPYC, Zen
  /// 4): 32 rows ahead took 77-89 ms per gather (int32 and float slower than int64), 64 took
  /// 60-65 ms, 128 took 50-62 ms, 256 no less.
  static constexpr std::size_t prefetch_distance = 128;

  /// The random reads are the cost: starts those of row `i + prefetch_distance` (its source value
  /// and, where the source has nulls, its validity word) while row `i` is gathered. Into the L2
  /// cache (locality 2, x86's `prefetcht1`), not the L1: one core, 2^24 int64 rows on huge pages,
  /// a standalone loop, three rounds of medians of 7: 135-145 ms with `prefetcht1` against 164-200
  /// ms with `prefetcht0` and 173-215 ms without prefetching.
  [[gnu::always_inline]] void prefetch_ahead(std::size_t i, std::size_t end) const noexcept {
    if (i + prefetch_distance >= end) { return; }
    I const ahead = indices[i + prefetch_distance];
    std::size_t const from = index_in_bounds(ahead, source_rows) ? static_cast<std::size_t>(ahead) : 0;
    __builtin_prefetch(source + from, 0, 2);
    if (source_mask != nullptr) { __builtin_prefetch(source_mask + (source_offset + from) / bits_per_word, 0, 2); }
  }

  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    std::size_t bad = 0;
    if (out_mask == nullptr) {
      write_rows(out, begin, end, stream, [&](std::size_t i) __attribute__((always_inline)) {
        prefetch_ahead(i, end);
        I const index = indices[i];
        bool const ok = index_in_bounds(index, source_rows);
        bad += ok ? 0 : 1;
        return source[ok ? static_cast<std::size_t>(index) : 0];
      });
      outside[chunk] = bad;
      return;
    }
    std::size_t count = 0;
    for (std::size_t row = begin; row < end; row += block_rows) {
      std::size_t const n = end - row < block_rows ? end - row : block_rows;
      bitmask_word const valid_index = rows_word(index_mask, index_offset, row, n);
      bitmask_word word = 0;
      alignas(64) T block[block_rows];
      T* const to = stream && n == block_rows ? block : out + row;
      for (std::size_t j = 0; j < n; ++j) {
        prefetch_ahead(row + j, end);
        I const index = indices[row + j];
        bool const in_bounds = index_in_bounds(index, source_rows);
        bool const index_valid = ((valid_index >> j) & 1U) != 0;
        bad += index_valid && !in_bounds ? 1 : 0;
        bool const ok = index_valid && in_bounds;
        auto const from = ok ? static_cast<std::size_t>(index) : 0;
        to[j] = ok ? source[from] : T{};
        bool const row_valid = ok && (source_mask == nullptr || bit_is_set(source_mask, source_offset + from));
        word |= static_cast<bitmask_word>(row_valid) << j;
      }
      if (to == block) { stream_block(out + row, block, stream); }
      out_mask[row / bits_per_word] = word;
      count += static_cast<std::size_t>(std::popcount(word));
    }
    if (stream) { stream_fence(); }
    outside[chunk] = bad;
    valid[chunk] = count;
  }
};

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
