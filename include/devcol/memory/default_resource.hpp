/**
 * @file default_resource.hpp
 * @brief The default resource: per thread (NEP 49's `PyDataMem_SetHandler`, kept per thread as
 * NumPy keeps it in a ContextVar) with its RAII setter, over one default per device (RMM's
 * `set_per_device_resource`).
 *
 * Which resource an allocation uses, first match wins: the one the caller passes; this thread's
 * default, if set_default() or a scoped_default set one; the current device's default
 * (set_per_device_default()), which starts as initial_default().
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/memory/cuda_async.hpp>
#include <devcol/memory/host_aligned.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief The backend's device memory, with no adaptor: `cuda_async` (stream-ordered `cudaMallocAsync`)
 * on the CUDA backend, `host_aligned` (64-byte aligned host memory) on the host backend. What to
 * put at the bottom of a resource stack that serves columns on either backend.
 */
#if DEVCOL_BACKEND_CUDA
using device_memory = cuda_async;
#else
using device_memory = host_aligned;
#endif

/**
 * @brief The process-wide initial default: `cuda_async` ("cuda_async") on the CUDA backend,
 * `host_aligned` ("host_aligned") on the host backend. Every device's default starts as it (a
 * stateless resource: `cudaMallocAsync` serves whichever device is current).
 */
[[nodiscard]] inline resource_handle const& initial_default() {
#if DEVCOL_BACKEND_CUDA
  static resource_handle const handle{"cuda_async", cuda_async{}};
#else
  static resource_handle const handle{"host_aligned", host_aligned{}};
#endif
  return handle;
}

namespace detail {

/**
 * The per-device defaults: a map from device ordinal to handle under a mutex, for the writers; and
 * a version, raised by every write, that lets each thread keep the handle it last read (for one
 * device) and re-read only after a write. So get_default() costs, when no thread default is set,
 * one acquire load, a `cudaGetDevice` on CUDA and a handle copy; the mutex only after a write.
 */
class per_device_defaults {
 public:
  static per_device_defaults& global() {
    // Never destroyed: allocations freed during static destruction may still ask for a default.
    static per_device_defaults* const instance = new per_device_defaults;
    return *instance;
  }
  [[nodiscard]] resource_handle get(device_id device) const {
    std::lock_guard const lock(mutex_);
    auto const it = handles_.find(device.value());
    return it != handles_.end() ? it->second : initial_default();
  }
  resource_handle set(device_id device, resource_handle handle) {
    std::lock_guard const lock(mutex_);
    auto const it = handles_.find(device.value());
    resource_handle previous = it != handles_.end() ? it->second : initial_default();
    handles_.insert_or_assign(device.value(), std::move(handle));
    version_.fetch_add(1, std::memory_order_release);
    return previous;
  }
  [[nodiscard]] std::uint64_t version() const noexcept { return version_.load(std::memory_order_acquire); }

 private:
  per_device_defaults() = default;
  mutable std::mutex mutex_;
  std::map<int, resource_handle> handles_;  // a device not in it has initial_default()
  std::atomic<std::uint64_t> version_{1};
};

/// @throws devcol::logic_error naming `device` unless it is a device of this machine.
inline void expect_device(device_id device, char const* what) {
  int const count = device_count();
  DEVCOL_EXPECTS(device.value() >= 0 && device.value() < count, what, ": device ", device.value(),
                 " is not one of the ", count, " device(s)");
}

/// This thread's own default (empty: follow the current device's), and its cached per-device read.
struct thread_defaults {
  std::optional<resource_handle> own;
  std::uint64_t cached_version = 0;  // 0: nothing cached (the global version starts at 1)
  device_id cached_device{};
  handle_access::watched cached;  // watched, not held: see device_default_cached()
};
inline thread_defaults& this_thread_defaults() {
  thread_local thread_defaults state;
  return state;
}

/// The current device's default, through this thread's cache. The cache only watches the handle:
/// a default that set_per_device_default() replaced goes with the last handle that holds it, not
/// when every thread that once read it (an idle worker may never read again) reads again.
inline resource_handle device_default_cached() {
  auto& t = this_thread_defaults();
  auto& all = per_device_defaults::global();
  std::uint64_t const version = all.version();
  device_id const device = current_device();
  if (t.cached_version == version && t.cached_device == device) {
    if (auto impl = handle_access::lock(t.cached)) { return handle_access::adopt(std::move(impl)); }
  }
  resource_handle handle = all.get(device);
  t.cached = handle_access::watch(handle);
  t.cached_version = version;
  t.cached_device = device;
  return handle;
}

}  // namespace detail

