/**
 * @file copy.hpp
 * @brief Stream-ordered byte copies and fills between any two memories devcol allocates.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
/// Whether the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte: what copy_bytes()
/// may not be given, and what an op whose source may alias its target (shared views) tests.
[[nodiscard]] inline bool bytes_overlap(void const* a, std::size_t a_bytes, void const* b, std::size_t b_bytes) noexcept {
  auto const x = reinterpret_cast<std::uintptr_t>(a);
  auto const y = reinterpret_cast<std::uintptr_t>(b);
  return a_bytes != 0 && b_bytes != 0 && x < y + b_bytes && y < x + a_bytes;
}
}  // namespace detail

/**
 * @brief Copies `bytes` from `src` to `dst` (device or host memory, in any direction) in order on
 * `stream`. Asynchronous on CUDA (`cudaMemcpyAsync` with `cudaMemcpyDefault`): the caller keeps
 * both ranges alive and unmodified until the stream passes this point; to read `dst` on the host,
 * synchronise the stream. The host backend copies at once (`std::memcpy`).
 * @param dst where the bytes go, host or device memory; must not overlap `src`
 * @param src where the bytes come from, host or device memory
 * @param bytes the number of bytes; 0 queues nothing
 * @param stream the stream the copy is ordered on
 * @throws devcol::cuda_error if the copy cannot be queued
 */
inline void copy_bytes(void* dst, void const* src, std::size_t bytes, stream_ref stream) {
  if (bytes == 0) { return; }
#if DEVCOL_BACKEND_CUDA
  DEVCOL_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream.value()));
#else
  (void)stream;
  std::memcpy(dst, src, bytes);
#endif
}

/**
 * @brief Sets `bytes` bytes at `dst` to `value`, in order on `stream` (`cudaMemsetAsync` on CUDA,
 * `std::memset` on the host backend).
 * @param dst the first byte set, host or device memory
 * @param value the byte written
 * @param bytes the number of bytes; 0 queues nothing
 * @param stream the stream the fill is ordered on
 * @throws devcol::cuda_error if the fill cannot be queued
 */
inline void fill_bytes(void* dst, unsigned char value, std::size_t bytes, stream_ref stream) {
  if (bytes == 0) { return; }
#if DEVCOL_BACKEND_CUDA
  DEVCOL_CUDA_TRY(cudaMemsetAsync(dst, value, bytes, stream.value()));
#else
  (void)stream;
  std::memset(dst, value, bytes);
#endif
}

DEVCOL_NAMESPACE_END
