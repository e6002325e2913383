/**
 * @file event.hpp
 * @brief `devcol::event`, an owning synchronisation event between streams.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Owns an event: a point in a stream that other streams or the host can wait for.
 *
 * Move-only. CUDA backend: a `cudaEvent_t` created with timing disabled (the cheap kind, as used
 * for Arrow `sync_event`s). Host backend: every stream is already complete, so recording and
 * waiting do nothing and the event is always ready.
 */
class event {
 public:
#if DEVCOL_BACKEND_CUDA
  /// The native event type.
  using value_type = cudaEvent_t;
#else
  /// The host backend has no native event.
  using value_type = void*;
#endif

  /// @brief Creates an event. @throws devcol::cuda_error if `cudaEventCreateWithFlags` fails.
  event() {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaEventCreateWithFlags(&value_, cudaEventDisableTiming));
#endif
  }
  event(event const&) = delete;
  event& operator=(event const&) = delete;
  /// @brief Takes over `other`'s event; `other` is empty afterwards.
  event(event&& other) noexcept : value_(std::exchange(other.value_, {})) {}
  /// @brief Destroys this event, then takes over `other`'s.
  event& operator=(event&& other) noexcept {
    if (this != &other) {
      destroy();
      value_ = std::exchange(other.value_, {});
    }
    return *this;
  }
  ~event() { destroy(); }

  /// @brief Captures the work queued on `stream` so far; asynchronous. @throws devcol::cuda_error
  void record(stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaEventRecord(value_, stream.value()));
#else
    (void)stream;
#endif
  }
  /// @brief Makes `stream` wait for the recorded work without blocking the host. @throws devcol::cuda_error
  void wait(stream_ref stream) const {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaStreamWaitEvent(stream.value(), value_, 0));
#else
    (void)stream;
#endif
  }
  /// @brief Blocks the host until the recorded work completes. @throws devcol::cuda_error
  void synchronize() const {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaEventSynchronize(value_));
#endif
  }
  /// @brief Whether the recorded work has completed; never blocks. @throws devcol::cuda_error
  [[nodiscard]] bool ready() const {
#if DEVCOL_BACKEND_CUDA
    cudaError_t const status = cudaEventQuery(value_);
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    DEVCOL_CUDA_TRY(status);
#endif
    return true;
  }
  /// @brief The native handle (its address is what an Arrow `sync_event` points to).
  [[nodiscard]] value_type value() const noexcept { return value_; }

 private:
  void destroy() noexcept {
#if DEVCOL_BACKEND_CUDA
    if (value_ != nullptr) { DEVCOL_ASSERT_CUDA_SUCCESS(cudaEventDestroy(value_)); }
#endif
    value_ = {};
  }

  value_type value_{};
};

DEVCOL_NAMESPACE_END
