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

/**
 * @brief Allows at most `limit` bytes outstanding from `Upstream`; past it, throws
 * `devcol::out_of_memory` without calling upstream.
 *
 * Lock-free (one atomic add per call). Counts requested bytes, not the upstream's rounding. Under
 * an on-out-of-memory adaptor it gives spilling a soft device limit to work against.
 * @tparam Upstream the resource the adaptor forwards to, owned by value (never a reference that
 *         could dangle; make it a `resource_handle` to share one upstream); the limit counts the
 *         bytes requested, not the upstream's rounding
 */
template <memory_resource Upstream>
class limiting : public detail::adaptor_base<Upstream, limiting<Upstream>> {
  using base = detail::adaptor_base<Upstream, limiting<Upstream>>;

 public:
  /// @brief Limits allocations from a default-constructed upstream to `limit_bytes` outstanding.
  /// @param limit_bytes the most bytes outstanding at once
  explicit limiting(std::size_t limit_bytes) : limit_(limit_bytes) {}
  /// @brief Limits allocations from `upstream` (moved in) to `limit_bytes` outstanding.
  /// @param limit_bytes the most bytes outstanding at once
  /// @param upstream the resource forwarded to
  limiting(std::size_t limit_bytes, Upstream upstream) : base(std::in_place, std::move(upstream)), limit_(limit_bytes) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param limit_bytes the most bytes outstanding at once
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws what `Upstream`'s constructor throws
  template <class... Args>
  limiting(std::size_t limit_bytes, std::in_place_t, Args&&... args)
      : base(std::in_place, std::forward<Args>(args)...), limit_(limit_bytes) {}

  /**
   * @brief Allocates from upstream if `bytes` more stay within the limit. One atomic add, no lock.
   * @param bytes the size in bytes, counted against the limit
   * @param alignment a power of two the upstream honours
   * @param stream the stream the allocation is ordered on
   * @throws devcol::out_of_memory naming the request, the limit and the bytes in use when they would not
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    std::size_t const before = used_.fetch_add(bytes, std::memory_order_relaxed);
    if (bytes > limit_ || before > limit_ - bytes) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      DEVCOL_OUT_OF_MEMORY(bytes, "limiting: allocating ", bytes, " bytes would exceed the limit of ", limit_,
                           " bytes (", before, " in use)");
    }
    try {
      return this->upstream().allocate(bytes, alignment, stream);
    } catch (...) {
      used_.fetch_sub(bytes, std::memory_order_relaxed);
      throw;
    }
  }
  /// @brief Frees through upstream. Never throws.
  /// @param ptr memory from allocate() of this adaptor
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->upstream().deallocate(ptr, bytes, alignment, stream);
    used_.fetch_sub(bytes, std::memory_order_relaxed);
  }

  /// @brief Bytes outstanding now.
  [[nodiscard]] std::size_t used_bytes() const noexcept { return used_.load(std::memory_order_relaxed); }
  /// @brief The limit in bytes.
  [[nodiscard]] std::size_t limit_bytes() const noexcept { return limit_; }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;

 private:
  std::size_t limit_;
  std::atomic<std::size_t> used_{0};
};

}  // namespace mr
DEVCOL_NAMESPACE_END
