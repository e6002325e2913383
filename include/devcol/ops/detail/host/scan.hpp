/**
 * @file scan.hpp
 * @brief Host fast path of the scans (sum, min, max; inclusive and exclusive): each 64-row block
 * is an OpenMP SIMD scan (`#pragma omp simd reduction(inscan, ...)`), which GCC turns into a prefix
 * computed inside vector registers, the running value carried from block to block.
 *
 * Why not a plain loop: `acc += in[i]; out[i] = acc;` is a chain of dependent additions, one row
 * after another. For int32 GCC leaves it scalar (5.4 ms per 2^24 rows on one Zen 4 core, where the
 * SIMD scan takes 4.7 ms), and for floating point it may not reorder the additions at all (13.9 ms
 * for float, the latency of 2^24 additions, against 5.5 ms). The SIMD scan adds floating-point rows
 * in a different order from Arrow's sequential one, as the Thrust path does across threads (scan.hpp
 * states the bound). clang 14 does not vectorise the SIMD scan (and warns that it could not), so
 * with clang, or without OpenMP, each block is the plain loop, whose results are the same.
 *
 * Over several threads, the threads scan tiles in turn and pass the running value from tile to tile
 * (scan_tiles()); still one pass over memory. On one thread, an output larger than the cache is
 * written with streaming stores (streaming_stores.hpp), which do not read it first.
 */
#pragma once

#include <devcol/column/bitmask.hpp>
#include <devcol/core/config.hpp>
#include <devcol/ops/detail/floating_point.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>
#include <devcol/ops/detail/host/mask_words.hpp>
#include <devcol/ops/detail/host/reduce.hpp>
#include <devcol/ops/detail/host/streaming_stores.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#if DEVCOL_HOST_FAST_PATHS
#  if defined(_OPENMP) && !defined(__clang__)
#    define DEVCOL_HOST_SIMD_SCAN(op) _Pragma(DEVCOL_HOST_PRAGMA_TEXT(omp simd reduction(inscan, op : acc)))
#    define DEVCOL_HOST_SCAN_INCLUSIVE _Pragma("omp scan inclusive(acc)")
#    define DEVCOL_HOST_SCAN_EXCLUSIVE _Pragma("omp scan exclusive(acc)")
#    define DEVCOL_HOST_PRAGMA_TEXT(...) #__VA_ARGS__
#  else
#    define DEVCOL_HOST_SIMD_SCAN(op)
#    define DEVCOL_HOST_SCAN_INCLUSIVE
#    define DEVCOL_HOST_SCAN_EXCLUSIVE
#  endif

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The operation of a host scan.
enum class scan_kind { sum, min, max };

/// The type a scan accumulates in: integers sum in their unsigned type, so that a sum that passes
/// the type's range wraps, as wrapping_add() makes the Thrust path's do, instead of being undefined.
/// The SIMD scan's reduction adds accumulators with its own `+`, not through sum_step, so the type
/// itself must wrap.
template <scan_kind Kind, class T>
using scan_acc_t = typename std::conditional_t<Kind == scan_kind::sum && std::is_integral_v<T>, std::make_unsigned<T>,
                                               std::type_identity<T>>::type;

/// Row `v` as the scan reads it: a NaN in a min or max scan is skipped (the identity), as Arrow's
/// cumulative_min and cumulative_max skip it.
template <scan_kind Kind, class A, class T>
[[nodiscard, gnu::always_inline]] inline A scan_value(T v, A identity) noexcept {
  if constexpr (Kind != scan_kind::sum && std::is_floating_point_v<T>) {
    return is_nan(v) ? identity : v;
  } else {
    (void)identity;
    return static_cast<A>(v);
  }
}

/// The step of a scan: the running value and a row give the next running value.
template <scan_kind Kind>
using scan_step = std::conditional_t<Kind == scan_kind::sum, sum_step,
                                     std::conditional_t<Kind == scan_kind::min, min_step, max_step>>;

