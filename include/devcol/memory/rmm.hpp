/**
 * @file rmm.hpp
 * @brief devcol and RMM (26.x, on CCCL 3.1 or later) sharing memory resources both ways.
 *
 * Optional, and not in the umbrella header: include it only where RMM's headers are on the include
 * path (the `librmm-cu13` wheel has them, with its own CCCL under `include/rapids`), in CUDA code,
 * and link `librmm`.
 *
 * - **devcol to RMM** needs nothing from here: every devcol resource is a CCCL `cuda::mr` resource,
 *   and a copyable one, as CCCL 3.1+'s resource references require (adaptors are shared handles:
 *   copies share one pool, one set of statistics). Hand RMM (and so libcudf) any composition:
 *   `rmm::device_async_resource_ref ref{pool};`, or make it RMM's default with
 *   `rmm::mr::set_current_device_resource(pool)` (RMM keeps a copy, sharing the pool).
 * - **RMM to devcol**: any RMM resource is a devcol leaf or upstream through `mr::cccl_resource<R>`
 *   (`mr::rmm_resource_ref` for a `rmm::device_async_resource_ref`), and so fits a
 *   `mr::resource_handle`.
 * - **devcol's default following RMM's**: `mr::rmm_current_device_resource` allocates from whatever
 *   `rmm::mr::get_current_device_resource_ref()` is at each allocation, and
 *   `mr::follow_rmm_current_device_resource()` makes it a device's devcol default.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/cccl_resource.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#if !DEVCOL_BACKEND_CUDA
#  error "devcol/memory/rmm.hpp is for the CUDA backend (RMM allocates device memory): compile as CUDA"
#endif
#if !__has_include(<rmm/mr/per_device_resource.hpp>)
#  error "devcol/memory/rmm.hpp needs RMM's headers (pip install librmm-cu13, then -I its include/ and include/rapids)"
#endif

#include <rmm/mr/per_device_resource.hpp>
#include <rmm/resource_ref.hpp>

#include <cassert>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/// @brief An `rmm::device_async_resource_ref` as a devcol leaf: the RMM resource it refers to must
/// outlive every allocation made through it. Hold an RMM resource itself (`cccl_resource<
/// rmm::mr::pool_memory_resource>`; RMM 26's resources are shared handles) to keep it alive instead.
using rmm_resource_ref = cccl_resource<rmm::device_async_resource_ref>;

/**
 * @brief Allocates from RMM's current device resource as it is at each allocation, and frees each
 * allocation through the resource that made it, even after RMM's current resource has changed.
 *
 * Costs, per allocation, what `rmm::mr::get_current_device_resource_ref()` costs (a `cudaGetDevice`
 * and RMM's map lookup under its lock), one hash-map insertion under a mutex, and what the RMM
 * resource costs; per free, one lookup and erasure. Copies share the map and compare equal.
 * Errors: RMM's `std::bad_alloc`s become `devcol::out_of_memory` (so `mr::on_oom` sees them).
 */
class rmm_current_device_resource : public detail::cccl_interop<rmm_current_device_resource> {
 public:
  // CCCL's entry points, which the overloads below would otherwise hide.
  using detail::cccl_interop<rmm_current_device_resource>::allocate;
  using detail::cccl_interop<rmm_current_device_resource>::deallocate;
  /// The largest alignment asked of RMM: 256 bytes, what RMM guarantees.
  static constexpr std::size_t max_alignment = rmm_resource_ref::max_alignment;

  /// @brief An empty map of allocations. @throws std::bad_alloc
  rmm_current_device_resource() : state_(std::make_shared<state>()) {}

  /**
   * @brief Allocates `bytes` from RMM's current device resource, ordered on `stream`.
   * @param bytes the size in bytes
   * @param alignment a power of two no larger than max_alignment
   * @param stream the stream the allocation is ordered on
   * @throws devcol::out_of_memory when RMM is out of memory
   * @throws devcol::logic_error for an alignment beyond max_alignment
   * @throws what else RMM throws (`rmm::cuda_error`)
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    rmm_resource_ref current{rmm::mr::get_current_device_resource_ref()};
    void* ptr = current.allocate(bytes, alignment, stream);
    if (ptr == nullptr) { return ptr; }
    try {
      std::lock_guard const lock(state_->mutex);
      state_->owners.emplace(ptr, current);
    } catch (...) {
      current.deallocate(ptr, bytes, alignment, stream);
      throw;
    }
    return ptr;
  }

  /// @brief Frees through the RMM resource that made `ptr`, ordered on `stream`. Never throws.
  /// @param ptr memory from allocate() of this resource or a copy of it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    if (ptr == nullptr) { return; }
    auto owner = [&]() -> std::optional<rmm_resource_ref> {
      std::lock_guard const lock(state_->mutex);
      auto node = state_->owners.extract(ptr);
      if (node.empty()) { return std::nullopt; }
      return std::move(node.mapped());
    }();
    assert(owner.has_value() && "rmm_current_device_resource: freeing memory it did not allocate");
    if (owner) { owner->deallocate(ptr, bytes, alignment, stream); }
  }

  /// @brief How many allocations are live (a lock and a size).
  [[nodiscard]] std::size_t outstanding_count() const {
    std::lock_guard const lock(state_->mutex);
    return state_->owners.size();
  }

  /// @brief RMM's device resources serve device memory.
  friend constexpr void get_property(rmm_current_device_resource const&, device_accessible) noexcept {}
  /// @brief Copies share one map of allocations: equal when they do.
  friend bool operator==(rmm_current_device_resource const& a, rmm_current_device_resource const& b) noexcept {
    return a.state_ == b.state_;
  }

 private:
  struct state {
    mutable std::mutex mutex;
    std::unordered_map<void*, rmm_resource_ref> owners;
  };
  std::shared_ptr<state> state_;
};

/**
 * @brief Makes `device`'s devcol default follow RMM's current device resource (a handle named
 * "rmm_current_device" over an `rmm_current_device_resource`); returns the previous default. Threads
 * with a default of their own (`scoped_default`) keep it. Memory allocated before still goes back
 * to the resource that made it.
 * @param device the device whose default follows RMM; the current one when not named
 * @throws devcol::logic_error unless `device` is a device
 * @throws std::bad_alloc, devcol::cuda_error as set_per_device_default()
 */
inline resource_handle follow_rmm_current_device_resource(device_id device = current_device()) {
  return set_per_device_default(device, resource_handle{"rmm_current_device", rmm_current_device_resource{}});
}

}  // namespace mr
DEVCOL_NAMESPACE_END
