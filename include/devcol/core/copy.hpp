/**
 * @file copy.hpp
 * @brief Stream-ordered byte copies and fills between any two memories devcol allocates.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstring>

DEVCOL_NAMESPACE_BEGIN

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
