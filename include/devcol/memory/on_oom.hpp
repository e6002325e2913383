/**
 * @file on_oom.hpp
 * @brief `devcol::mr::on_oom`: calls back when upstream runs out of memory, then retries.
 */
#pragma once

#include <devcol/core/callback.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

namespace detail {

/// The callback and upstream that a `mr::on_oom` and its copies share.
template <memory_resource Upstream>
class on_oom_state : public adaptor_state<Upstream> {
 public:
  using callback_type = callback<bool(std::size_t bytes, stream_ref stream)>;

  template <class... Args>
  explicit on_oom_state(callback_type callback, Args&&... args)
      : adaptor_state<Upstream>(std::forward<Args>(args)...), callback_(std::move(callback)) {}

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    while (true) {
      try {
        return this->upstream().allocate(bytes, alignment, stream);
      } catch (out_of_memory const&) {
        if (!callback_ || !callback_(bytes, stream)) { throw; }
      }
    }
  }
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    this->upstream().deallocate(ptr, bytes, alignment, stream);
  }

 private:
  callback_type const callback_;
};

}  // namespace detail

/**
 * @brief When `Upstream` throws `devcol::out_of_memory`, calls `callback(bytes, stream)`; while
 * the callback returns true (it freed something), retries. The hook the spill manager installs.
 *
 * The callback runs on the allocating thread with no lock of this adaptor held, so it may free
 * memory through the same resource stack; it must not throw. RMM's `failure_callback_resource_adaptor`.
 *
 * Copies share the one callback and the upstream (a copy costs an atomic increment and never copies
 * the callback; see `detail::adaptor_handle`), and compare equal; the callback may then run on
 * several threads at once, from any copy.
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); only its
 *         `devcol::out_of_memory` is caught and retried
 */
template <memory_resource Upstream>
class on_oom : public detail::adaptor_handle<detail::on_oom_state<Upstream>, on_oom<Upstream>> {
  using base = detail::adaptor_handle<detail::on_oom_state<Upstream>, on_oom<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  on_oom(on_oom const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  on_oom& operator=(on_oom const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// Called with the failed request's size and stream; returns whether to retry.
  using callback_type = typename detail::on_oom_state<Upstream>::callback_type;

  /// @brief Calls `callback` when a default-constructed upstream runs out of memory.
  /// @param callback told the failed request's size and stream; returns whether to retry. Empty:
  ///        never retry
  /// @throws std::bad_alloc
  explicit on_oom(callback_type callback) : base(std::in_place, std::move(callback)) {}
  /// @brief Calls `callback` when `upstream` (moved in) runs out of memory.
  /// @param callback told the failed request's size and stream; returns whether to retry
  /// @param upstream the resource forwarded to
  /// @throws std::bad_alloc
  on_oom(callback_type callback, Upstream upstream)
      : base(std::in_place, std::move(callback), std::in_place, std::move(upstream)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param callback told the failed request's size and stream; returns whether to retry
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  on_oom(callback_type callback, std::in_place_t, Args&&... args)
      : base(std::in_place, std::move(callback), std::in_place, std::forward<Args>(args)...) {}

  /**
   * @brief Allocates from upstream, calling back and retrying on `out_of_memory`. Costs nothing
   * beyond the upstream's call unless it fails.
   * @param bytes the size in bytes
   * @param alignment a power of two the upstream honours
   * @param stream the stream the allocation is ordered on, also given to the callback
   * @throws devcol::out_of_memory (the upstream's last one) once the callback returns false
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }
  /// @brief Frees through upstream. Never throws.
  /// @param ptr memory from allocate() of this adaptor or a copy of it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, alignment, stream);
  }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
