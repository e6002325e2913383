/**
 * @file event.hpp
 * @brief `devcol::event`, an owning synchronisation event between streams.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/device_handle.hpp>
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
  event() : handle_(create()) {}
  // Move-only: moves leave `other` empty; the destructor (and assignment over an event) destroys
  // the event with its device current, and never throws.

  /**
   * @brief Captures the work queued on `stream` so far; asynchronous, with the event's device
   * current for the call. `stream` must belong to the event's device (the default stream is that
   * device's). @throws devcol::cuda_error
   * @param stream a stream of the event's device whose queued work is captured
   */
  void record(stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
    scoped_device const on_device(handle_.device());
    DEVCOL_CUDA_TRY(cudaEventRecord(handle_.get(), stream.value()));
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
    DEVCOL_CUDA_TRY(cudaStreamWaitEvent(stream.value(), handle_.get(), 0));
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
    DEVCOL_CUDA_TRY(cudaEventSynchronize(handle_.get()));
#endif
  }
  /// @brief Whether the recorded work has completed; never blocks. @throws devcol::cuda_error
  [[nodiscard]] bool ready() const {
#if DEVCOL_BACKEND_CUDA
    cudaError_t const status = cudaEventQuery(handle_.get());
    if (status == cudaErrorNotReady) {
      (void)cudaGetLastError();
      return false;
    }
    DEVCOL_CUDA_TRY(status);
#endif
    return true;
  }
  /// @brief The native handle (its address is what an Arrow `sync_event` points to).
  [[nodiscard]] value_type value() const noexcept { return handle_.get(); }
  /// @brief The device the event belongs to: the one current at its creation (0 on the host backend).
  [[nodiscard]] device_id device() const noexcept { return handle_.device(); }

 private:
  struct destroy_event {
    void operator()([[maybe_unused]] value_type value, [[maybe_unused]] device_id device) const noexcept {
#if DEVCOL_BACKEND_CUDA
      scoped_device const on_device(device, std::nothrow);
      DEVCOL_ASSERT_CUDA_SUCCESS(cudaEventDestroy(value));
#endif
    }
  };
  using handle_type = detail::device_handle<value_type, destroy_event>;

  static handle_type create() {
    detail::recorded_device const device;
    value_type value{};
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaEventCreateWithFlags(&value, cudaEventDisableTiming));
#endif
    return handle_type(value, device);
  }

  handle_type handle_;
};

DEVCOL_NAMESPACE_END