/// Scans one 64-row block: `out[k]` is the running value after (inclusive) or before (exclusive)
/// row k, from `acc`, which it leaves after the block's last row. `Masked`: bit k of `word` says
/// whether row k is valid (a null row counts as `identity`).
template <scan_kind Kind, bool Inclusive, bool Masked, class A, class T>
[[gnu::always_inline]] inline void scan_block(T const* __restrict v, bitmask_word word, A identity, T* __restrict out,
                                              A& acc) noexcept {
  auto const row = [&](std::size_t k) __attribute__((always_inline)) {
    A const x = scan_value<Kind>(v[k], identity);
    if constexpr (Masked) {
      return valid_or(word >> k, x, identity);
    } else {
      (void)word;
      return x;
    }
  };
  // The reduction identifier and the scan clause are pragmas, which a template argument cannot
  // choose: the pair of loops is spelled once here, and written out once per operation.
#  define DEVCOL_HOST_SCAN_LOOPS(op)                                \
    if constexpr (Inclusive) {                                     \
      DEVCOL_HOST_SIMD_SCAN(op)                                    \
      for (std::size_t k = 0; k < block_rows; ++k) {               \
        acc = scan_step<Kind>{}(acc, row(k));                      \
        DEVCOL_HOST_SCAN_INCLUSIVE                                 \
        out[k] = static_cast<T>(acc);                              \
      }                                                            \
    } else {                                                       \
      DEVCOL_HOST_SIMD_SCAN(op)                                    \
      for (std::size_t k = 0; k < block_rows; ++k) {               \
        out[k] = static_cast<T>(acc);                              \
        DEVCOL_HOST_SCAN_EXCLUSIVE                                 \
        acc = scan_step<Kind>{}(acc, row(k));                      \
      }                                                            \
    }
  if constexpr (Kind == scan_kind::sum) {
    DEVCOL_HOST_SCAN_LOOPS(+)
  } else if constexpr (Kind == scan_kind::min) {
    DEVCOL_HOST_SCAN_LOOPS(min)
  } else {
    DEVCOL_HOST_SCAN_LOOPS(max)
  }
#  undef DEVCOL_HOST_SCAN_LOOPS
}

/// Whether a scan of `Kind` over `T` rows reassociates into a wrong result where a partial sum
/// leaves the finite range: floating-point sums. A prefix made in another order than the rows'
/// (inside a block's vector registers, or a tile's before its carry) can overflow to an infinity,
/// or meet one of the other sign and give NaN, where the running sum in row order stays finite
/// (-3e38, then 3e38, 3e38, -3e38: the sequential sums are 0, 3e38, 0; a prefix of the last three
/// first is inf). The other way round, reordered rounding can stay finite where the row order
/// overflows, and a later row of the other sign then gives a finite sum where Arrow's is infinite
/// (max - 2 ulp, 2^103, 3 * 2^103, -max in float: inf, inf in row order, max, 0 reordered). Such a
/// block or tile is scanned again in row order, so a result is non-finite where Arrow's sequential
/// cumulative_sum is, given the same running value before the block or tile, and a finite one stays
/// within the bound of reordered rounding. (Earlier blocks' reordered rounding can still move that
/// running value by a few units in the last place, which decides a sum lying within them of the
/// overflow threshold.) A block is tested by its results' exponent bits (any_near_overflow()); a
/// tile, before its carry is added, by its results' greatest magnitude (largest_magnitude_bits(),
/// which the block lambda finds only where a tile asks for it). bench_ops, 2^24 rows, quiet: the
/// float sum about 10% slower on one thread and on two (5.4-6.9 ms -> 5.8-7.3 ms; 4.35 -> 4.8 ms),
/// the double sum unchanged within the run-to-run spread (bench/RESULTS.md).
template <scan_kind Kind, class T>
inline constexpr bool rescans_non_finite = Kind == scan_kind::sum && std::is_floating_point_v<T>;

/// The bits of the greatest magnitude among `n` results (the sign bit cleared), whose order as
/// unsigned integers is the magnitudes' order, infinity above every finite value and NaN above
/// infinity: an unsigned max reduction with no early exit, which vectorises (a test per row of
/// `||` or `x - x` cost the float scan as much as the scan itself).
template <class T>
[[nodiscard, gnu::always_inline]] inline float_bits_t<T> largest_magnitude_bits(T const* __restrict results,
                                                                                std::size_t n) noexcept {
  using bits = float_bits_t<T>;
  constexpr bits magnitude = static_cast<bits>(~bits{0} >> 1);
  bits most = 0;
  for (std::size_t k = 0; k < n; ++k) {
    bits b;
    std::memcpy(&b, results + k, sizeof b);
    most = std::max<bits>(most, b & magnitude);
  }
  return most;
}