/**
 * @brief The default of `device`: what allocations with that device current use when neither the
 * caller nor the thread names a resource. Costs a mutex and a handle copy.
 * @param device the device whose default is read
 * @throws devcol::logic_error unless `device` is a device (only 0 on the host backend)
 * @throws devcol::cuda_error if the devices cannot be counted
 */
[[nodiscard]] inline resource_handle get_per_device_default(device_id device) {
  detail::expect_device(device, "get_per_device_default");
  return detail::per_device_defaults::global().get(device);
}

/**
 * @brief Makes `handle` the default of `device`, for every thread that sets no default of its own;
 * returns the previous one (RMM's `set_per_device_resource`). Thread-safe: costs a mutex, and each
 * thread's next get_default() re-reads under it once. Memory allocated before still goes back to
 * the resource that made it. The resource should serve `device`'s memory (`cuda_async`,
 * `cuda_device` and the adaptors over them serve whichever device is current when they allocate);
 * the handle is kept until replaced, for the life of the process.
 * @param device the device whose default is replaced
 * @param handle the new default, kept for the life of the process or until replaced
 * @throws devcol::logic_error unless `device` is a device (only 0 on the host backend)
 * @throws devcol::cuda_error if the devices cannot be counted
 */
inline resource_handle set_per_device_default(device_id device, resource_handle handle) {
  detail::expect_device(device, "set_per_device_default");
  return detail::per_device_defaults::global().set(device, std::move(handle));
}

/**
 * @brief The resource new allocations on this thread use when none is named: the thread's own
 * default if set_default() or a scoped_default set one, else the current device's default. Costs a
 * handle copy (an atomic increment); without a thread default also an acquire load and, on CUDA, a
 * `cudaGetDevice` (the per-device map's mutex only after a set_per_device_default()).
 * @throws devcol::cuda_error if the current device cannot be read
 */
[[nodiscard]] inline resource_handle get_default() {
  auto const& t = detail::this_thread_defaults();
  return t.own ? *t.own : detail::device_default_cached();
}

/**
 * @brief Makes `handle` this thread's default, over every device's; returns the previous default
 * (what get_default() returned). Other threads keep theirs, and memory allocated before still goes
 * back to the resource that made it. Restoring with `set_default(previous)` keeps `previous` as the
 * thread's own default even on another device: reset_default() or a scoped_default go back to
 * following the current device's.
 * @param handle the new default of this thread
 * @throws devcol::cuda_error if the current device cannot be read (no thread default set yet)
 */
inline resource_handle set_default(resource_handle handle) {
  resource_handle previous = get_default();
  detail::this_thread_defaults().own = std::move(handle);
  return previous;
}

/**
 * @brief Drops this thread's own default: allocations follow the current device's default again.
 * Returns the thread's own default, empty if it had none. Never throws.
 */
inline std::optional<resource_handle> reset_default() noexcept {
  return std::exchange(detail::this_thread_defaults().own, std::nullopt);
}

/**
 * @brief Sets this thread's default for a scope and restores, on exit, exactly what was there: the
 * previous thread default, or none (then the current device's default applies again). Costs what
 * set_default() costs, on entry only; never synchronises.
 */
class [[nodiscard]] scoped_default {
 public:
  /// @brief Makes `handle` the thread's default until destruction. Never throws.
  /// @param handle the thread's default within the scope
  explicit scoped_default(resource_handle handle) noexcept
      : previous_(std::exchange(detail::this_thread_defaults().own, std::move(handle))) {}
  scoped_default(scoped_default const&) = delete;
  scoped_default& operator=(scoped_default const&) = delete;
  /// @brief Restores the thread's default as it was at construction. Never throws.
  ~scoped_default() { detail::this_thread_defaults().own = std::move(previous_); }

 private:
  std::optional<resource_handle> previous_;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
