/**
 * @file dispatch.hpp
 * @brief The host backend's fast paths: whether they are compiled in (`DEVCOL_HOST_FAST_PATHS`),
 * the run-time choice of a kernel's instruction-set build, and the chunks of rows (multiples of a
 * validity word) that its OpenMP threads run (the split itself: column/detail/host_chunks.hpp).
 *
 * The fast paths are plain loops over blocks of 64 rows (one validity word each), written so that
 * the compiler vectorises them at -O2 and -O3. Each kernel is compiled three times: for the
 * baseline the user's flags give, for AVX2 and for AVX-512 (F, VL, BW, DQ: x86-64-v4) with
 * `[[gnu::target]]`, and the best build the CPU runs is chosen once at run time
 * (`__builtin_cpu_supports`). Users need no `-march` flag.
 *
 * Why compiler vectorisation with target builds rather than a SIMD library (Highway,
 * `std::experimental::simd`): the loops are scalar C++ the compiler already turns into the vector
 * code a library would spell out, so a library adds a dependency and no speed; what does add speed
 * is the instruction set. Measured on one Zen 4 core (2^24 int64 rows, huge pages): minmax with
 * AVX2 has no 64-bit integer min/max and costs a compare and a blend per extreme (5.0 ms, 10%
 * over the read-bound sum); the AVX-512 build uses `vpminsq`/`vpmaxsq` and runs at the sum's
 * 4.3 ms, as Arrow's own AVX-512 kernel does on that CPU.
 *
 * `DEVCOL_HOST_FAST_PATHS` (core/config.hpp) is 1 by default on the host backend with GCC or
 * clang and always 0 on the CUDA backend (simulated or not), where the ops run Thrust/CUB. Define
 * it to 0 (CMake: `-DDEVCOL_HOST_FAST_PATHS=OFF`) to run every op through the Thrust code CUDA
 * runs; translation units built either way may be linked together (their namespaces differ).
 */
#pragma once

#include <devcol/column/detail/host_chunks.hpp>
#include <devcol/core/config.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#if DEVCOL_HOST_FAST_PATHS && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// 1 when the fast paths also have AVX2 and AVX-512 builds chosen at run time.
#  define DEVCOL_HOST_SIMD_DISPATCH 1
#else
#  define DEVCOL_HOST_SIMD_DISPATCH 0
#endif

#if DEVCOL_HOST_FAST_PATHS
#  if defined(_OPENMP)
#    include <omp.h>
#  endif
#  if __has_include(<unistd.h>)
#    include <unistd.h>  // sysconf: the cache's size (the reference Thrust file includes it too)
#  endif

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// Rows per validity word, and the granule of every fast-path loop.
inline constexpr std::size_t block_rows = 64;

/**
 * Put before a loop over a fold's accumulator lanes (reduce.hpp), so that it stays a loop until
 * the vectoriser takes it whole. At -O3, GCC unrolls such a loop completely first, and then leaves
 * a floating-point min or max scalar (`vminss`, one lane at a time): float minmax ran 5 times
 * slower at -O3 than at -O2, where the same loop becomes `vminps` (2^20 rows, one core). Nothing
 * with clang, whose vectoriser needs no help there and which the pragma made 1.7-2.5 times slower.
 */
#  if defined(__clang__)
#    define DEVCOL_HOST_LANE_LOOP
#  else
#    define DEVCOL_HOST_LANE_LOOP _Pragma("GCC unroll 1")
#  endif

/// The instruction-set builds of a kernel, in increasing order.
enum class simd_level : int { baseline = 0, avx2 = 1, avx512 = 2 };

/// The best build this CPU runs (asked once).
[[nodiscard]] inline simd_level detected_simd_level() noexcept {
#  if DEVCOL_HOST_SIMD_DISPATCH
  static simd_level const level = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("bmi2")) {
      return simd_level::avx512;
    }
    return __builtin_cpu_supports("avx2") ? simd_level::avx2 : simd_level::baseline;
  }();
  return level;
#  else
  return simd_level::baseline;
#  endif
}

