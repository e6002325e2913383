/**
 * @file dispatch.hpp
 * @brief The host backend's fast paths: whether they are compiled in (`DEVCOL_HOST_FAST_PATHS`),
 * the run-time choice of the AVX2 build of a kernel, and the split of rows over OpenMP threads.
 *
 * The fast paths are plain loops over blocks of 64 rows (one validity word each), written so that
 * the compiler vectorises them at -O2 and -O3. Each kernel is compiled twice: for the baseline
 * the user's flags give, and for AVX2 (`[[gnu::target("avx2")]]`), chosen once at run time
 * from the CPU (`__builtin_cpu_supports`). Users need no `-march` flag.
 *
 * `DEVCOL_HOST_FAST_PATHS` (core/config.hpp) is 1 by default on the host backend with GCC or
 * clang and always 0 on the CUDA backend (simulated or not), where the ops run Thrust/CUB. Define
 * it to 0 (CMake: `-DDEVCOL_HOST_FAST_PATHS=OFF`) to run every op through the Thrust code CUDA
 * runs; translation units built either way may be linked together (their namespaces differ).
 */
#pragma once

#include <devcol/core/config.hpp>

#include <algorithm>
#include <cstddef>

#if DEVCOL_HOST_FAST_PATHS && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// 1 when the fast paths also have an AVX2 build chosen at run time.
#  define DEVCOL_HOST_AVX2_DISPATCH 1
#else
#  define DEVCOL_HOST_AVX2_DISPATCH 0
#endif

#if DEVCOL_HOST_FAST_PATHS
#  if defined(_OPENMP)
#    include <omp.h>
#  endif

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// Rows per validity word, and the granule of every fast-path loop.
inline constexpr std::size_t block_rows = 64;

/// Whether this CPU runs AVX2 (asked once).
[[nodiscard]] inline bool has_avx2() noexcept {
#  if DEVCOL_HOST_AVX2_DISPATCH
  static bool const yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return yes;
#  else
  return false;
#  endif
}

#  if DEVCOL_HOST_AVX2_DISPATCH
/// The AVX2 build of `kernel`: its always-inline call operator is compiled here for AVX2.
template <class Kernel>
[[gnu::target("avx2")]] [[gnu::noinline]] void run_avx2(Kernel& kernel, std::size_t begin, std::size_t end,
                                                       std::size_t chunk) {
  kernel(begin, end, chunk);
}
#  endif
/// The baseline build of `kernel`.
template <class Kernel>
[[gnu::noinline]] void run_baseline(Kernel& kernel, std::size_t begin, std::size_t end, std::size_t chunk) {
  kernel(begin, end, chunk);
}

/// How many chunks (threads) a pass over `rows` rows uses: OpenMP's thread count for passes long
/// enough to pay for waking the threads, else one.
[[nodiscard]] inline std::size_t chunk_count(std::size_t rows) noexcept {
#  if defined(_OPENMP)
  constexpr std::size_t rows_per_thread = std::size_t{1} << 15;
  auto const threads = static_cast<std::size_t>(omp_get_max_threads());
  return std::max<std::size_t>(1, std::min(threads, rows / rows_per_thread));
#  else
  (void)rows;
  return 1;
#  endif
}

/**
 * Runs `kernel(begin, end, chunk)` over [0, rows) in `chunks` chunks whose bounds are multiples of
 * block_rows (so no two threads write one validity word), on OpenMP threads where there are
 * several; the AVX2 build where the CPU has it. Synchronous; the kernel must not throw.
 */
template <class Kernel>
void run_chunks(Kernel& kernel, std::size_t rows, std::size_t chunks) {
  std::size_t const per = ((rows + chunks - 1) / chunks + block_rows - 1) / block_rows * block_rows;
  bool const avx2 = has_avx2();
  auto one = [&](std::size_t c) {
    std::size_t const begin = std::min(rows, c * per);
    std::size_t const end = std::min(rows, begin + per);
#  if DEVCOL_HOST_AVX2_DISPATCH
    if (avx2) {
      run_avx2(kernel, begin, end, c);
      return;
    }
#  endif
    (void)avx2;
    run_baseline(kernel, begin, end, c);
  };
  if (chunks <= 1) {
    one(0);
    return;
  }
#  if defined(_OPENMP)
  auto const count = static_cast<long>(chunks);
#    pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static, 1)
  for (long c = 0; c < count; ++c) { one(static_cast<std::size_t>(c)); }
#  else
  for (std::size_t c = 0; c < chunks; ++c) { one(c); }
#  endif
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
