/**
 * @file stream_ref.hpp
 * @brief `devcol::stream_ref`, the non-owning stream every device operation takes.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>

#include <cstdint>

#if DEVCOL_BACKEND_CUDA && DEVCOL_HAS_CCCL_MR
#  include <cuda/stream_ref>
#endif

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A non-owning reference to an execution stream; trivially copyable, two words at most.
 *
 * CUDA backend: wraps a `cudaStream_t`; the default-constructed reference is the legacy default
 * stream (0), as RMM's `cuda_stream_default`. Host backend: an ordered no-op stream: every
 * operation completes before it returns, so `synchronize()` has nothing to wait for; the value only
 * identifies the stream (0 is the default one).
 */
class stream_ref {
 public:
#if DEVCOL_BACKEND_CUDA
  /// The native stream type.
  using value_type = cudaStream_t;
#else
  /// The stream's identity on the host backend.
  using value_type = std::uintptr_t;
#endif

  /// @brief The default stream.
  constexpr stream_ref() noexcept = default;
#if DEVCOL_BACKEND_CUDA
  /// @brief Refers to `stream` (not owned: it must outlive every use of this reference).
  /// @param stream the CUDA stream referred to
  constexpr stream_ref(value_type stream) noexcept : value_(stream) {}  // NOLINT: implicit, as cuda::stream_ref
#else
  /// @brief Refers to the stream with this identity. Explicit: an integer must never pass for a
  /// stream by accident (`allocation(4096, 256)` would otherwise bind 256 as the stream).
  /// @param stream the host backend's identity of the stream
  constexpr explicit stream_ref(value_type stream) noexcept : value_(stream) {}
#endif
#if DEVCOL_BACKEND_CUDA && DEVCOL_HAS_CCCL_MR
  /// @brief From CCCL's stream reference.
  /// @param stream CCCL's reference to the same CUDA stream
  constexpr stream_ref(::cuda::stream_ref stream) noexcept : value_(stream.get()) {}  // NOLINT: implicit
  /// @brief To CCCL's stream reference.
  constexpr operator ::cuda::stream_ref() const noexcept { return ::cuda::stream_ref{value_}; }
#endif

  /// @brief The native handle (`cudaStream_t` on CUDA, an identity on the host backend).
  [[nodiscard]] constexpr value_type value() const noexcept { return value_; }
  /// @brief Whether this refers to the default stream.
  [[nodiscard]] constexpr bool is_default() const noexcept { return value_ == value_type{}; }

  /**
   * @brief Blocks the calling thread until all work queued on the stream has completed.
   * @throws devcol::cuda_error if the CUDA call fails. A no-op on the host backend.
   */
  void synchronize() const {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaStreamSynchronize(value_));
#endif
  }

  /// @brief Two references are equal when they refer to the same stream.
  friend constexpr bool operator==(stream_ref, stream_ref) noexcept = default;

 private:
  value_type value_{};
};

DEVCOL_NAMESPACE_END
