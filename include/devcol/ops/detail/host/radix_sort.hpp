/**
 * @file radix_sort.hpp
 * @brief Host fast path of argsort and sort for keys of up to 8 bytes: a stable
 * least-significant-digit radix sort, one byte a pass, on OpenMP threads (see dispatch.hpp).
 *
 * One pass over the rows counts every byte's buckets; a byte that is the same in every valid key
 * (the high bytes of small integers, the low bytes of integral doubles) costs no pass. The first
 * pass reads the column itself (keys made on the fly, null rows written where they go), the last
 * writes the result. argsort moves (key, row number) records through two scratch arrays and writes
 * the row numbers alone, as the result's int64. sort moves the values themselves, making each
 * one's key again in every pass (a xor for integers, a few operations for floats), with the result
 * as one of its two arrays: one scratch array of the valid values, as Thrust's sort needs, and the
 * values bit for bit (a NaN's payload, -0.0's sign), with no key to turn back into a value.
 *
 * Why not Thrust's: the OpenMP system's stable sort gives each thread a slice to sort with CCCL's
 * sequential radix sort and merges the slices after. That radix sort takes 8-byte keys 3 bits a
 * pass above 2^21 rows (up to 22 passes over keys and values, less those it finds constant), and
 * its 32-bit signed key encoder is wrong, so devcol merge-sorts int32 there. And argsort's Thrust
 * path writes the row numbers and gathers the keys before it sorts. On 2^24 rows, one thread of the
 * 2-core AMD EPYC machine (bench/RESULTS.md): int64 634 -> 147 ms, double 1,018 -> 294 ms.
 *
 * NaN rows stay out of the keys (they sort in row order beside the nulls): every NaN's key would
 * differ from the numbers' keys in every byte and so cost every pass.
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#if DEVCOL_HOST_FAST_PATHS
DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// Buckets per pass: one byte of the key.
inline constexpr std::size_t radix_buckets = 256;

/// A valid row's key beside its number, packed (a 12-byte record for 8-byte keys and 32-bit row
/// numbers): the passes move records, so their size is the sort's traffic.
template <class K, class Row>
struct [[gnu::packed]] keyed_row {
  K key;
  Row row;
};

/// 2^32: the first row count whose row numbers 32 bits do not hold.
inline constexpr std::size_t radix_narrow_rows_below = std::size_t{1} << 32;

/**
 * The row count from which an argsort's records carry 64-bit row numbers (16-byte records for
 * 8-byte keys) instead of 32-bit ones: radix_narrow_rows_below. A knob, so that tests run the
 * 64-bit records on columns they can allocate.
 */
inline std::atomic<std::size_t>& radix_wide_rows_from() noexcept {
  static std::atomic<std::size_t> rows{radix_narrow_rows_below};
  return rows;
}

/// The bucket of `key` in the pass over byte `shift / 8` (`mask` 0: the one bucket of a sort with
/// no pass, every key equal).
template <class K>
[[nodiscard, gnu::always_inline]] inline std::size_t radix_bucket(K key, unsigned shift, std::size_t mask) noexcept {
  return static_cast<std::size_t>(key >> shift) & mask;
}

/**
 * The first position each chunk writes each bucket's rows at, from `counts` ([chunk][bucket], the
 * chunk's rows in each bucket): buckets in key order (reversed when `descending`), chunks in row
 * order within a bucket, which keeps equal keys in row order. Positions start at `base`.
 */
inline void radix_positions(std::size_t const* counts, std::size_t stride, std::size_t chunks, bool descending,
                            std::size_t base, std::size_t* positions) {
  std::size_t at = base;
  for (std::size_t i = 0; i < radix_buckets; ++i) {
    std::size_t const bucket = descending ? radix_buckets - 1 - i : i;
    for (std::size_t c = 0; c < chunks; ++c) {
      positions[c * radix_buckets + bucket] = at;
      at += counts[c * stride + bucket];
    }
  }
}

/// Calls `f(row)` for every valid row in [begin, end) of a mask at `offset` (null: all valid), in
/// row order, a validity word at a time; `on_null(row)` for the others.
template <class F, class G>
[[gnu::always_inline]] inline void for_each_row(bitmask_word const* mask, std::size_t offset, std::size_t begin,
                                                std::size_t end, F&& f, G&& on_null) {
  if (mask == nullptr) {
    for (std::size_t i = begin; i < end; ++i) { f(i); }
    return;
  }
  for (std::size_t row = begin; row < end; row += block_rows) {
    std::size_t const count = end - row < block_rows ? end - row : block_rows;
    bitmask_word const word = rows_word(mask, offset, row, count);
    for (std::size_t j = 0; j < count; ++j) {
      if (((word >> j) & 1U) != 0) {
        f(row + j);
      } else {
        on_null(row + j);
      }
    }
  }
}

