/**
 * @file stream.hpp
 * @brief `devcol::stream`, an owning execution stream.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/device_handle.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <atomic>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Owns a stream: created on construction, destroyed (after its queued work) on destruction.
 *
 * Move-only. CUDA backend: a non-blocking `cudaStream_t` (it does not synchronise with the legacy
 * default stream). Host backend: a fresh stream identity.
 *
 * What captured a reference to it may outlive it: memory allocated on it (freed on its stream),
 * Arrow imports (waited for on release) and exported Arrow streams (which export on it). So the
 * destructor synchronises the stream before destroying it, and those captures then queue their
 * work on the default stream instead (still after all of this stream's work: the host waited for
 * it). Destroying a stream while another thread still queues work on it, itself or by dropping
 * memory allocated on it, is a race, as in CUDA.
 *
 * Devices (rule 21): a CUDA stream belongs to the device current when it was created; device()
 * tells which, and the destructor makes that device current to destroy it, whatever device the
 * thread has made current since. Work queued on it must run with that device current: devcol's
 * owners do that for what they queue (see `devcol::scoped_device`).
 */
class stream {
 public:
  /**
   * @brief Creates a stream on the current device, which it records (one `cudaGetDevice`).
   * @throws devcol::cuda_error if `cudaGetDevice` or `cudaStreamCreateWithFlags` fails
   */
  stream() : handle_(create()) {}
  // Move-only: a moved-from stream refers to the default stream; the destructor (and assignment
  // over a stream) waits for the queued work, then destroys the stream with its device current,
  // and never throws.

  /// @brief A non-owning reference, valid while this object lives.
  [[nodiscard]] stream_ref ref() const noexcept { return stream_ref{handle_.get()}; }
  /// @brief Same as ref().
  operator stream_ref() const noexcept { return ref(); }  // NOLINT: implicit by design
  /// @brief The native handle.
  [[nodiscard]] stream_ref::value_type value() const noexcept { return handle_.get(); }
  /// @brief Waits for all queued work. @throws devcol::cuda_error on failure.
  void synchronize() const { ref().synchronize(); }
  /// @brief The device the stream belongs to: the one current at its creation (0 on the host backend).
  [[nodiscard]] device_id device() const noexcept { return handle_.device(); }

 private:
  // Synchronises before retiring (so what moves to the default stream follows this one's work),
  // and once more after (for work queued meanwhile by what had not yet seen the retirement).
  struct destroy_stream {
    void operator()([[maybe_unused]] stream_ref::value_type value,
                    [[maybe_unused]] device_id device) const noexcept {
#if DEVCOL_BACKEND_CUDA
      scoped_device const on_device(device, std::nothrow);
      DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamSynchronize(value));
      try {
        detail::retired_streams::global().retire(value);
      } catch (...) {
        return;  // out of memory: the stream is left alive (a leak) rather than used after its end
      }
      DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamSynchronize(value));
      DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamDestroy(value));
#endif
    }
  };
  using handle_type = detail::device_handle<stream_ref::value_type, destroy_stream>;

  static handle_type create() {
    detail::recorded_device const device;
    stream_ref::value_type value{};
#if DEVCOL_BACKEND_CUDA
    DEVCOL_CUDA_TRY(cudaStreamCreateWithFlags(&value, cudaStreamNonBlocking));
    detail::retired_streams::global().revive(value);
#else
    static std::atomic<stream_ref::value_type> next{1};
    value = next.fetch_add(1, std::memory_order_relaxed);
#endif
    return handle_type(value, device);
  }

  handle_type handle_;
};

DEVCOL_NAMESPACE_END
