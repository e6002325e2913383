/**
 * @file reduce.hpp
 * @brief Host fast paths of sum, min, max and minmax (see dispatch.hpp): one pass over the values
 * and, with nulls, their validity words; no second pass, no row-index arithmetic.
 *
 * Every type folds into `lanes` independent accumulators (two AVX2 registers' worth), which the
 * compiler keeps in vector registers: it may not reorder a floating-point reduction itself, and an
 * integer reduction it splits into lanes per 64-row block would end each block by folding its
 * lanes into one. Each loop over the lanes is marked DEVCOL_HOST_LANE_LOOP, without which GCC's
 * -O3 leaves it scalar. A block of 64 rows with nulls folds into the lanes, a null row as the
 * identity, chosen without a branch (fold_masked_block()). A chunk's blocks are read from four
 * sub-ranges in turn on Intel CPUs, from one on AMD's (fold_read_streams()).
 * min and max fold `v < acc ? v : acc`, which keeps `acc` when `v` is NaN (so NaN is skipped,
 * as Arrow does) and is exactly what x86's `minpd`/`maxpd` compute, so it vectorises without
 * -ffast-math. Integer results are exact; floating-point sums add in a different order from
 * Thrust's (within the usual bound, as reduce.hpp states).
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/column/detail/wrapping.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <memory>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

struct sum_step {
  template <class A>
  [[gnu::always_inline]] A operator()(A acc, A v) const noexcept { return wrapping_add(acc, v); }
};
struct min_step {
  template <class A>
  [[gnu::always_inline]] A operator()(A acc, A v) const noexcept { return v < acc ? v : acc; }
};
struct max_step {
  template <class A>
  [[gnu::always_inline]] A operator()(A acc, A v) const noexcept { return acc < v ? v : acc; }
};

/**
 * `value` where bit 0 of `bits` is set, else `otherwise`. With GCC, chosen with two ANDs and an OR
 * on the bits: written as `?:`, GCC's -O3 turns the choice into a branch per row before it
 * vectorises (a masked float sum ran 2.7 times slower; 2^20 rows, one core). clang 14 keeps `?:`:
 * with the bit form its no-null float minmax, in the same kernel, ran 5 times slower.
 */
template <class A>
[[nodiscard, gnu::always_inline]] inline A valid_or(bitmask_word bits, A value, A otherwise) noexcept {
#  if defined(__clang__)
  return (bits & 1U) != 0 ? value : otherwise;
#  else
  static_assert(sizeof(A) == 1 || sizeof(A) == 2 || sizeof(A) == 4 || sizeof(A) == 8);
  using word = width_word_t<A>;
  auto const keep = static_cast<word>(word{0} - static_cast<word>(bits & 1U));
  return std::bit_cast<A>(static_cast<word>((std::bit_cast<word>(value) & keep) |
                                            (std::bit_cast<word>(otherwise) & static_cast<word>(~keep))));
#  endif
}

/// Accumulators per fold: 64 bytes of them (two AVX2 registers), and at least the eight rows of a
/// validity byte.
template <class Acc>
inline constexpr std::size_t lanes = 64 / sizeof(Acc) < 8 ? 8 : 64 / sizeof(Acc);

/// For each validity byte, its eight rows' masks as words of width `W`: all ones where the row's
/// bit is set. 256 x 8 words (2 to 16 KiB), made at compile time.
template <class W>
struct byte_lane_masks {
  alignas(64) W rows[256][8];
};
template <class W>
inline constexpr byte_lane_masks<W> lane_masks = [] {
  byte_lane_masks<W> t{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    for (unsigned j = 0; j < 8; ++j) { t.rows[byte][j] = ((byte >> j) & 1U) != 0 ? static_cast<W>(~W{0}) : W{0}; }
  }
  return t;
}();

/// `value` where `keep` (a lane_masks word) is all ones, else `otherwise`, chosen on the bits.
template <class T>
[[nodiscard, gnu::always_inline]] inline T kept_or(width_word_t<T> keep, T value, T otherwise) noexcept {
  using word = width_word_t<T>;
  return std::bit_cast<T>(static_cast<word>((std::bit_cast<word>(value) & keep) |
                                            (std::bit_cast<word>(otherwise) & static_cast<word>(~keep))));
}