/**
 * Stable sort by radix of `n` rows into a result of `n` positions (descending when `descending`;
 * equal keys in row order). Two groups of rows sort apart from the keys, each in row order: the
 * null rows, before the others (`nulls_first`) or after, and beside them the valid rows that
 * `rows.unordered(row)` picks (floating point's NaN, which Arrow sorts beside the nulls). What
 * moves and what is written is `rows`'s: argsort moves (key, row number) records and writes row
 * numbers; sort moves the values themselves, their keys made again in every pass, and writes them.
 * @tparam Rows the rows' access, with
 *         - `key_type`: an unsigned integer of 1, 2, 4 or 8 bytes that orders as the rows do;
 *         - `record`: what a pass moves;
 *         - `bool unordered(std::size_t row)`, for valid rows; `key_type key_of(std::size_t row)`
 *           and `record make(std::size_t row, key_type key)`, for valid rows that are not unordered;
 *         - `key_type key(record)`;
 *         - `void put(std::size_t at, record)`, the last pass's write of a keyed row at position
 *           `at` of the result; `put_row(at, row)` and `put_null(at, row)`, the first pass's of an
 *           unordered and of a null row;
 *         - `record* records_at(std::size_t at)`: the result's positions from `at` as records, where
 *           the result holds records (so that the passes before the last use it as one of their
 *           two arrays), else a null pointer.
 * @tparam Scratch `record*(std::size_t count)`: storage for `count` records, kept until the sort
 *         returns; called at most twice (once when the result holds records), and not when one
 *         pass (or none) sorts the keys
 * @param mask, mask_offset the rows' validity (a null mask: every row valid)
 * @param n the rows
 */