/// The exponent bits of `T`: all set in an infinity and a NaN only.
template <class T>
inline constexpr float_bits_t<T> exponent_bits =
    static_cast<float_bits_t<T>>(sizeof(T) == 4 ? 0x7F800000ULL : 0x7FF0000000000000ULL);

/// Whether magnitude bits from largest_magnitude_bits() are an infinity's or a NaN's.
template <class T>
[[nodiscard, gnu::always_inline]] inline bool non_finite_bits(float_bits_t<T> most) noexcept {
  return most >= exponent_bits<T>;
}

/// The bits of 2^max_exponent, the least magnitude of `T`'s largest binade. Reordering a block's or
/// a tile's additions moves a sum by far less than that binade's width, so a sum in row order can
/// overflow only where a sum in another order reaches this binade or overflows itself.
template <class T>
inline constexpr float_bits_t<T> top_binade_bits = exponent_bits<T> & static_cast<float_bits_t<T>>(exponent_bits<T> << 1);

/// Whether magnitude bits from largest_magnitude_bits() are in the largest binade, infinite or NaN.
template <class T>
[[nodiscard, gnu::always_inline]] inline bool near_overflow_bits(float_bits_t<T> most) noexcept {
  return most >= top_binade_bits<T>;
}

/// Whether `x` is in the largest binade, infinite or NaN.
template <class T>
[[nodiscard, gnu::always_inline]] inline bool near_overflow(T x) noexcept {
  return near_overflow_bits<T>(largest_magnitude_bits(&x, 1));
}

/// Whether any of a block's results is in the largest binade, infinite or NaN: a bitwise
/// reduction, cheaper than largest_magnitude_bits() where only that is asked.
template <class T>
[[nodiscard, gnu::always_inline]] inline bool any_near_overflow(T const* __restrict block) noexcept {
  using bits = float_bits_t<T>;
  bits all_ones = 0;
  for (std::size_t k = 0; k < block_rows; ++k) {
    bits b;
    std::memcpy(&b, block + k, sizeof b);
    all_ones |= static_cast<bits>((b & top_binade_bits<T>) == top_binade_bits<T>);
  }
  return all_ones != 0;
}

/// Scans rows [begin, end) of `values` in row order from `acc`, writing them at `out` (row begin at
/// out[0]); returns the running value after them.
template <scan_kind Kind, bool Inclusive, class A, class T>
[[nodiscard]] A scan_in_order(T const* values, bitmask_word const* mask, std::size_t offset, std::size_t begin,
                              std::size_t end, A identity, A acc, T* out) noexcept {
  for (std::size_t row = begin; row < end; ++row) {
    A const x = mask == nullptr || bit_is_set(mask, offset + row) ? scan_value<Kind>(values[row], identity) : identity;
    if constexpr (!Inclusive) { out[row - begin] = static_cast<T>(acc); }
    acc = scan_step<Kind>{}(acc, x);
    if constexpr (Inclusive) { out[row - begin] = static_cast<T>(acc); }
  }
  return acc;
}

/// What scan_kernel keeps of a chunk's results' greatest magnitude: the bits for a floating-point
/// sum, nothing (a byte never written) for the other scans.
template <scan_kind Kind, class T>
using magnitude_bits_t = std::conditional_t<rescans_non_finite<Kind, T>, float_bits_t<T>, unsigned char>;