/**
 * Folds the 64 rows of `v` whose validity is `word` into `acc` with `step`, a null row as
 * `identity` (a value of `T`).
 *
 * With GCC, each validity byte's eight masks come from lane_masks, copied into a local array
 * (element by element: a memcpy became two 16-byte stores and a 32-byte load in the AVX2 build,
 * which the store buffer cannot forward, 7 times slower). One load of eight masks replaces a
 * variable shift, an AND and a compare per lane (valid_or()), which the vector units paid beside
 * the memory reads. One core, 10% nulls, 2^27 rows (medians of 9, before -> after): int32 sum 24.2
 * -> 19.2 ms, float sum 26.1 -> 19.4 ms, float minmax 23.8 -> 20.5 ms, int64 minmax 44.1 -> 35.4 ms,
 * each within 1-3 ms of its fold without nulls; the AVX2 build's int32 and float folds 28-34 ->
 * 17-20 ms. clang 14 keeps the per-lane shift: the table made its integer folds 2-9 times slower.
 */
template <class Acc, class T, class Step>
[[gnu::always_inline]] inline void fold_masked_block(T const* v, bitmask_word word, T identity, Step step,
                                                     Acc (&acc)[lanes<Acc>]) noexcept {
  constexpr std::size_t L = lanes<Acc>;
  static_assert(L % 8 == 0 && block_rows % L == 0);
#  if defined(__clang__)
  for (std::size_t k = 0; k < block_rows; k += L) {
    for (std::size_t j = 0; j < L; ++j) {
      acc[j] = step(acc[j], valid_or(word >> (k + j), static_cast<Acc>(v[k + j]), static_cast<Acc>(identity)));
    }
  }
#  else
  using W = width_word_t<T>;
  for (std::size_t k = 0; k < block_rows; k += L) {
    alignas(64) W keep[L];  // the masks of rows [k, k + L)
    for (std::size_t q = 0; q < L; q += 8) {
      W const* const masks = lane_masks<W>.rows[(word >> (k + q)) & 0xFFU];
      for (std::size_t j = 0; j < 8; ++j) { keep[q + j] = masks[j]; }
    }
    DEVCOL_HOST_LANE_LOOP for (std::size_t j = 0; j < L; ++j) {
      acc[j] = step(acc[j], static_cast<Acc>(kept_or(keep[j], v[k + j], identity)));
    }
  }
#  endif
}

/// Folds the 64 rows of `v` whose validity is `word` into `acc` with `step`, a null row as
/// `identity`.
template <class Acc, class T, class Step>
[[gnu::always_inline]] inline void fold_block(T const* v, bitmask_word word, Acc identity, Step step,
                                              Acc (&acc)[lanes<Acc>]) noexcept {
  constexpr std::size_t L = lanes<Acc>;
  if (word == ~bitmask_word{0}) {
    for (std::size_t k = 0; k < block_rows; k += L) {
      DEVCOL_HOST_LANE_LOOP for (std::size_t j = 0; j < L; ++j) { acc[j] = step(acc[j], static_cast<Acc>(v[k + j])); }
    }
  } else if (word != 0) {
    fold_masked_block(v, word, static_cast<T>(identity), step, acc);
  }
}

/// Sub-ranges a fold reads at once on a CPU that gains from them (see for_each_block()).
inline constexpr std::size_t read_streams = 4;

/**
 * Sub-ranges a fold reads at once: read_streams, but one on AMD CPUs, whose cores answer the
 * sub-ranges oppositely to Intel's. One thread, bench_ops: on an Intel Xeon VM (2^24 rows) four
 * sub-ranges took int32 sum from 7.7 to 4.4-5.6 ms, double minmax with 10% nulls from 17.9-22.6 to
 * 12.5-13.5 ms; on an AMD EPYC (Zen 4) VM they took, without nulls at 2^27 rows, int64 sum from
 * 35-42 to 70-76 ms and float minmax from 17-20 to 29-42 ms, and with nulls at 2^24 double minmax
 * from 5.3 to 9.7 ms (skewing the sub-ranges' starts off a power of two and prefetching the
 * validity words ahead did not help). At least 1; the tests set it to run either way (not
 * synchronised with kernels running meanwhile; set it between calls).
 */
