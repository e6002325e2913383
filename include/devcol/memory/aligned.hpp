/**
 * @file aligned.hpp
 * @brief `devcol::mr::aligned`: gives every allocation at least a chosen alignment.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

namespace detail {

/// The alignment, the table of padded blocks and the upstream that a `mr::aligned` and its copies
/// share.
template <memory_resource Upstream>
class aligned_state : public adaptor_state<Upstream> {
  static constexpr std::size_t upstream_alignment = max_alignment_v<Upstream>;

 public:
  static constexpr std::size_t max_alignment = std::max(std::size_t{1} << 21, upstream_alignment);

  template <class... Args>
  explicit aligned_state(std::size_t alignment, Args&&... args)
      : adaptor_state<Upstream>(std::forward<Args>(args)...), alignment_(alignment) {
    validate_alignment(alignment, max_alignment, "aligned");
  }

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    validate_alignment(alignment, max_alignment, "aligned");
    std::size_t const align = std::max(alignment, alignment_);
    if (align <= upstream_alignment) { return this->upstream().allocate(bytes, align, stream); }
    std::size_t const padded = padded_size(bytes, align);
    void* raw = this->upstream().allocate(padded, upstream_alignment, stream);
    void* ptr = reinterpret_cast<void*>(align_up(reinterpret_cast<std::uintptr_t>(raw), align));
    try {
      std::lock_guard lock(mutex_);
      originals_.emplace(ptr, padded_block{raw, padded});
      padded_count_.fetch_add(1, std::memory_order_relaxed);
    } catch (...) {
      this->upstream().deallocate(raw, padded, upstream_alignment, stream);
      throw;
    }
    return ptr;
  }

  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    std::size_t const align = std::max(alignment, alignment_);
    // An over-aligned block is found by its pointer, even if the caller passes a smaller alignment
    // than it asked for (the upstream must never see the interior pointer).
    if (align > upstream_alignment || padded_count_.load(std::memory_order_relaxed) != 0) {
      void* raw = nullptr;
      std::size_t padded = 0;
      {
        std::lock_guard lock(mutex_);
        auto const found = originals_.find(ptr);
        if (found != originals_.end()) {
          raw = found->second.raw;
          padded = found->second.padded;
          originals_.erase(found);
          padded_count_.fetch_sub(1, std::memory_order_relaxed);
        }
      }
      if (raw != nullptr) {
        this->upstream().deallocate(raw, padded, upstream_alignment, stream);
        return;
      }
      if (align > upstream_alignment) { return; }  // not ours: freeing it would corrupt the upstream
    }
    this->upstream().deallocate(ptr, bytes, align, stream);
  }

  [[nodiscard]] std::size_t alignment() const noexcept { return alignment_; }

 private:
  static std::size_t padded_size(std::size_t bytes, std::size_t align) {
    std::size_t const extra = align - upstream_alignment;
    if (bytes > SIZE_MAX - extra) {
      DEVCOL_OUT_OF_MEMORY(bytes, "aligned: ", bytes, " bytes overflow when padded for alignment ", align);
    }
    return bytes + extra;
  }

  struct padded_block {
    void* raw;           // what upstream returned
    std::size_t padded;  // what was asked of it
  };
  std::size_t const alignment_;
  std::mutex mutex_;
  std::map<void*, padded_block> originals_;  // a tree, not a hash table: <map> is parsed anyway
  std::atomic<std::size_t> padded_count_{0};  // lets deallocation skip the lock while nothing is padded
};

}  // namespace detail

/**
 * @brief Aligns every allocation to at least `alignment` bytes (and to what is asked, if more).
 *
 * Where the upstream honours the alignment itself the request is forwarded as is: no cost. Beyond
 * the upstream's guarantee (`max_alignment_v<Upstream>`, e.g. 256 bytes for `cudaMalloc`) it
 * over-allocates by the difference and keeps the original pointer in a table under a mutex.
 *
 * Copies share the one table and the upstream (a copy costs an atomic increment; see
 * `detail::adaptor_handle`), so a block over-aligned through one copy is freed correctly through
 * any other, from any thread; copies compare equal.
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); requests it
 *         already honours are forwarded unchanged
 */
template <memory_resource Upstream>
class aligned : public detail::adaptor_handle<detail::aligned_state<Upstream>, aligned<Upstream>> {
  using base = detail::adaptor_handle<detail::aligned_state<Upstream>, aligned<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  aligned(aligned const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  aligned& operator=(aligned const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// The largest alignment honoured (2 MiB, a huge page, or the upstream's if larger).
  static constexpr std::size_t max_alignment = detail::aligned_state<Upstream>::max_alignment;

  /**
   * @brief Aligns allocations from a default-constructed upstream to at least `alignment` bytes.
   * @param alignment the least alignment of every allocation, a power of two up to max_alignment
   * @throws devcol::logic_error if `alignment` is not a power of two or exceeds max_alignment
   * @throws std::bad_alloc
   */
  explicit aligned(std::size_t alignment) : base(std::in_place, alignment) {}
  /// @brief Same, over `upstream` (moved in).
  /// @param alignment the least alignment of every allocation, a power of two up to max_alignment
  /// @param upstream the resource forwarded to
  /// @throws devcol::logic_error for a bad alignment; std::bad_alloc
  aligned(std::size_t alignment, Upstream upstream) : base(std::in_place, alignment, std::in_place, std::move(upstream)) {}
  /// @brief Same, constructing the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param alignment the least alignment of every allocation, a power of two up to max_alignment
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws devcol::logic_error for a bad alignment; std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  aligned(std::size_t alignment, std::in_place_t, Args&&... args)
      : base(std::in_place, alignment, std::in_place, std::forward<Args>(args)...) {}

  /**
   * @brief Allocates `bytes` aligned to the larger of `alignment` and the adaptor's. Beyond the
   * upstream's alignment: over-allocates by the difference and takes the table's mutex.
   * @param bytes the size in bytes
   * @param alignment a power of two up to max_alignment
   * @param stream the stream the allocation is ordered on
   * @throws devcol::logic_error for an alignment that is not a power of two or exceeds max_alignment
   * @throws what the upstream throws
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }

  /// @brief Frees memory from allocate() with the same size and alignment. Never throws.
  /// @param ptr memory from allocate() of this adaptor or a copy of it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, alignment, stream);
  }

  /// @brief The minimum alignment this adaptor gives.
  [[nodiscard]] std::size_t alignment() const noexcept { return this->state().alignment(); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
