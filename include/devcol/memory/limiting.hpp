/**
 * @file limiting.hpp
 * @brief `devcol::mr::limiting`: fails allocations past a byte limit.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <atomic>
#include <cstddef>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

namespace detail {

/// The limit, the count and the upstream that a `mr::limiting` and its copies share.
template <memory_resource Upstream>
class limiting_state : public adaptor_state<Upstream> {
 public:
  template <class... Args>
  explicit limiting_state(std::size_t limit_bytes, Args&&... args)
      : adaptor_state<Upstream>(std::forward<Args>(args)...), limit_(limit_bytes) {}

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    // A request past the limit on its own is refused before it is counted: added to the shared
    // count even for a moment, a size near SIZE_MAX wraps it below the limit, and another
    // thread's request checked meanwhile gets through a full limit.
    if (bytes > limit_) { refuse(bytes, used_.load(std::memory_order_relaxed)); }
    std::size_t const before = used_.fetch_add(bytes, std::memory_order_relaxed);
    if (before > limit_ - bytes) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      refuse(bytes, before);
    }
    try {
      return this->upstream().allocate(bytes, alignment, stream);
    } catch (...) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      throw;
    }
  }
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    this->upstream().deallocate(ptr, bytes, alignment, stream);
    used_.fetch_sub(bytes, std::memory_order_relaxed);
  }
  [[nodiscard]] std::size_t used_bytes() const noexcept { return used_.load(std::memory_order_relaxed); }
  [[nodiscard]] std::size_t limit_bytes() const noexcept { return limit_; }

 private:
  [[noreturn]] void refuse(std::size_t bytes, std::size_t in_use) const {
    DEVCOL_OUT_OF_MEMORY(bytes, "limiting: allocating ", bytes, " bytes would exceed the limit of ", limit_,
                         " bytes (", in_use, " in use)");
  }

  std::size_t limit_;
  std::atomic<std::size_t> used_{0};
};

}  // namespace detail

/**
 * @brief Allows at most `limit` bytes outstanding from `Upstream`; past it, throws
 * `devcol::out_of_memory` without calling upstream.
 *
 * Lock-free (one atomic add per call). Counts requested bytes, not the upstream's rounding. Under
 * an on-out-of-memory adaptor it gives spilling a soft device limit to work against.
 *
 * Copies share one limit and one count (a copy costs an atomic increment; see
 * `detail::adaptor_handle`): bytes allocated through any copy count against the limit of all, so
 * handing a copy to RMM (`rmm::device_async_resource_ref ref{limited};`) cannot double the budget.
 * Copies compare equal and may be used from any threads at once.
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); the limit counts
 *         the bytes requested, not the upstream's rounding
 */
template <memory_resource Upstream>
class limiting : public detail::adaptor_handle<detail::limiting_state<Upstream>, limiting<Upstream>> {
  using base = detail::adaptor_handle<detail::limiting_state<Upstream>, limiting<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  limiting(limiting const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  limiting& operator=(limiting const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// @brief Limits allocations from a default-constructed upstream to `limit_bytes` outstanding.
  /// @param limit_bytes the most bytes outstanding at once
  /// @throws std::bad_alloc
  explicit limiting(std::size_t limit_bytes) : base(std::in_place, limit_bytes) {}
  /// @brief Limits allocations from `upstream` (moved in) to `limit_bytes` outstanding.
  /// @param limit_bytes the most bytes outstanding at once
  /// @param upstream the resource forwarded to
  /// @throws std::bad_alloc
  limiting(std::size_t limit_bytes, Upstream upstream) : base(std::in_place, limit_bytes, std::in_place, std::move(upstream)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param limit_bytes the most bytes outstanding at once
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  limiting(std::size_t limit_bytes, std::in_place_t, Args&&... args)
      : base(std::in_place, limit_bytes, std::in_place, std::forward<Args>(args)...) {}

  /**
   * @brief Allocates from upstream if `bytes` more stay within the limit. One atomic add, no lock.
   * @param bytes the size in bytes, counted against the limit
   * @param alignment a power of two the upstream honours
   * @param stream the stream the allocation is ordered on
   * @throws devcol::out_of_memory naming the request, the limit and the bytes in use when they would not
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

  /// @brief Bytes outstanding now, through this adaptor and its copies.
  [[nodiscard]] std::size_t used_bytes() const noexcept { return this->state().used_bytes(); }
  /// @brief The limit in bytes.
  [[nodiscard]] std::size_t limit_bytes() const noexcept { return this->state().limit_bytes(); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