inline std::atomic<std::size_t>& fold_read_streams() noexcept {
  static std::atomic<std::size_t> streams{cpu_is_amd() ? 1 : read_streams};
  return streams;
}

/**
 * Calls `f(row)` for the first row of every whole 64-row block of [begin, end), and returns the
 * first row after them. The blocks are taken from `streams` equal sub-ranges in turn, so that
 * one core has that many sequential streams in flight: a single stream leaves the core's reads
 * bound by what one hardware prefetch stream fetches ahead. One core of an Intel Xeon VM, 2^24
 * int64 on huge pages, a standalone loop: one stream read 9.0-10.1 GB/s, two 10.6-11.6, four
 * 11.3-12.2. In devcol (three rounds of medians of 15, one thread, 2^24 rows without nulls), four
 * streams took int32 sum from 7.7 to 4.4-5.6 ms, int32 minmax from 5.7-6.9 to 3.8-5.9 (one flat
 * loop before), int64 minmax from 12.7-16.7 to 11.4-13.4, and left int64 sum, which one stream
 * of 64-row blocks already read at that rate, where it was (11.7-12.1 against 10.0-12.3 ms).
 */
template <class F>
[[gnu::always_inline]] inline std::size_t for_each_block(std::size_t begin, std::size_t end, std::size_t streams,
                                                         F&& f) {
  std::size_t const stride = (end - begin) / block_rows / streams * block_rows;
  for (std::size_t b = 0; b < stride; b += block_rows) {
    for (std::size_t s = 0; s < streams; ++s) { f(begin + s * stride + b); }
  }
  std::size_t row = begin + streams * stride;
  for (; row + block_rows <= end; row += block_rows) { f(row); }
  return row;
}

/// How many sub-ranges a fold reads now (fold_read_streams()).
[[nodiscard]] inline std::size_t fold_streams() noexcept {
  return fold_read_streams().load(std::memory_order_relaxed);
}

/// Folds rows [begin, end) of `values` (row 0's validity at bit `offset` of `mask`; null: all valid)
/// into `acc` with `step`, a null row as `identity`.
template <class Acc, class T, class Step>
[[gnu::always_inline]] inline void fold_rows(T const* values, bitmask_word const* mask, std::size_t offset,
                                             std::size_t begin, std::size_t end, Acc identity, Step step,
                                             Acc (&acc)[lanes<Acc>]) noexcept {
  std::size_t row = for_each_block(begin, end, fold_streams(), [&](std::size_t r) {
    fold_block(values + r, rows_word(mask, offset, r, block_rows), identity, step, acc);
  });
  for (; row < end; ++row) {
    if (mask == nullptr || bit_is_set(mask, offset + row)) { acc[0] = step(acc[0], static_cast<Acc>(values[row])); }
  }
}

/// One result per chunk, each a `T` of its own that a thread writes through data(): not a
/// `std::vector`, whose `bool` specialisation packs its elements into bits and has no data() (min,
/// max and minmax of a bool column fold as `bool`).
template <class T>
class chunk_results {
 public:
  chunk_results(std::size_t chunks, T value) : values_(new T[chunks]) { std::fill_n(values_.get(), chunks, value); }
  [[nodiscard]] T* data() noexcept { return values_.get(); }
  [[nodiscard]] T operator[](std::size_t chunk) const noexcept { return values_[chunk]; }

 private:
  std::unique_ptr<T[]> values_;
};

/// The kernel of fold(): one partial result per chunk.
template <class Acc, class T, class Step>
struct fold_kernel {
  static constexpr bool reads_at_256_bits = true;  // see dispatch.hpp: it only reads
  T const* values;
  bitmask_word const* mask;
  std::size_t offset;
  Acc identity;
  Step step;
  Acc* partials;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    Acc acc[lanes<Acc>];
    for (auto& a : acc) { a = identity; }
    fold_rows(values, mask, offset, begin, end, identity, step, acc);
    Acc total = identity;
    for (auto const a : acc) { total = step(total, a); }
    partials[chunk] = total;
  }
};

