/**
 * @file strings.hpp
 * @brief gather of strings columns (`basic_strings_column`), and `detail::gather_strings`, the
 * body that filter and sort of strings share: variable-width rows cannot move in place, so the new
 * offsets come from one scan of the rows' lengths (ops/detail/offsets.hpp), then the bytes are
 * copied. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/offsets.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <limits>
#include <tuple>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What a strings gather reads of row `i` through the row map `Rows` (none: a null row).
template <class O, class Rows>
struct gathered_strings {
  strings_column_view<O> source;
  Rows rows;
  [[nodiscard]] DEVCOL_HOST_DEVICE bool valid(std::size_t i) const noexcept {
    std::size_t const r = rows(i);
    return r != Rows::none && source.is_valid(r);
  }
};
/// A gathered row's length (0 for a null row: devcol writes nulls empty).
template <class O, class Rows>
struct gathered_length : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept {
    return this->valid(i) ? this->source.length(this->rows(i)) : 0;
  }
};
/// A gathered row's validity.
template <class O, class Rows>
struct gathered_valid : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return this->valid(i); }
};
/// A gathered row's first source byte (called only for rows with bytes).
template <class O, class Rows>
struct gathered_start : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE char const* operator()(std::size_t i) const noexcept {
    return this->source.chars() + this->source.offsets()[this->rows(i)];
  }
};

#if DEVCOL_HOST_FAST_PATHS
/**
 * The result's validity words of a host strings gather, written a word at a time as the rows are
 * gathered in order, and its null count.
 */
template <class Buffer>
struct gathered_validity {
  Buffer mask;
  bitmask_word* words = nullptr;
  std::size_t valid = 0;
  bitmask_word word = 0;

  /// Records row `i`'s validity (rows in order).
  [[gnu::always_inline]] void add(std::size_t i, bool ok) noexcept {
    valid += ok ? 1U : 0U;
    word |= static_cast<bitmask_word>(ok) << (i % bits_per_word);
    if (i % bits_per_word == bits_per_word - 1) {
      if (words != nullptr) { words[i / bits_per_word] = word; }
      word = 0;
    }
  }
  /// Writes the last word and the padding after `n` rows; returns the null count (and drops the
  /// mask when no row is null).
  std::size_t finish(std::size_t n) {
    if (words == nullptr) { return 0; }
    std::size_t w = n / bits_per_word;
    if (n % bits_per_word != 0) { words[w++] = word; }
    for (; w < bitmask_allocation_size(n) / sizeof(bitmask_word); ++w) { words[w] = 0; }
    std::size_t const nulls = n - valid;
    if (nulls == 0) { mask = Buffer{}; }
    return nulls;
  }
};

/**
 * Below how many bytes of source offsets a strings gather on one host thread makes two passes
 * instead of one (host_gather_strings()): half the last-level cache, so that the offsets the first
 * pass reads are still there for the second. The tests set it to run either way (not synchronised
 * with gathers running meanwhile; set it between calls).
 */
inline std::atomic<std::size_t>& strings_gather_two_pass_below() noexcept {
  static std::atomic<std::size_t> bytes{host::last_level_cache_bytes() / 2};
  return bytes;
}

/**
 * gather_strings on one host thread, in one of two ways, both reading each source row's offsets
 * and validity with prefetches ahead, so that the random reads' cache misses overlap (a row's read
 * waits on a miss where the misses of the rows ahead are already under way):
 * - **Two passes** where the source's offsets fit in half the last-level cache. The first writes
 *   the result's offsets and validity (a short loop over the rows, its misses on the offsets and the
 *   mask), which sizes the characters exactly; the second copies the rows' bytes, rereading the
 *   offsets from the cache. One core of an Intel Xeon VM with a 300 MiB L3, 2^24 random rows of
 *   0-32 bytes (64 MiB of offsets): 0.76-0.78 s, where the one pass takes 1.7-1.8 s and Arrow
 *   C++'s take 1.1-1.6 s (bench/RESULTS.md).
 * - **One pass** otherwise, as Arrow C++'s take: it appends each row's bytes as it reads its
 *   offsets, the characters buffer starting at the source's mean row length times `n` and growing
 *   by half when short (an allocation and a copy of what is written); one left more than a quarter
 *   unused is copied to its exact size at the end. On a core whose L3 does not hold the offsets
 *   (an AMD EPYC VM, 32 MiB) a second pass would miss on them again: there the one pass took 0.82 s
 *   for the gather above, three passes 1.6 s and Arrow's take 1.4 s.
 */
