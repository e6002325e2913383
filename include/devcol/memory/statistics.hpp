/**
 * @file statistics.hpp
 * @brief `devcol::mr::statistics`: counts bytes and allocations, lock-free.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/// @brief A current / peak / total triple, as RMM's statistics adaptor reports it.
struct statistics_counter {
  std::int64_t current = 0;  ///< live now
  std::int64_t peak = 0;     ///< largest `current` seen
  std::int64_t total = 0;    ///< ever allocated
  friend constexpr bool operator==(statistics_counter const&, statistics_counter const&) = default;
};

/// @brief A snapshot of a statistics adaptor's counters.
struct statistics_report {
  statistics_counter bytes;        ///< bytes as requested (not rounded)
  statistics_counter allocations;  ///< number of allocations
  friend constexpr bool operator==(statistics_report const&, statistics_report const&) = default;
};

namespace detail {

/// The counters and upstream that a `mr::statistics` and its copies share.
template <memory_resource Upstream>
class statistics_state : public adaptor_state<Upstream> {
 public:
  using adaptor_state<Upstream>::adaptor_state;

  // A null result (the CUDA leaves' answer to 0 bytes) is no allocation: nothing frees it (an
  // mr::allocation frees only a non-null pointer), so it is counted neither way, as tracking does.
  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    void* ptr = this->upstream().allocate(bytes, alignment, stream);
    if (ptr == nullptr) { return ptr; }
    bytes_.add(static_cast<std::int64_t>(bytes));
    allocations_.add(1);
    return ptr;
  }
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    this->upstream().deallocate(ptr, bytes, alignment, stream);
    if (ptr == nullptr) { return; }
    bytes_.sub(static_cast<std::int64_t>(bytes));
    allocations_.sub(1);
  }
  [[nodiscard]] statistics_report report() const noexcept { return {bytes_.load(), allocations_.load()}; }

 private:
  struct atomic_counter {
    std::atomic<std::int64_t> current{0}, peak{0}, total{0};
    void add(std::int64_t n) noexcept {
      std::int64_t const now = current.fetch_add(n, std::memory_order_relaxed) + n;
      total.fetch_add(n, std::memory_order_relaxed);
      std::int64_t seen = peak.load(std::memory_order_relaxed);
      while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {}
    }
    void sub(std::int64_t n) noexcept { current.fetch_sub(n, std::memory_order_relaxed); }
    [[nodiscard]] statistics_counter load() const noexcept {
      return {current.load(std::memory_order_relaxed), peak.load(std::memory_order_relaxed),
              total.load(std::memory_order_relaxed)};
    }
  };
  atomic_counter bytes_;
  atomic_counter allocations_;
};

}  // namespace detail

/**
 * @brief Counts bytes and allocations going through it to `Upstream`.
 *
 * Each allocation and deallocation costs a few relaxed atomic operations and no lock (RMM's
 * statistics adaptor takes a lock per allocation). A report is a snapshot: under concurrent use its
 * fields may come from slightly different instants. Failed allocations are not counted, nor the null
 * pointer an empty request may give (which no one frees).
 *
 * Copies share one set of counters and the upstream (a copy costs an atomic increment; see
 * `detail::adaptor_handle`): what is allocated through any copy is seen in every copy's report, and
 * copies compare equal. Copies may be used from any threads at once. That is how RMM and libcudf can hold it (`rmm::device_async_resource_ref
 * ref{stats};` copies it into CCCL 3.1+'s type-erased form) while the owner still reads the counts.
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); allocations it
 *         fails are not counted
 */
template <memory_resource Upstream>
class statistics : public detail::adaptor_handle<detail::statistics_state<Upstream>, statistics<Upstream>> {
  using base = detail::adaptor_handle<detail::statistics_state<Upstream>, statistics<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  statistics(statistics const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  statistics& operator=(statistics const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// @brief Counts allocations from a default-constructed upstream. @throws std::bad_alloc
  statistics() : base(std::in_place) {}
  /// @brief Counts allocations from `upstream`, moved in. @throws std::bad_alloc
  /// @param upstream the resource forwarded to
  explicit statistics(Upstream upstream) : base(std::in_place, std::in_place, std::move(upstream)) {}
  /// @brief Constructs the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  explicit statistics(std::in_place_t, Args&&... args) : base(std::in_place, std::in_place, std::forward<Args>(args)...) {}

  /// @brief Allocates from upstream and counts. Throws what the upstream throws.
  /// @param bytes the size in bytes
  /// @param alignment a power of two
  /// @param stream the stream the allocation is ordered on
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }
  /// @brief Frees through upstream and counts. Never throws.
  /// @param ptr memory from allocate() of this adaptor or a copy of it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, alignment, stream);
  }

  /// @brief The counters now, shared by every copy.
  [[nodiscard]] statistics_report report() const noexcept { return this->state().report(); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