/// The kernel of scan(): scans rows [begin, end) from `identity` into `out`, and leaves the running
/// value after the last row in `totals[chunk]` where `totals` is not null, and, for a
/// floating-point sum, the bits of its results' greatest magnitude in `magnitudes[chunk]` where
/// that is not null. With `stream`, each block is scanned into the stack and streamed out
/// (write_blocks()): one core, 2^27 rows (bench_ops, two alternated runs), int64 92 -> 60 ms,
/// int32 33 -> 26 ms; at 2^24 rows as fast or faster (int64 8.3 -> 7.8 ms, double 10.0 -> 6.9 ms).
template <scan_kind Kind, bool Inclusive, class T>
struct scan_kernel {
  using acc_type = scan_acc_t<Kind, T>;
  T const* values;
  bitmask_word const* mask;
  std::size_t offset;
  acc_type identity;
  acc_type* totals;
  T* out;
  stream_mode stream;
  magnitude_bits_t<Kind, T>* magnitudes = nullptr;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t chunk) const noexcept {
    acc_type acc = identity;
    [[maybe_unused]] magnitude_bits_t<Kind, T> most = 0;
    std::size_t row = write_blocks(out, begin, end, stream, [&](std::size_t at, T* to) __attribute__((always_inline)) {
      bitmask_word const word = rows_word(mask, offset, at, block_rows);
      acc_type const before = acc;
      if (word == ~bitmask_word{0}) {
        scan_block<Kind, Inclusive, false>(values + at, word, identity, to, acc);
      } else {
        scan_block<Kind, Inclusive, true>(values + at, word, identity, to, acc);
      }
      if constexpr (rescans_non_finite<Kind, T>) {
        if (magnitudes == nullptr) {
          if ((near_overflow(acc) || any_near_overflow(to)) && !is_nan(before)) {  // from NaN, any order gives NaN
            acc = scan_in_order<Kind, Inclusive>(values, mask, offset, at, at + block_rows, identity, before, to);
          }
        } else {
          auto block_most = largest_magnitude_bits(to, block_rows);
          if ((near_overflow(acc) || near_overflow_bits<T>(block_most)) && !is_nan(before)) {
            acc = scan_in_order<Kind, Inclusive>(values, mask, offset, at, at + block_rows, identity, before, to);
            block_most = largest_magnitude_bits(to, block_rows);
          }
          most = std::max(most, block_most);
        }
      }
    });
    acc = scan_in_order<Kind, Inclusive>(values, mask, offset, row, end, identity, acc, out + row);
    if (totals != nullptr) { totals[chunk] = acc; }
    if constexpr (rescans_non_finite<Kind, T>) {
      if (magnitudes != nullptr) { magnitudes[chunk] = std::max(most, largest_magnitude_bits(out + row, end - row)); }
    }
  }
};

/// The kernel that brings a tile scanned from the identity to its place: `out[i]` becomes the
/// step of `through[tile - 1]` (the running value after the tile before) and `out[i]`, for the
/// tile's rows [begin, end).
template <scan_kind Kind, class T>
struct carry_kernel {
  using acc_type = scan_acc_t<Kind, T>;
  acc_type const* through;
  T* out;
  [[gnu::always_inline]] void operator()(std::size_t begin, std::size_t end, std::size_t tile) const noexcept {
    acc_type const carry = through[tile - 1];
    for (std::size_t i = begin; i < end; ++i) {
      out[i] = static_cast<T>(scan_step<Kind>{}(carry, static_cast<acc_type>(out[i])));
    }
  }
};

/// Rows per tile of a scan over several threads: 256 KiB of values, whose results stay in the
/// core's cache between the tile's scan and its carry. Tiles of 64 KiB spent more time passing the
/// running value on (a wait and a wake-up per tile) than they saved: two threads took 11.2 ms for
/// 2^24 int64 rows, against 5.8 ms with 256 KiB and 5.6-6.2 ms with 512 KiB to 2 MiB.
template <class T>
inline constexpr std::size_t scan_tile_rows = (std::size_t{256} << 10) / sizeof(T) / block_rows * block_rows;

/**
 * The scan over `threads` threads, in one pass over memory: the threads take the tiles in turn;
 * each scans its tile from the identity, waits for the tile before it to publish the running
 * value after it, publishes its own (one step), and only then adds the value it waited for to its
 * tile, which is still in its cache. A two-pass scan (fold every chunk, then scan each from its
 * chunk's start) reads the input twice: on two cores sharing one memory channel's bandwidth, it
 * took 10.2 ms for 2^24 int64 rows where one thread takes 7.8.
 */