template <class Rows, class Scratch>
void radix_sort_rows(Rows const& rows, std::size_t n, bitmask_word const* mask, std::size_t mask_offset,
                     bool descending, bool nulls_first, Scratch&& scratch) {
  using K = typename Rows::key_type;
  using record = typename Rows::record;
  constexpr std::size_t digits = sizeof(K);
  constexpr std::size_t stride = digits * radix_buckets + 1;  // and the chunk's unordered rows
  std::size_t const chunks = chunk_count(n);
  std::size_t const per = chunk_rows(n, chunks);
  auto rows_of = [&](std::size_t c) {
    std::size_t const begin = c * per < n ? c * per : n;
    return std::pair{begin, n - begin < per ? n - begin : per};
  };

  // Pass 0: every byte's buckets, and the unordered rows, per chunk.
  std::vector<std::size_t> counts(chunks * stride, 0);
  for_each_chunk(chunks, [&](std::size_t c) {
    auto const [begin, size] = rows_of(c);
    std::size_t* const h = counts.data() + c * stride;
    for_each_row(
        mask, mask_offset, begin, begin + size,
        [&](std::size_t i) __attribute__((always_inline)) {
          if (rows.unordered(i)) {
            ++h[stride - 1];
            return;
          }
          K const key = rows.key_of(i);
          for (std::size_t d = 0; d < digits; ++d) { ++h[d * radix_buckets + radix_bucket(key, 8U * unsigned(d), 0xFF)]; }
        },
        [](std::size_t) {});
  });
  // Per chunk, the keyed, the unordered and the null rows in the chunks before it.
  std::vector<std::size_t> keyed_before(chunks + 1, 0);
  std::vector<std::size_t> unordered_before(chunks + 1, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    std::size_t keyed = 0;
    for (std::size_t b = 0; b < radix_buckets; ++b) { keyed += counts[c * stride + b]; }
    keyed_before[c + 1] = keyed_before[c] + keyed;
    unordered_before[c + 1] = unordered_before[c] + counts[c * stride + stride - 1];
  }
  std::size_t const keyed = keyed_before[chunks];
  std::size_t const nulls = n - keyed - unordered_before[chunks];
  // [nulls][unordered][keyed], or [keyed][unordered][nulls].
  std::size_t const keyed_base = nulls_first ? n - keyed : 0;
  std::size_t const unordered_base = nulls_first ? nulls : keyed;
  std::size_t const null_base = nulls_first ? 0 : n - nulls;

  // The bytes that differ between keys, low first: one pass each.
  std::vector<std::size_t> total(stride, 0);
  for (std::size_t c = 0; c < chunks; ++c) {
    for (std::size_t i = 0; i < stride; ++i) { total[i] += counts[c * stride + i]; }
  }
  std::vector<unsigned> passes;
  for (std::size_t d = 0; d < digits; ++d) {
    bool constant = false;
    for (std::size_t b = 0; b < radix_buckets; ++b) { constant = constant || total[d * radix_buckets + b] == keyed; }
    if (!constant) { passes.push_back(static_cast<unsigned>(d)); }
  }

  // The arrays the passes before the last write, in turn. Where the result holds records, it is
  // one of them, and the pass before the last writes the other, which the last reads.
  std::vector<std::size_t> positions(chunks * radix_buckets);
  record* from = nullptr;
  record* to = nullptr;
  record* spare = nullptr;
  if (passes.size() > 1) {
    if (record* const in_result = rows.records_at(keyed_base); in_result != nullptr) {
      record* const own = scratch(keyed);
      bool const own_first = (passes.size() - 2) % 2 == 0;
      to = own_first ? own : in_result;
      spare = own_first ? in_result : own;
    } else {
      to = scratch(keyed);
      spare = passes.size() > 2 ? scratch(keyed) : nullptr;
    }
  }

  // The first pass reads the column; with no byte to sort by, one bucket holds every keyed row.
  {
    bool const last = passes.size() <= 1;
    unsigned const shift = passes.empty() ? 0 : 8U * passes.front();
    std::size_t const bucket_mask = passes.empty() ? 0 : 0xFF;
    if (passes.empty()) {  // each chunk's keyed rows after those of the chunks before it
      for (std::size_t c = 0; c < chunks; ++c) { positions[c * radix_buckets] = keyed_base + keyed_before[c]; }
    } else {
      radix_positions(counts.data() + passes.front() * radix_buckets, stride, chunks, descending,
                      last ? keyed_base : 0, positions.data());
    }
    auto pass = [&]<bool Last>(std::bool_constant<Last>) {  // the test of `last` out of the loop
      for_each_chunk(chunks, [&](std::size_t c) {
        auto const [begin, size] = rows_of(c);
        std::size_t* const at = positions.data() + c * radix_buckets;
        std::size_t null_at = null_base + (begin - keyed_before[c] - unordered_before[c]);
        std::size_t unordered_at = unordered_base + unordered_before[c];
        for_each_row(
            mask, mask_offset, begin, begin + size,
            [&](std::size_t i) __attribute__((always_inline)) {
              if (rows.unordered(i)) {
                rows.put_row(unordered_at++, i);
                return;
              }
              K const key = rows.key_of(i);
              std::size_t const to_at = at[radix_bucket(key, shift, bucket_mask)]++;
              if constexpr (Last) {
                rows.put(to_at, rows.make(i, key));
              } else {
                to[to_at] = rows.make(i, key);
              }
            },
            [&](std::size_t i) __attribute__((always_inline)) { rows.put_null(null_at++, i); });
      });
    };
    if (last) {
      pass(std::true_type{});
    } else {
      pass(std::false_type{});
    }
  }

  // The other passes move records, the last writing the result.
  // At most `chunks`, which sized `positions`, even if the rows-per-thread knob changed meanwhile.
  std::size_t const record_chunks = std::min(chunks, chunk_count(keyed));
  std::size_t const record_per = (keyed + record_chunks - 1) / record_chunks;
  std::vector<std::size_t> record_counts(record_chunks * radix_buckets, 0);
  for (std::size_t p = 1; p < passes.size(); ++p) {
    from = to;
    to = spare;
    spare = from;
    bool const last = p + 1 == passes.size();
    unsigned const shift = 8U * passes[p];
    auto bounds = [&](std::size_t c) {
      std::size_t const begin = c * record_per < keyed ? c * record_per : keyed;
      return std::pair{begin, keyed - begin < record_per ? keyed - begin : record_per};
    };
    if (record_chunks == 1) {  // the whole array's buckets: pass 0 counted them
      std::copy_n(total.data() + passes[p] * radix_buckets, radix_buckets, record_counts.data());
    } else {
      for_each_chunk(record_chunks, [&](std::size_t c) {
        auto const [begin, size] = bounds(c);
        std::size_t* const h = record_counts.data() + c * radix_buckets;
        std::fill_n(h, radix_buckets, 0);
        for (std::size_t i = begin; i < begin + size; ++i) { ++h[radix_bucket(rows.key(from[i]), shift, 0xFF)]; }
      });
    }
    radix_positions(record_counts.data(), radix_buckets, record_chunks, descending, last ? keyed_base : 0,
                    positions.data());
    for_each_chunk(record_chunks, [&](std::size_t c) {
      auto const [begin, size] = bounds(c);
      std::size_t* const at = positions.data() + c * radix_buckets;
      if (last) {
        for (std::size_t i = begin; i < begin + size; ++i) {
          record const r = from[i];
          rows.put(at[radix_bucket(rows.key(r), shift, 0xFF)]++, r);
        }
      } else {
        for (std::size_t i = begin; i < begin + size; ++i) {
          record const r = from[i];
          to[at[radix_bucket(rows.key(r), shift, 0xFF)]++] = r;
        }
      }
    });
  }
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