/// Whether this CPU is AMD's (asked once), for the few choices the two x86 vendors' cores answer
/// differently (reduce.hpp's fold_read_streams()).
[[nodiscard]] inline bool cpu_is_amd() noexcept {
#  if DEVCOL_HOST_SIMD_DISPATCH
  static bool const amd = [] {
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") != 0;
  }();
  return amd;
#  else
  return false;
#  endif
}

/// The bytes of the CPU's last-level cache as the system reports it (asked once; 0 where it does
/// not say), for the choices that depend on whether data stays in the cache between two passes
/// (gather/strings.hpp's strings_gather_two_pass_below()). In a VM, the host's whole cache.
[[nodiscard]] inline std::size_t last_level_cache_bytes() noexcept {
  static std::size_t const bytes = [] {
    long reported = 0;
#  if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
    reported = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (reported <= 0) { reported = sysconf(_SC_LEVEL2_CACHE_SIZE); }
#  endif
    return reported > 0 ? static_cast<std::size_t>(reported) : std::size_t{0};
  }();
  return bytes;
}

/// The highest build the fast paths may choose: the tests lower it to run every build a CPU has
/// (not synchronised with kernels running meanwhile; set it between calls).
inline std::atomic<simd_level>& simd_level_cap() noexcept {
  static std::atomic<simd_level> cap{simd_level::avx512};
  return cap;
}

/// The build run_chunks() runs: the detected one, at most the cap.
[[nodiscard]] inline simd_level active_simd_level() noexcept {
  return std::min(detected_simd_level(), simd_level_cap().load(std::memory_order_relaxed));
}

/// Whether a kernel runs in the AVX-512 build (`level` from active_simd_level()), where it may
/// call pext() and filter.hpp's compress_block(). Every CPU with AVX-512 (Intel from Skylake-SP,
/// AMD from Zen 4) runs PEXT in one instruction of about 3 cycles; AMD's earlier CPUs with AVX2
/// have it too but microcoded, at up to hundreds of cycles.
[[nodiscard]] inline bool runs_avx512(simd_level level) noexcept {
  return DEVCOL_HOST_SIMD_DISPATCH && level == simd_level::avx512;
}

#  if DEVCOL_HOST_SIMD_DISPATCH
// pext() (and filter.hpp's compress_block()) are not always-inline: the builds without their
// instructions compile a call to them (which they never make, see runs_avx512()) and the AVX-512
// build inlines them.

/// The bits of `bits` where `select` is set, packed from bit 0 (BMI2's PEXT).
[[nodiscard, gnu::target("bmi2")]] inline std::uint64_t pext(std::uint64_t bits, std::uint64_t select) noexcept {
  return __builtin_ia32_pext_di(bits, select);
}

#  endif

#  if DEVCOL_HOST_SIMD_DISPATCH
/// The AVX-512 build of `kernel`: its always-inline call operator is compiled here for AVX-512
/// (with BMI2, which every CPU with AVX-512 has, at full speed: see runs_avx512()).
template <class Kernel>
[[gnu::target("avx512f,avx512vl,avx512bw,avx512dq,bmi2")]] [[gnu::noinline]] void run_avx512(Kernel& kernel,
                                                                                       std::size_t begin,
                                                                                       std::size_t end,
                                                                                       std::size_t chunk) {
  kernel(begin, end, chunk);
}
#    if !defined(__clang__)
/// The AVX-512 build of a kernel that reads at 256 bits (see reads_at_256_bits): AVX-512's
/// instructions on 256-bit vectors. GCC only: clang has no target option for the vector width.
template <class Kernel>
[[gnu::target("avx512f,avx512vl,avx512bw,avx512dq,bmi2,prefer-vector-width=256")]] [[gnu::noinline]] void run_avx512_ymm(
    Kernel& kernel, std::size_t begin, std::size_t end, std::size_t chunk) {
  kernel(begin, end, chunk);
}
#    endif
/// The AVX2 build of `kernel`.
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

/**
 * Runs `f(i)` for every i in [0, count) on up to `threads` OpenMP threads, each thread of the team
 * taking i = its number, then that plus the team's size, and so on, in increasing order: `f(i)`
 * may wait for `f(i - 1)` (a scan's tiles do), since the least i not yet done is always running or
 * next on its thread. Synchronous; `f` must not throw.
 */