template <scan_kind Kind, bool Inclusive, class T>
void scan_tiles(T const* values, std::size_t rows, bitmask_word const* mask, std::size_t offset,
                scan_acc_t<Kind, T> identity, T* out, std::size_t threads) {
  using A = scan_acc_t<Kind, T>;
  constexpr std::size_t tile = scan_tile_rows<T>;
  std::size_t const tiles = (rows + tile - 1) / tile;
  std::vector<A> totals(tiles, identity);   // each tile's own, from the identity
  std::vector<A> through(tiles, identity);  // the running value after each tile, published by its thread
  std::unique_ptr<std::atomic<bool>[]> const published(new std::atomic<bool>[tiles]());
  // Plain stores: the carry below rereads each tile's results from the cache.
  scan_kernel<Kind, Inclusive, T> local{values, mask, offset, identity, totals.data(), out, stream_mode{}};
  // Floating-point sums: each tile's greatest result magnitude, which bounds what its carry makes.
  std::vector<magnitude_bits_t<Kind, T>> magnitudes;
  if constexpr (rescans_non_finite<Kind, T>) {
    magnitudes.assign(tiles, 0);
    local.magnitudes = magnitudes.data();
  }
  carry_kernel<Kind, T> carry{through.data(), out};
  simd_level const level = active_simd_level();
  for_each_in_turn(threads, tiles, [&](std::size_t t) {
    std::size_t const begin = t * tile;
    std::size_t const end = std::min(rows, begin + tile);
    run_build(level, local, begin, end, t);
    bool carried = t > 0;
    if (t == 0) {
      through[0] = totals[0];
    } else {
      published[t - 1].wait(false, std::memory_order_acquire);
      A const carry_in = through[t - 1];
      // A NaN carry makes every sum NaN in any order, and an infinite one every sum that infinity
      // where the tile's own sums are finite (so none of its rows is infinite). Else the tile is
      // scanned again where its own sums are not finite (made from the identity, not from this
      // carry), or where a finite carry could take them near the end of the finite range, into
      // its largest binade (near_overflow()): |carry| plus their greatest magnitude bounds each
      // sum, up to a rounding far smaller than that binade.
      bool again = false;
      if constexpr (rescans_non_finite<Kind, T>) {
        T largest;
        std::memcpy(&largest, &magnitudes[t], sizeof largest);
        bool const own_finite = !non_finite_bits<T>(magnitudes[t]) && std::isfinite(totals[t]);
        A const bound = (carry_in < A{0} ? -carry_in : carry_in) + static_cast<A>(largest);
        again = !is_nan(carry_in) &&
                (!own_finite || (std::isfinite(carry_in) && (near_overflow(bound) || near_overflow(carry_in + totals[t]))));
      }
      if (again) {  // the tile again, in row order from the carry
        through[t] = scan_in_order<Kind, Inclusive>(values, mask, offset, begin, end, identity, carry_in, out + begin);
        carried = false;
      } else {
        through[t] = scan_step<Kind>{}(carry_in, totals[t]);
      }
    }
    published[t].store(true, std::memory_order_release);
    published[t].notify_all();
    if (carried) { run_build(level, carry, begin, end, t); }
  });
}

/**
 * Writes the scan of the `rows` rows of `values` (validity at bit `offset` of `mask`, or null: all
 * valid) with `Kind` from `identity` into `out`, a null row counting as `identity` (its result is
 * the running value; the caller sets its validity). One pass: on one thread the running value is
 * carried from row to row; on several see scan_tiles(). The best instruction-set build the CPU
 * runs. `out` must not overlap `values`.
 */
template <scan_kind Kind, bool Inclusive, class T>
void scan(T const* values, std::size_t rows, bitmask_word const* mask, std::size_t offset, T identity, T* out) {
  using A = scan_acc_t<Kind, T>;
  std::size_t const threads = chunk_count(rows);
  if (threads > 1) {
    scan_tiles<Kind, Inclusive>(values, rows, mask, offset, static_cast<A>(identity), out, threads);
    return;
  }
  scan_kernel<Kind, Inclusive, T> kernel{values, mask, offset, static_cast<A>(identity), nullptr, out,
                                         streams(out, rows * sizeof(T))};
  run_chunks(kernel, rows, 1);
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END

#  undef DEVCOL_HOST_SIMD_SCAN
#  undef DEVCOL_HOST_SCAN_INCLUSIVE
#  undef DEVCOL_HOST_SCAN_EXCLUSIVE
#  undef DEVCOL_HOST_PRAGMA_TEXT
#endif
