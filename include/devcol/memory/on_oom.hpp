/**
 * @file on_oom.hpp
 * @brief `devcol::mr::on_oom`: calls back when upstream runs out of memory, then retries.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <functional>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief When `Upstream` throws `devcol::out_of_memory`, calls `callback(bytes, stream)`; while
 * the callback returns true (it freed something), retries. The hook the spill manager installs.
 *
 * The callback runs on the allocating thread with no lock of this adaptor held, so it may free
 * memory through the same resource stack; it must not throw. RMM's `failure_callback_resource_adaptor`.
 * @tparam Upstream the resource the adaptor forwards to, owned by value (never a reference that
 *         could dangle; make it a `resource_handle` to share one upstream); only its
 *         `devcol::out_of_memory` is caught and retried
 */
template <memory_resource Upstream>
class on_oom : public detail::adaptor_base<Upstream, on_oom<Upstream>> {
  using base = detail::adaptor_base<Upstream, on_oom<Upstream>>;

 public:
  /// Called with the failed request's size and stream; returns whether to retry.
  using callback_type = std::function<bool(std::size_t bytes, stream_ref stream)>;

  /// @brief Calls `callback` when a default-constructed upstream runs out of memory.
  /// @param callback told the failed request's size and stream; returns whether to retry. Empty:
  ///        never retry
  explicit on_oom(callback_type callback) : callback_(std::move(callback)) {}
  /// @brief Calls `callback` when `upstream` (moved in) runs out of memory.
  /// @param callback told the failed request's size and stream; returns whether to retry
  /// @param upstream the resource forwarded to
  on_oom(callback_type callback, Upstream upstream)
      : base(std::in_place, std::move(upstream)), callback_(std::move(callback)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param callback told the failed request's size and stream; returns whether to retry
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws what `Upstream`'s constructor throws
  template <class... Args>
  on_oom(callback_type callback, std::in_place_t, Args&&... args)
      : base(std::in_place, std::forward<Args>(args)...), callback_(std::move(callback)) {}

  /**
   * @brief Allocates from upstream, calling back and retrying on `out_of_memory`. Costs nothing
   * beyond the upstream's call unless it fails.
   * @param bytes the size in bytes
   * @param alignment a power of two the upstream honours
   * @param stream the stream the allocation is ordered on, also given to the callback
   * @throws devcol::out_of_memory (the upstream's last one) once the callback returns false
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    while (true) {
      try {
        return this->upstream().allocate(bytes, alignment, stream);
      } catch (out_of_memory const&) {
        if (!callback_ || !callback_(bytes, stream)) { throw; }
      }
    }
  }
  /// @brief Frees through upstream. Never throws.
  /// @param ptr memory from allocate() of this adaptor
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->upstream().deallocate(ptr, bytes, alignment, stream);
  }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;

 private:
  callback_type callback_;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
