/**
 * @file device_handle.hpp
 * @brief `detail::device_handle`: the ownership of a native stream or event handle and of the
 * device it belongs to, shared by devcol::stream and devcol::event.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>

#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * A native handle created on a device, and that device: move-only, released exactly once, by
 * `Release{}(value, device)` (noexcept), on destruction or when assigned over. An empty handle
 * (the value-initialised `Value`, what a move leaves behind) is never released.
 *
 * @tparam Value the native handle (`cudaStream_t`, `cudaEvent_t`, or the host backend's stand-in)
 * @tparam Release a stateless callable releasing a non-empty handle with its device
 */
template <class Value, class Release>
class device_handle {
 public:
  /// Owns `value`, created on `device`.
  device_handle(Value value, recorded_device device) noexcept : value_(value), device_(device) {}
  device_handle(device_handle const&) = delete;
  device_handle& operator=(device_handle const&) = delete;
  device_handle(device_handle&& other) noexcept : value_(std::exchange(other.value_, Value{})), device_(other.device_) {}
  device_handle& operator=(device_handle&& other) noexcept {
    if (this != &other) {
      release();
      value_ = std::exchange(other.value_, Value{});
      device_ = other.device_;
    }
    return *this;
  }
  ~device_handle() { release(); }

  [[nodiscard]] Value get() const noexcept { return value_; }
  [[nodiscard]] device_id device() const noexcept { return device_.get(); }

 private:
  void release() noexcept {
    if (value_ != Value{}) { Release{}(value_, device_.get()); }
    value_ = Value{};
  }

  Value value_;
  [[no_unique_address]] recorded_device device_;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
