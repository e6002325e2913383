/**
 * @file streaming_stores.hpp
 * @brief Non-temporal ("streaming") stores for the host fast paths' large outputs.
 *
 * A plain store to a line that is not cached first reads the line from memory (read for
 * ownership), so an element-wise op over columns larger than the cache moves its output twice: a
 * binary op on 64-bit values moves 32 bytes a row instead of 24. A non-temporal store writes the
 * line without reading it. Measured on one Zen 3 core, 2^24 rows already in memory: `out = x + y`
 * in 13.7 -> 10.0 ms (int32) and 29.2 -> 20.9 ms (double). Arrow C++'s kernels store plainly, as
 * glibc's memcpy does below its own (larger) threshold.
 *
 * The cost: the output leaves the cache, so an op that reads it next reads it from memory. Only
 * outputs larger than `nontemporal_threshold()` stream, which no cache of a current core holds
 * whole anyway. Kernels compute 64 rows into a block on the stack (L1), then stream the block with
 * the widest stores the running build has: 64 bytes in the AVX-512 build, 32 in the AVX2 one, and
 * SSE2's 16 (which every x86-64 CPU has) in the baseline; elsewhere `stream_block` is a plain copy.
 * The width matters on Intel, where a line written by four 16-byte streaming stores costs more
 * than one written whole: a bare loop `out = x + y` over 2^24 int32 rows on one Xeon core (105 MiB
 * L3) took 21.3 ms with 16-byte stores, 18.2 ms with 32-byte and 14.9 ms with 64-byte ones (int64:
 * 35.9, 31.6 and 31.2 ms; plain stores 19.2 and 39.8 ms); devcol's int32 add went from 18-20 ms
 * to 13-15.5 ms (bench/RESULTS.md).
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if DEVCOL_HOST_FAST_PATHS

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The output size, in bytes, from which the fast paths stream their stores: 32 MiB, a core's
/// whole share of the last-level cache or more on current x86 servers. The tests lower it to 0 to
/// run the streaming kernels on small inputs (not synchronised with kernels running meanwhile).
inline std::atomic<std::size_t>& nontemporal_threshold() noexcept {
  static std::atomic<std::size_t> bytes{std::size_t{32} << 20};
  return bytes;
}

/**
 * How a kernel writes its output: plainly (`width` 0), or with streaming stores `width` bytes wide
 * (16, 32 or 64). Tested as a bool: whether it streams.
 */
struct stream_mode {
  unsigned char width = 0;
  [[nodiscard]] explicit operator bool() const noexcept { return width != 0; }
};

/// How a kernel writing `bytes` at `out` stores: streaming for a large output (see
/// nontemporal_threshold()), as wide as the build that runs it allows (`level`: by default the
/// one run_chunks() picks, active_simd_level(); simd_level::baseline for a single_build kernel)
/// and `out`'s alignment allows (every block a chunk streams then is aligned alike, since chunks
/// start at multiples of block_rows); at least 16-byte aligned, or plainly.
[[nodiscard]] inline stream_mode streams(void const* out, std::size_t bytes,
                                         simd_level level = active_simd_level()) noexcept {
  (void)level;  // only the SIMD builds ask it
#  if defined(__SSE2__)
  auto const address = reinterpret_cast<std::uintptr_t>(out);
  if (bytes == 0 || bytes < nontemporal_threshold().load(std::memory_order_relaxed) || address % 16 != 0) { return {}; }
#    if DEVCOL_HOST_SIMD_DISPATCH
  if (level == simd_level::avx512 && address % 64 == 0) { return {64}; }
  if (level >= simd_level::avx2 && address % 32 == 0) { return {32}; }
#    endif
  return {16};
#  else
  (void)out;
  (void)bytes;
  return {};
#  endif
}

#  if defined(__SSE2__)
/// The operand of the baseline build's 16-byte streaming store, SSE2's `movntdq` (every x86-64 CPU
/// has it): GCC's and clang's builtin, as the wider ones below, since <emmintrin.h> alone cost every
/// file that includes devcol 1.5% of a Thrust-only file's compile.
typedef long long stream_xmm __attribute__((vector_size(16), may_alias));
#  endif

// GCC 12 warns, after inlining into the gathers and the element-wise writes, that a block may be
// read before it is written (at -O2 in the wide copies, at -O3 in the SSE2 one as well): it cannot
// see that a block is streamed only once all its rows are written. The warning's location is the
// copy, so it is silenced from here to stream_block()'s end.
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#  endif

#  if DEVCOL_HOST_SIMD_DISPATCH
// The 32- and 64-byte streaming copies are not always-inline, as pext() (dispatch.hpp): the builds
// without their instructions compile a call to them, which they never make (streams() asks for a
// width only where the running build has it), and the AVX2 and AVX-512 builds inline them. GCC's
// and clang's builtins, not <immintrin.h>, whose parse alone takes longer than a small program's.