template <class F>
void for_each_in_turn(std::size_t threads, std::size_t count, F&& f) {
#  if defined(_OPENMP)
  if (threads > 1 && count > 1) {
#    pragma omp parallel num_threads(static_cast<int>(threads))
    {
      auto const team = static_cast<std::size_t>(omp_get_num_threads());
      for (auto i = static_cast<std::size_t>(omp_get_thread_num()); i < count; i += team) { f(i); }
    }
    return;
  }
#  endif
  (void)threads;
  for (std::size_t i = 0; i < count; ++i) { f(i); }
}

/// The rows per chunk when `rows` rows go in `chunks` chunks: a multiple of block_rows (so no two
/// chunks write one validity word), chunk c holding [c * per, (c + 1) * per) clipped to `rows`.
[[nodiscard]] inline std::size_t chunk_rows(std::size_t rows, std::size_t chunks) noexcept {
  return ((rows + chunks - 1) / chunks + block_rows - 1) / block_rows * block_rows;
}

/**
 * Whether `Kernel`'s AVX-512 build vectorises at 256 bits rather than 512 (its
 * `reads_at_256_bits` member is true), as Arrow's AVX-512 kernels do (the compiler's default
 * width). On a Zen 4 core, whose 512-bit instructions are two 256-bit halves, the folds that only
 * read (sum, min, max, minmax) read memory faster so: one core, 2^24 rows, sum of int64 and of
 * double 6% faster and int32 minmax 14%; at 2^27 rows 6-8% and 4%; int32 sum 4% slower at 2^24,
 * unchanged at 2^27. Kernels that write (compare, cast, scan) ran up to 22% slower at 256 bits and
 * keep 512.
 */
template <class Kernel>
inline constexpr bool reads_at_256_bits = requires { requires Kernel::reads_at_256_bits; };

/**
 * Whether `Kernel` has its baseline build only (its `single_build` member is true): a kernel whose
 * AVX2 and AVX-512 builds would differ only in the width of their streaming stores, and ran no
 * faster for it, so that a file calling it compiles it once instead of three times. Its output
 * streams 16 bytes at a time (ask streams() with simd_level::baseline).
 */
template <class Kernel>
inline constexpr bool single_build = requires { requires Kernel::single_build; };

/// Runs `kernel(begin, end, chunk)` once, in the build `level` (active_simd_level()'s answer), or
/// in its baseline build where it has no other (single_build).
template <class Kernel>
void run_build(simd_level level, Kernel& kernel, std::size_t begin, std::size_t end, std::size_t chunk) {
#  if DEVCOL_HOST_SIMD_DISPATCH
  if constexpr (single_build<Kernel>) {
    run_baseline(kernel, begin, end, chunk);
    return;
  }
  if (level == simd_level::avx512) {
#    if !defined(__clang__)
    if constexpr (reads_at_256_bits<Kernel>) {
      run_avx512_ymm(kernel, begin, end, chunk);
      return;
    }
#    endif
    run_avx512(kernel, begin, end, chunk);
    return;
  }
  if (level == simd_level::avx2) {
    run_avx2(kernel, begin, end, chunk);
    return;
  }
#  endif
  (void)level;
  run_baseline(kernel, begin, end, chunk);
}

/**
 * Runs `kernel(begin, end, chunk)` over [0, rows) in `chunks` chunks whose bounds are multiples of
 * block_rows (so no two threads write one validity word), on OpenMP threads where there are
 * several; the best build the CPU runs (active_simd_level()). Synchronous; the kernel must not throw.
 */
template <class Kernel>
void run_chunks(Kernel& kernel, std::size_t rows, std::size_t chunks) {
  std::size_t const per = chunk_rows(rows, chunks);
  simd_level const level = active_simd_level();
  for_each_chunk(chunks, [&](std::size_t c) {
    std::size_t const begin = std::min(rows, c * per);
    run_build(level, kernel, begin, std::min(rows, begin + per), c);
  });
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
