/**
 * @file event.hpp
 * @brief `devcol::event`, an owning synchronisation event between streams.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream.hpp>
#include <devcol/core/stream_ref.hpp>

#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Owns an event: a point in a stream that other streams or the host can wait for.
 *
 * Move-only. CUDA backend: a `cudaEvent_t` created with timing disabled (the cheap kind, as used
 * for Arrow `sync_event`s). Host backend: every stream is already complete, so recording and
 * waiting do nothing and the event is always ready.
 *
 * Devices (rule 21): a CUDA event belongs to the device current when it was created, and can only
 * be recorded on a stream of that device. record() and the destructor make the event's device
 * current for their call, whatever device the thread has made current since (a `cudaGetDevice`,
 * and a `cudaSetDevice` pair only when it differs). wait() on a `devcol::stream` makes that
 * stream's device current; on a bare `stream_ref`, whose device is unknown, the caller makes it
 * current. synchronize() and ready() work from any device.
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

  /// @brief Creates an event on the current device, which it records.
  /// @throws devcol::cuda_error if `cudaGetDevice` or `cudaEventCreateWithFlags` fails.
  event() {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaEventCreateWithFlags(&value_, cudaEventDisableTiming));
#endif
  }
  event(event const&) = delete;
  event& operator=(event const&) = delete;
  /// @brief Takes over `other`'s event; `other` is empty afterwards.
  /// @param other the event emptied
  event(event&& other) noexcept : value_(std::exchange(other.value_, {})), device_(other.device_) {}
  /// @brief Destroys this event, then takes over `other`'s.
  /// @param other the event emptied
  event& operator=(event&& other) noexcept {
    if (this != &other) {
      destroy();
      value_ = std::exchange(other.value_, {});
      device_ = other.device_;
    }
    return *this;
  }
  /// @brief Destroys the event with its device current. Never throws.
  ~event() { destroy(); }

  /**
   * @brief Captures the work queued on `stream` so far; asynchronous, with the event's device
   * current for the call. `stream` must belong to the event's device (the default stream is that
   * device's). @throws devcol::cuda_error
   * @param stream a stream of the event's device whose queued work is captured
   */
  void record(stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
    scoped_device const on_device(device_.get());
    DEVCOL_CUDA_TRY(cudaEventRecord(value_, stream.value()));
#else
    (void)stream;
#endif
  }
  /**
   * @brief Makes `stream` wait for the recorded work without blocking the host; `stream` may belong
   * to another device than the event. The current device must be `stream`'s (the default stream is
   * the current device's). @throws devcol::cuda_error
   * @param stream the stream made to wait; the current device must be its own
   */
  void wait(stream_ref stream) const {
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaStreamWaitEvent(stream.value(), value_, 0));
#else
    (void)stream;
#endif
  }
  /// @brief As wait(stream_ref), with `stream`'s own device current for the call.
  /// @param s the stream made to wait, on whichever device it belongs to
  /// @throws devcol::cuda_error
  void wait(stream const& s) const {
    scoped_device const on_device(s.device());
    wait(s.ref());
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
  /// @brief The device the event belongs to: the one current at its creation (0 on the host backend).
  [[nodiscard]] device_id device() const noexcept { return device_.get(); }

 private:
  void destroy() noexcept {
#if DEVCOL_BACKEND_CUDA
    if (value_ != nullptr) {
      scoped_device const on_device(device_.get(), std::nothrow);
      DEVCOL_ASSERT_CUDA_SUCCESS(cudaEventDestroy(value_));
    }
#endif
    value_ = {};
  }

  value_type value_{};
  [[no_unique_address]] detail::recorded_device device_;
};

DEVCOL_NAMESPACE_END