/**
 * The fold with `step` of the `rows` rows of `values` (validity at bit `offset` of `mask`, or
 * null), from `identity`, a null row counting as `identity`. One pass; OpenMP threads where there
 * are several; the best instruction-set build the CPU runs.
 */
template <class Acc, class T, class Step>
[[nodiscard]] Acc fold(T const* values, std::size_t rows, bitmask_word const* mask, std::size_t offset, Acc identity,
                       Step step) {
  std::size_t const chunks = chunk_count(rows);
  chunk_results<Acc> partials(chunks, identity);
  fold_kernel<Acc, T, Step> kernel{values, mask, offset, identity, step, partials.data()};
  run_chunks(kernel, rows, chunks);
  Acc total = identity;
  for (std::size_t c = 0; c < chunks; ++c) { total = step(total, partials[c]); }
  return total;
}

/// The kernel of fold_minmax(): both extremes of each chunk, in one pass.
template <class T>
struct minmax_kernel {
  static constexpr bool reads_at_256_bits = true;  // see dispatch.hpp: it only reads
  T const* values;
  bitmask_word const* mask;
  std::size_t offset;
  T highest;
  T lowest;
  T* lo;
  T* hi;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    constexpr std::size_t L = lanes<T>;
    T a[L];
    T b[L];
    for (std::size_t j = 0; j < L; ++j) {
      a[j] = highest;
      b[j] = lowest;
    }
    std::size_t row = for_each_block(begin, end, fold_streams(), [&](std::size_t r) {
      T const* v = values + r;
      bitmask_word const word = rows_word(mask, offset, r, block_rows);
      if (word == ~bitmask_word{0}) {
        for (std::size_t k = 0; k < block_rows; k += L) {
          DEVCOL_HOST_LANE_LOOP for (std::size_t j = 0; j < L; ++j) {
            a[j] = min_step{}(a[j], v[k + j]);
            b[j] = max_step{}(b[j], v[k + j]);
          }
        }
      } else if (word != 0) {
#  if defined(__clang__)
        // Both extremes in one loop: as two fold_masked_block() calls, clang 14's float minmax ran
        // ten times slower.
        for (std::size_t k = 0; k < block_rows; k += L) {
          for (std::size_t j = 0; j < L; ++j) {
            a[j] = min_step{}(a[j], valid_or(word >> (k + j), v[k + j], highest));
            b[j] = max_step{}(b[j], valid_or(word >> (k + j), v[k + j], lowest));
          }
        }
#  else
        fold_masked_block(v, word, highest, min_step{}, a);
        fold_masked_block(v, word, lowest, max_step{}, b);
#  endif
      }
    });
    for (; row < end; ++row) {
      if (mask == nullptr || bit_is_set(mask, offset + row)) {
        a[0] = min_step{}(a[0], values[row]);
        b[0] = max_step{}(b[0], values[row]);
      }
    }
    T x = highest;
    T y = lowest;
    for (std::size_t j = 0; j < L; ++j) {
      x = min_step{}(x, a[j]);
      y = max_step{}(y, b[j]);
    }
    lo[chunk] = x;
    hi[chunk] = y;
  }
};

/// The least and greatest valid rows (NaN skipped), or the identities `highest` and `lowest` when
/// no valid row is a number. One pass (see fold()).
template <class T>
void fold_minmax(T const* values, std::size_t rows, bitmask_word const* mask, std::size_t offset, T highest, T lowest,
                 T& lo, T& hi) {
  std::size_t const chunks = chunk_count(rows);
  chunk_results<T> los(chunks, highest);
  chunk_results<T> his(chunks, lowest);
  minmax_kernel<T> kernel{values, mask, offset, highest, lowest, los.data(), his.data()};
  run_chunks(kernel, rows, chunks);
  lo = highest;
  hi = lowest;
  for (std::size_t c = 0; c < chunks; ++c) {
    lo = min_step{}(lo, los[c]);
    hi = max_step{}(hi, his[c]);
  }
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
