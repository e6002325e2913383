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
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief Aligns every allocation to at least `alignment` bytes (and to what is asked, if more).
 *
 * Where the upstream honours the alignment itself the request is forwarded as is: no cost. Beyond
 * the upstream's guarantee (`max_alignment_v<Upstream>`, e.g. 256 bytes for `cudaMalloc`) it
 * over-allocates by the difference and keeps the original pointer in a table under a mutex.
 */
template <memory_resource Upstream>
class aligned : public detail::adaptor_base<Upstream, aligned<Upstream>> {
  using base = detail::adaptor_base<Upstream, aligned<Upstream>>;
  static constexpr std::size_t upstream_alignment = max_alignment_v<Upstream>;

 public:
  /// The largest alignment honoured (2 MiB, a huge page).
  static constexpr std::size_t max_alignment = std::max(std::size_t{1} << 21, upstream_alignment);

  /**
   * @brief Aligns allocations from `upstream` to at least `alignment` bytes.
   * @throws devcol::logic_error if `alignment` is not a power of two or exceeds max_alignment
   */
  explicit aligned(std::size_t alignment) : alignment_(alignment) {
    detail::validate_alignment(alignment, max_alignment, "aligned");
  }
  /// @brief Same, over `upstream` (moved in).
  aligned(std::size_t alignment, Upstream upstream) : base(std::in_place, std::move(upstream)), alignment_(alignment) {
    detail::validate_alignment(alignment, max_alignment, "aligned");
  }
  /// @brief Same, constructing the upstream in place from `args`.
  template <class... Args>
  aligned(std::size_t alignment, std::in_place_t, Args&&... args)
      : base(std::in_place, std::forward<Args>(args)...), alignment_(alignment) {
    detail::validate_alignment(alignment, max_alignment, "aligned");
  }

  /**
   * @brief Allocates `bytes` aligned to the larger of `alignment` and the adaptor's.
   * @throws devcol::logic_error for an alignment that is not a power of two or exceeds max_alignment
   * @throws what the upstream throws
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    detail::validate_alignment(alignment, max_alignment, "aligned");
    std::size_t const align = std::max(alignment, alignment_);
    if (align <= upstream_alignment) { return this->upstream().allocate(bytes, align, stream); }
    std::size_t const padded = padded_size(bytes, align);
    void* raw = this->upstream().allocate(padded, upstream_alignment, stream);
    void* ptr = reinterpret_cast<void*>(align_up(reinterpret_cast<std::uintptr_t>(raw), align));
    try {
      std::lock_guard lock(mutex_);
      originals_.emplace(ptr, raw);
    } catch (...) {
      this->upstream().deallocate(raw, padded, upstream_alignment, stream);
      throw;
    }
    return ptr;
  }

  /// @brief Frees memory from allocate() with the same size and alignment. Never throws.
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    std::size_t const align = std::max(alignment, alignment_);
    if (align <= upstream_alignment) {
      this->upstream().deallocate(ptr, bytes, align, stream);
      return;
    }
    void* raw = nullptr;
    {
      std::lock_guard lock(mutex_);
      auto const found = originals_.find(ptr);
      if (found == originals_.end()) { return; }  // not ours: freeing it would corrupt the upstream
      raw = found->second;
      originals_.erase(found);
    }
    this->upstream().deallocate(raw, padded_size(bytes, align), upstream_alignment, stream);
  }

  /// @brief The minimum alignment this adaptor gives.
  [[nodiscard]] std::size_t alignment() const noexcept { return alignment_; }

 private:
  static std::size_t padded_size(std::size_t bytes, std::size_t align) {
    std::size_t const extra = align - upstream_alignment;
    DEVCOL_EXPECTS(bytes <= SIZE_MAX - extra, "aligned: size ", bytes, " overflows when padded for alignment ", align);
    return bytes + extra;
  }

  std::size_t alignment_;
  std::mutex mutex_;
  std::unordered_map<void*, void*> originals_;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
