/**
 * @file stream.hpp
 * @brief `devcol::stream`, an owning execution stream.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <atomic>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Owns a stream: created on construction, destroyed (after its queued work) on destruction.
 *
 * Move-only. CUDA backend: a non-blocking `cudaStream_t` (it does not synchronise with the legacy
 * default stream). Host backend: a fresh stream identity.
 */
class stream {
 public:
  /// @brief Creates a stream. @throws devcol::cuda_error if `cudaStreamCreateWithFlags` fails.
  stream() {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaStreamCreateWithFlags(&value_, cudaStreamNonBlocking));
#else
    static std::atomic<stream_ref::value_type> next{1};
    value_ = next.fetch_add(1, std::memory_order_relaxed);
#endif
  }
  stream(stream const&) = delete;
  stream& operator=(stream const&) = delete;
  /// @brief Takes over `other`'s stream; `other` refers to the default stream afterwards.
  stream(stream&& other) noexcept : value_(std::exchange(other.value_, {})) {}
  /// @brief Destroys this stream, then takes over `other`'s.
  stream& operator=(stream&& other) noexcept {
    if (this != &other) {
      destroy();
      value_ = std::exchange(other.value_, {});
    }
    return *this;
  }
  ~stream() { destroy(); }

  /// @brief A non-owning reference, valid while this object lives.
  [[nodiscard]] stream_ref ref() const noexcept { return stream_ref{value_}; }
  /// @brief Same as ref().
  operator stream_ref() const noexcept { return ref(); }  // NOLINT: implicit by design
  /// @brief The native handle.
  [[nodiscard]] stream_ref::value_type value() const noexcept { return value_; }
  /// @brief Waits for all queued work. @throws devcol::cuda_error on failure.
  void synchronize() const { ref().synchronize(); }

 private:
  void destroy() noexcept {
#if DEVCOL_BACKEND_CUDA
    if (value_ != nullptr) { DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamDestroy(value_)); }
#endif
    value_ = {};
  }

  stream_ref::value_type value_{};
};

DEVCOL_NAMESPACE_END
