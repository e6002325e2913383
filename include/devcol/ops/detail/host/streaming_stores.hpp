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
 * 16-byte SSE2 stores, which every x86-64 CPU has and which the write-combining buffers merge into
 * whole lines like wider ones; elsewhere `stream_block` is a plain copy.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/ops/detail/host/dispatch.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if DEVCOL_HOST_FAST_PATHS
#  if defined(__SSE2__)
#    include <emmintrin.h>
#  endif

DEVCOL_NAMESPACE_BEGIN
namespace detail::host {

/// The output size, in bytes, from which the fast paths stream their stores: 32 MiB, a core's
/// whole share of the last-level cache or more on current x86 servers. The tests lower it to 0 to
/// run the streaming kernels on small inputs (not synchronised with kernels running meanwhile).
inline std::atomic<std::size_t>& nontemporal_threshold() noexcept {
  static std::atomic<std::size_t> bytes{std::size_t{32} << 20};
  return bytes;
}

/// Whether a kernel writing `bytes` at `out` streams: a large output, 16-byte aligned (every
/// block a chunk streams then is too, since chunks start at multiples of block_rows).
[[nodiscard]] inline bool streams(void const* out, std::size_t bytes) noexcept {
#  if defined(__SSE2__)
  return bytes != 0 && bytes >= nontemporal_threshold().load(std::memory_order_relaxed) &&
         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
#  else
  (void)out;
  (void)bytes;
  return false;
#  endif
}

/// Writes one block of block_rows values from `block` to `out` (16-byte aligned) without reading
/// `out`'s lines. Call stream_fence() before the output is handed on.
template <class R>
[[gnu::always_inline]] inline void stream_block(R* out, R const* block) noexcept {
  static_assert(block_rows * sizeof(R) % 16 == 0);
#  if defined(__SSE2__)
  auto* to = reinterpret_cast<__m128i*>(out);
  auto const* from = reinterpret_cast<__m128i const*>(block);
  for (std::size_t k = 0; k < block_rows * sizeof(R) / 16; ++k) { _mm_stream_si128(to + k, _mm_load_si128(from + k)); }
#  else
  std::memcpy(out, block, block_rows * sizeof(R));
#  endif
}

/// Orders a thread's streaming stores before what it does next (they are weakly ordered).
[[gnu::always_inline]] inline void stream_fence() noexcept {
#  if defined(__SSE2__)
  _mm_sfence();
#  endif
}

/// Writes the whole blocks of rows [begin, end) of `out`: `fill(i, to)` writes rows [i, i +
/// block_rows) to `to`, which is `out + i`, or with `stream` (see streams()) a block on the stack
/// that then goes out with streaming stores. Returns the first row past the last whole block.
template <class R, class Fill>
[[gnu::always_inline]] inline std::size_t write_blocks(R* __restrict out, std::size_t begin, std::size_t end,
                                                      bool stream, Fill const& fill) {
  std::size_t i = begin;
  if (stream) {
    for (; i + block_rows <= end; i += block_rows) {
      alignas(64) R block[block_rows];
      fill(i, block);
      stream_block(out + i, block);
    }
    stream_fence();
  } else {
    for (; i + block_rows <= end; i += block_rows) { fill(i, out + i); }
  }
  return i;
}

/// Writes `row(i)` to `out[i]` for i in [begin, end), whole blocks first (write_blocks()).
template <class R, class Row>
[[gnu::always_inline]] inline void write_rows(R* __restrict out, std::size_t begin, std::size_t end, bool stream,
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