template <class O, class Policy, encoding E, class Rows>
basic_strings_column<O, Policy, E> host_gather_strings(basic_strings_column<O, Policy, E> const& col, Rows rows,
                                                       std::size_t n, bool masked, char const* op,
                                                       stream_ref stream) {
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  auto const view = col.view();
  O const* const source_offsets = view.offsets();
  char const* const source_chars = view.chars();
  bitmask_word const* const source_mask = view.null_mask();
  std::size_t const mask_offset = view.mask_offset();
  constexpr auto limit = static_cast<std::size_t>(std::numeric_limits<O>::max());
  buffer_type offsets((n + 1) * sizeof(O), stream, mr::default_alignment, col.resource());
  auto* out_offsets = static_cast<O*>(offsets.data(access::write, stream));
  gathered_validity<buffer_type> validity;
  if (masked) {
    validity.mask = buffer_type(bitmask_allocation_size(n), stream, mr::default_alignment, col.resource());
    validity.words = static_cast<bitmask_word*>(validity.mask.data(access::write, stream));
  }
  // Asks for row `ahead`'s offsets and validity word.
  auto const prefetch_row = [&](std::size_t ahead) __attribute__((always_inline)) {
    if (ahead == Rows::none) { return; }
    __builtin_prefetch(source_offsets + ahead);
    if (source_mask != nullptr) { __builtin_prefetch(source_mask + (mask_offset + ahead) / bits_per_word); }
  };
  std::size_t total = 0;
  if ((col.size() + 1) * sizeof(O) < strings_gather_two_pass_below().load(std::memory_order_relaxed)) {
    constexpr std::size_t rows_ahead = 32;  // of the offsets (measured: 16, 32 and 48 rows)
    for (std::size_t i = 0; i < n; ++i) {
      if (i + rows_ahead < n) { prefetch_row(rows(i + rows_ahead)); }
      out_offsets[i] = static_cast<O>(total);
      std::size_t const r = rows(i);
      bool const ok = r != Rows::none && view.is_valid(r);
      total += ok ? static_cast<std::size_t>(source_offsets[r + 1] - source_offsets[r]) : 0;
      validity.add(i, ok);
    }
    expect_offsets_fit<O>(total <= limit, n, op);
    out_offsets[n] = static_cast<O>(total);
    buffer_type chars(total, stream, mr::default_alignment, col.resource());
    char* const out = static_cast<char*>(chars.data(access::write, stream));
    constexpr std::size_t bytes_ahead = 16;  // of the bytes; of their offsets, twice as far
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 2 * bytes_ahead < n) {
        if (std::size_t const ahead = rows(i + 2 * bytes_ahead); ahead != Rows::none) {
          __builtin_prefetch(source_offsets + ahead);
        }
      }
      if (i + bytes_ahead < n && out_offsets[i + bytes_ahead + 1] != out_offsets[i + bytes_ahead]) {
        __builtin_prefetch(source_chars + source_offsets[rows(i + bytes_ahead)]);
      }
      auto const length = static_cast<std::size_t>(out_offsets[i + 1] - out_offsets[i]);
      if (length != 0) { std::memcpy(out + out_offsets[i], source_chars + source_offsets[rows(i)], length); }
    }
    std::size_t const nulls = validity.finish(n);
    return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), std::move(validity.mask), n,
                                              nulls);
  }
  auto const grown = [&](std::size_t bytes, char const* from, std::size_t used) {
    buffer_type out(bytes, stream, mr::default_alignment, col.resource());
    if (used != 0) { std::memcpy(out.data(access::write, stream), from, used); }
    return out;
  };
  std::size_t const source_bytes =
      col.size() == 0 ? 0 : static_cast<std::size_t>(source_offsets[col.size()] - source_offsets[0]);
  std::size_t capacity = col.size() == 0 ? 0 : std::min(source_bytes / col.size() * n + 64, limit);
  buffer_type chars(capacity, stream, mr::default_alignment, col.resource());
  char* out = static_cast<char*>(chars.data(access::write, stream));
  for (std::size_t i = 0; i < n; ++i) {
    // Row i + 2d's offsets and validity, and row i + d's bytes (whose offsets came d rows ago).
    // The validity word too: a 2^24-row mask is 2 MiB, more than a core's L2 keeps beside the rest,
    // and where the L3 is far (the Intel Xeon VM above), reading it unprefetched was 44% of the
    // gather's time.
    constexpr std::size_t d = 16;
    if (i + 2 * d < n) { prefetch_row(rows(i + 2 * d)); }
    if (i + d < n) {
      if (std::size_t const ahead = rows(i + d); ahead != Rows::none) {
        __builtin_prefetch(source_chars + source_offsets[ahead]);
      }
    }
    out_offsets[i] = static_cast<O>(total);
    std::size_t const r = rows(i);
    bool const ok = r != Rows::none && view.is_valid(r);
    if (ok) {
      O const begin = source_offsets[r];
      auto const length = static_cast<std::size_t>(source_offsets[r + 1] - begin);
      expect_offsets_fit<O>(total + length <= limit, n, op);
      if (total + length > capacity) {
        capacity = std::max(total + length, capacity + capacity / 2);
        chars = grown(capacity, out, total);
        out = static_cast<char*>(chars.data(access::write, stream));
      }
      std::memcpy(out + total, source_chars + begin, length);
      total += length;
    }
    validity.add(i, ok);
  }
  out_offsets[n] = static_cast<O>(total);
  std::size_t const nulls = validity.finish(n);
  if (capacity - total > total / 4 + 4096) { chars = grown(total, out, total); }
  return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), std::move(validity.mask), n, nulls);
}
#endif

