/**
 * @file device.hpp
 * @brief Devices: `devcol::device_id`, `devcol::current_device()` and `devcol::scoped_device`, the
 * RAII guard that makes a device current for a scope (RMM's `cuda_set_device_raii`).
 *
 * DESIGN.md rule 21: every owner records the device that was current when it was made, and its
 * allocation, free, copies, spill and unspill, events and streams run with that device current,
 * whichever device the calling thread has made current since. The host backend has one "device",
 * 0: recording it costs nothing and the guard does nothing.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>

#include <compare>
#include <cstddef>
#include <new>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A device ordinal, as `cudaSetDevice` takes it (RMM's `cuda_device_id`). The host backend
 * has one device, 0. Trivially copyable, one `int`; constructing one checks nothing.
 */
class device_id {
 public:
  /// The ordinal's type.
  using value_type = int;
  /// @brief Device 0.
  constexpr device_id() noexcept = default;
  /// @brief The device with ordinal `value`. Explicit: an integer must not pass for a device by accident.
  /// @param value the CUDA device ordinal (only 0 on the host backend)
  constexpr explicit device_id(value_type value) noexcept : value_(value) {}
  /// @brief The ordinal.
  [[nodiscard]] constexpr value_type value() const noexcept { return value_; }
  /// @brief Devices compare by ordinal.
  friend constexpr bool operator==(device_id, device_id) noexcept = default;
  /// @brief Devices order by ordinal.
  friend constexpr auto operator<=>(device_id, device_id) noexcept = default;

 private:
  value_type value_ = 0;
};

/**
 * @brief The device this thread's CUDA calls go to now (`cudaGetDevice`, a host call that
 * never synchronises). Host backend: device 0, at no cost.
 * @throws devcol::cuda_error if `cudaGetDevice` fails
 */
[[nodiscard]] inline device_id current_device() {
#if DEVCOL_BACKEND_CUDA
  int device = 0;
  DEVCOL_CUDA_TRY(cudaGetDevice(&device));
  return device_id{device};
#else
  return device_id{0};
#endif
}

/**
 * @brief How many devices there are (`cudaGetDeviceCount`, asked once per call: it is cheap, and a
 * process may be started with a device hidden later only by the driver). Host backend: 1.
 * @throws devcol::cuda_error if `cudaGetDeviceCount` fails
 */
[[nodiscard]] inline int device_count() {
#if DEVCOL_BACKEND_CUDA
  int count = 0;
  DEVCOL_CUDA_TRY(cudaGetDeviceCount(&count));
  return count;
#else
  return 1;
#endif
}

namespace detail {

/// How many devices a per-device table of devcol's (the spill registry's byte counts,
/// mr::shared_instance) keeps apart; devices past the last share its slot.
inline constexpr std::size_t device_slots = 64;
/// `device`'s slot in such a table.
[[nodiscard]] constexpr std::size_t device_slot(device_id device) noexcept {
  return device.value() <= 0 ? 0
         : static_cast<std::size_t>(device.value()) < device_slots ? static_cast<std::size_t>(device.value())
                                                                    : device_slots - 1;
}

}  // namespace detail

namespace detail {
#if DEVCOL_BACKEND_CUDA
/// current_device() for `noexcept` paths: a failure is asserted in debug builds, device 0 after.
[[nodiscard]] inline device_id current_device_nothrow() noexcept {
  int device = 0;
  DEVCOL_ASSERT_CUDA_SUCCESS(cudaGetDevice(&device));
  return device_id{device};
}
#else
[[nodiscard]] constexpr device_id current_device_nothrow() noexcept { return device_id{0}; }
#endif
}  // namespace detail

/**
 * @brief Makes `device` current for its lifetime and restores the device that was current before
 * when it ends (RMM's `cuda_set_device_raii`). Calls `cudaSetDevice` only when `device` is not
 * current already, so a guard on the current device costs one `cudaGetDevice`; never
 * synchronises. Host backend: an empty object that does nothing.
 *
 * Not movable: it restores on the thread and in the scope that made it.
 */
class [[nodiscard]] scoped_device {
 public:
  /**
   * @brief Makes `device` current.
   * @param device the device made current
   * @throws devcol::cuda_error if `cudaGetDevice` or `cudaSetDevice` fails (an ordinal past the
   *         devices is `cudaErrorInvalidDevice`); then nothing changed
   */
  explicit scoped_device([[maybe_unused]] device_id device) {
#if DEVCOL_BACKEND_CUDA
    int current = 0;
    DEVCOL_CUDA_TRY(cudaGetDevice(&current));
    if (current != device.value()) {
      DEVCOL_CUDA_TRY(cudaSetDevice(device.value()));
      previous_ = current;
    }
#endif
  }
  /**
   * @brief Makes `device` current, for `noexcept` paths (frees, destructors): never throws. A
   * failing CUDA call is asserted in debug builds; in release builds the device stays as it was.
   * @param device the device made current
   */
  scoped_device([[maybe_unused]] device_id device, std::nothrow_t) noexcept {
#if DEVCOL_BACKEND_CUDA
    int current = 0;
    if (cudaError_t const status = cudaGetDevice(&current); status != cudaSuccess) {
      DEVCOL_ASSERT_CUDA_SUCCESS(status);
      return;
    }
    if (current == device.value()) { return; }
    if (cudaError_t const status = cudaSetDevice(device.value()); status != cudaSuccess) {
      DEVCOL_ASSERT_CUDA_SUCCESS(status);
      return;
    }
    previous_ = current;
#endif
  }
  scoped_device(scoped_device const&) = delete;
  scoped_device& operator=(scoped_device const&) = delete;
  /// @brief Restores the device current at construction, if this guard changed it. Never throws.
  ~scoped_device() {
#if DEVCOL_BACKEND_CUDA
    if (previous_ >= 0) { DEVCOL_ASSERT_CUDA_SUCCESS(cudaSetDevice(previous_)); }
#endif
  }

 private:
#if DEVCOL_BACKEND_CUDA
  int previous_ = -1;  // -1: the device was current already, nothing to restore
#endif
};

namespace detail {
/**
 * @brief What an owner keeps of its device: the one current when it was made, on CUDA; nothing on
 * the host backend (an empty type, for `[[no_unique_address]]`), whose one device is 0.
 */
#if DEVCOL_BACKEND_CUDA
class recorded_device {
 public:
  /// Records the current device. @throws devcol::cuda_error if `cudaGetDevice` fails
  recorded_device() : device_(current_device()) {}
  /// Records the current device; never throws (see current_device_nothrow).
  explicit recorded_device(std::nothrow_t) noexcept : device_(current_device_nothrow()) {}
  [[nodiscard]] device_id get() const noexcept { return device_; }

 private:
  device_id device_;
};
#else
class recorded_device {
 public:
  constexpr recorded_device() noexcept = default;
  constexpr explicit recorded_device(std::nothrow_t) noexcept {}
  [[nodiscard]] static constexpr device_id get() noexcept { return device_id{0}; }
};
#endif
}  // namespace detail

DEVCOL_NAMESPACE_END
