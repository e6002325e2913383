/**
 * @file default_resource.hpp
 * @brief The per-thread default resource (NEP 49's `PyDataMem_SetHandler`, kept per thread as
 * NumPy keeps it in a ContextVar) and its RAII setter.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/memory/cuda_async.hpp>
#include <devcol/memory/host_aligned.hpp>
#include <devcol/memory/resource_handle.hpp>

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
 * `host_aligned` ("host_aligned") on the host backend. Every thread starts with it.
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
inline resource_handle& thread_default() {
  thread_local resource_handle current = initial_default();
  return current;
}
}  // namespace detail

/// @brief The resource new allocations on this thread use when none is named. Costs a handle copy.
[[nodiscard]] inline resource_handle get_default() { return detail::thread_default(); }

/**
 * @brief Makes `handle` this thread's default; returns the previous one. Other threads keep theirs,
 * and memory allocated before still goes back to the resource that made it.
 */
inline resource_handle set_default(resource_handle handle) {
  return std::exchange(detail::thread_default(), std::move(handle));
}

/// @brief Sets this thread's default for a scope and restores the previous one on exit.
class [[nodiscard]] scoped_default {
 public:
  /// @brief Makes `handle` the default until destruction.
  explicit scoped_default(resource_handle handle) : previous_(set_default(std::move(handle))) {}
  scoped_default(scoped_default const&) = delete;
  scoped_default& operator=(scoped_default const&) = delete;
  /// @brief Restores the default in force at construction.
  ~scoped_default() { detail::thread_default() = std::move(previous_); }

 private:
  resource_handle previous_;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