/**
 * The `n` rows of `col` that `rows` maps to (none: a null row), in new buffers from `col`'s
 * resource: one scan of the lengths to the offsets and one read of the total (synchronises), one
 * pass over the bytes (copy_rows); when `masked`, one pass over the mask words and the count of its
 * nulls (synchronises). On one host thread, host_gather_strings' single pass instead.
 */
template <class O, class Policy, encoding E, class Rows>
basic_strings_column<O, Policy, E> gather_strings(basic_strings_column<O, Policy, E> const& col, Rows rows, std::size_t n,
                                               bool masked, char const* op, stream_ref stream) {
#if DEVCOL_HOST_FAST_PATHS
  if (host::chunk_count(n) == 1) { return host_gather_strings(col, rows, n, masked, op, stream); }
#endif
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  auto const view = col.view();
  buffer_type offsets((n + 1) * sizeof(O), stream, mr::default_alignment, col.resource());
  auto* out_offsets = static_cast<O*>(offsets.data(access::write, stream));
  std::size_t const total = scan_lengths<O>(gathered_length<O, Rows>{{view, rows}}, n, out_offsets, op, stream);
  buffer_type chars(total, stream, mr::default_alignment, col.resource());
  copy_rows(static_cast<char*>(chars.data(access::write, stream)), out_offsets, n, total,
            gathered_start<O, Rows>{{view, rows}}, stream);
  buffer_type mask;
  std::size_t nulls = 0;
  if (masked) {
    std::tie(mask, nulls) = build_mask<buffer_type>(gathered_valid<O, Rows>{{view, rows}}, n, col.resource(), stream);
  }
  return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), std::move(mask), n, nulls);
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`) as a new strings column from
 * `col`'s resource; a null index gives a null row (stored empty). With `throw_error` the indices
 * are checked first (one pass; synchronises `stream`).
 *
 * Cost: one exclusive scan of the gathered lengths into the new offsets, whose last value is read
 * back to size the characters (synchronises `stream`); one pass over the result's bytes (host
 * backend: a `memcpy` per row over OpenMP threads; CUDA: a thread per byte); with nulls (in `col`,
 * in the indices, or from `nullify`), one pass writing the mask and one counting it (synchronises).
 * On one host thread (OMP_NUM_THREADS=1, or fewer than 2^16 rows), one pass over the rows instead,
 * whose characters buffer may be reallocated as it grows.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index (with out_of_bounds::throw_error),
 *         or the total when 32-bit offsets cannot hold the result's bytes
 */
template <arrow_offset O, class Policy, encoding E, std::integral I, class IndexPolicy>
[[nodiscard]] basic_strings_column<O, Policy, E> gather(basic_strings_column<O, Policy, E> const& col,
                                                     column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                     out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  bool const masked = col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify;
  return detail::gather_strings(col, detail::index_rows<I>{indices.view(), col.size()}, indices.size(), masked,
                                "gather", stream);
}

DEVCOL_NAMESPACE_END