/// The operands of the wide streaming stores, 32 and 64 bytes; they read blocks of any value type,
/// so they may alias it (as `__m256i` and `__m512i` do).
typedef long long stream_ymm __attribute__((vector_size(32), may_alias));
typedef long long stream_zmm __attribute__((vector_size(64), may_alias));

/// Copies `bytes` (a multiple of 32) from `from` to `out`, both 32-byte aligned, with 32-byte
/// streaming stores (AVX's `vmovntdq`).
[[gnu::target("avx2")]] inline void stream_copy_32(void* out, void const* from, std::size_t bytes) noexcept {
  auto* to = static_cast<stream_ymm*>(out);
  auto const* in = static_cast<stream_ymm const*>(from);
  for (std::size_t k = 0; k < bytes / 32; ++k) {
#    if defined(__clang__)
    __builtin_nontemporal_store(in[k], to + k);
#    else
    __builtin_ia32_movntdq256(to + k, in[k]);
#    endif
  }
}

/// Copies `bytes` (a multiple of 64) from `from` to `out`, both 64-byte aligned, with 64-byte
/// streaming stores (AVX-512's `vmovntdq`): each writes a whole line.
[[gnu::target("avx512f")]] inline void stream_copy_64(void* out, void const* from, std::size_t bytes) noexcept {
  auto* to = static_cast<stream_zmm*>(out);
  auto const* in = static_cast<stream_zmm const*>(from);
  for (std::size_t k = 0; k < bytes / 64; ++k) {
#    if defined(__clang__)
    __builtin_nontemporal_store(in[k], to + k);
#    else
    __builtin_ia32_movntdq512(to + k, in[k]);
#    endif
  }
}
#  endif

/// Writes one block of block_rows values from `block` to `out` without reading `out`'s lines, with
/// `mode`'s store width (`out` aligned to it, see streams()). Call stream_fence() before the
/// output is handed on.
template <class R>
[[gnu::always_inline]] inline void stream_block(R* out, R const* block, stream_mode mode) noexcept {
  constexpr std::size_t bytes = block_rows * sizeof(R);
  static_assert(bytes % 64 == 0);
#  if DEVCOL_HOST_SIMD_DISPATCH
  if (mode.width == 64) {
    stream_copy_64(out, block, bytes);
    return;
  }
  if (mode.width == 32) {
    stream_copy_32(out, block, bytes);
    return;
  }
#  endif
  (void)mode;
#  if defined(__SSE2__)
  auto* to = reinterpret_cast<stream_xmm*>(out);
  auto const* from = reinterpret_cast<stream_xmm const*>(block);
  for (std::size_t k = 0; k < bytes / 16; ++k) {
#    if defined(__clang__)
    __builtin_nontemporal_store(from[k], to + k);
#    else
    __builtin_ia32_movntdq(to + k, from[k]);
#    endif
  }
#  else
  std::memcpy(out, block, bytes);
#  endif
}
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic pop
#  endif

/// Orders a thread's streaming stores before what it does next (they are weakly ordered).
[[gnu::always_inline]] inline void stream_fence() noexcept {
#  if defined(__SSE2__)
  __builtin_ia32_sfence();
#  endif
}

/// Writes the whole blocks of rows [begin, end) of `out`: `fill(i, to)` writes rows [i, i +
/// block_rows) to `to`, which is `out + i`, or with `stream` (see streams()) a block on the stack
/// that then goes out with streaming stores. Returns the first row past the last whole block.
template <class R, class Fill>
[[gnu::always_inline]] inline std::size_t write_blocks(R* __restrict out, std::size_t begin, std::size_t end,
                                                      stream_mode stream, Fill const& fill) {
  std::size_t i = begin;
  if (stream) {
    for (; i + block_rows <= end; i += block_rows) {
      alignas(64) R block[block_rows];
      fill(i, block);
      stream_block(out + i, block, stream);
    }
    stream_fence();
  } else {
    for (; i + block_rows <= end; i += block_rows) { fill(i, out + i); }
  }
  return i;
}

/// Writes `row(i)` to `out[i]` for i in [begin, end), whole blocks first (write_blocks()).
template <class R, class Row>
[[gnu::always_inline]] inline void write_rows(R* __restrict out, std::size_t begin, std::size_t end, stream_mode stream,
                                              Row const& row) {
  std::size_t i = write_blocks(out, begin, end, stream, [&](std::size_t at, R* __restrict to)
                                                            __attribute__((always_inline)) {
                                                              for (std::size_t j = 0; j < block_rows; ++j) {
                                                                to[j] = row(at + j);
                                                              }
                                                            });
  for (; i < end; ++i) { out[i] = row(i); }
}

}  // namespace detail::host
DEVCOL_NAMESPACE_END
#endif
