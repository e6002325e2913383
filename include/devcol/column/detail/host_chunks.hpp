/**
 * @file host_chunks.hpp
 * @brief The host backend's split of a pass over rows into chunks, one per OpenMP thread: how many
 * (`chunk_count`), where each starts (`chunk_begin`), and running them (`for_each_chunk`,
 * `for_each_row_chunk`). Shared
 * by the executor's launches (execution.hpp) and the ops' fast paths (ops/detail/host/).
 *
 * Defined only when `DEVCOL_HOST_FAST_PATHS` is 1 (core/config.hpp): elsewhere the launches run
 * Thrust's algorithms, which split the rows themselves.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS
#  if defined(_OPENMP)
#    include <omp.h>
#  endif

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/**
 * The fewest rows a pass gives each of its threads: 2^15, below which waking a thread costs more
 * than its share of the pass saves. A knob, so that tests split a few thousand rows over threads
 * rather than the 2^17 that the sanitizers take half a minute to sort (not synchronised with
 * kernels running meanwhile; set it between calls).
 */
inline std::atomic<std::size_t>& rows_per_thread() noexcept {
  static std::atomic<std::size_t> rows{std::size_t{1} << 15};
  return rows;
}

/// How many chunks (threads) a pass over `rows` rows uses: OpenMP's thread count for passes long
/// enough to pay for waking the threads (rows_per_thread() each), else one.
[[nodiscard]] inline std::size_t chunk_count(std::size_t rows) noexcept {
#  if defined(_OPENMP)
  auto const per_thread = std::max<std::size_t>(1, rows_per_thread().load(std::memory_order_relaxed));
  auto const threads = static_cast<std::size_t>(omp_get_max_threads());
  return std::max<std::size_t>(1, std::min(threads, rows / per_thread));
#  else
  (void)rows;
  return 1;
#  endif
}

/// Runs `f(c)` for every chunk c in [0, chunks), on OpenMP threads where there are several.
/// Synchronous; `f` must not throw.
template <class F>
void for_each_chunk(std::size_t chunks, F&& f) {
  if (chunks <= 1) {
    f(std::size_t{0});
    return;
  }
#  if defined(_OPENMP)
  auto const count = static_cast<long>(chunks);
#    pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static, 1)
  for (long c = 0; c < count; ++c) { f(static_cast<std::size_t>(c)); }
#  else
  for (std::size_t c = 0; c < chunks; ++c) { f(c); }
#  endif
}

/// The first row of chunk `c` when `rows` rows go in `chunks` chunks of sizes that differ by one
/// at most (chunk c is [chunk_begin(rows, chunks, c), chunk_begin(rows, chunks, c + 1))). None is
/// empty when `chunks` is at most `rows`, as chunk_count() makes it.
[[nodiscard]] constexpr std::size_t chunk_begin(std::size_t rows, std::size_t chunks, std::size_t c) noexcept {
  return rows / chunks * c + std::min(c, rows % chunks);
}

/// Runs `f(c, begin, end)` for every chunk c of rows [begin, end) when `rows` rows go in `chunks`
/// chunks (chunk_begin()'s bounds), on OpenMP threads where there are several. Synchronous; `f`
/// must not throw.
template <class F>
void for_each_row_chunk(std::size_t rows, std::size_t chunks, F&& f) {
  for_each_chunk(chunks, [&](std::size_t c) { f(c, chunk_begin(rows, chunks, c), chunk_begin(rows, chunks, c + 1)); });
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
