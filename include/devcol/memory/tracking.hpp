/**
 * @file tracking.hpp
 * @brief `devcol::mr::tracking`: remembers every outstanding allocation; reports leaks and misuse.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/detail/adaptor_base.hpp>
#include <devcol/memory/resource.hpp>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/// @brief One live allocation, as a tracking adaptor saw it made.
struct allocation_record {
  void* pointer;          ///< what allocate returned
  std::size_t bytes;      ///< the size asked for
  std::size_t alignment;  ///< the alignment asked for
  stream_ref stream;      ///< the stream it was made on
};

namespace detail {

/// The table of outstanding allocations, its counters and the upstream that a `mr::tracking` and
/// its copies share. The leak report is printed when the last copy goes.
template <memory_resource Upstream>
class tracking_state : public adaptor_state<Upstream> {
 public:
  using adaptor_state<Upstream>::adaptor_state;
  ~tracking_state() {
    if (report_leaks_.load(std::memory_order_relaxed) && outstanding_count() != 0) {
      try {
        std::fputs(report().c_str(), stderr);
      } catch (...) {  // no memory to format the report: say what can be said
        std::fputs("devcol::mr::tracking: allocations outstanding at destruction\n", stderr);
      }
    }
  }

  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    void* ptr = this->upstream().allocate(bytes, alignment, stream);
    if (ptr == nullptr) { return ptr; }  // some CUDA allocators give null for 0 bytes: nothing to free
    try {
      std::lock_guard lock(mutex_);
      live_.emplace(ptr, allocation_record{ptr, bytes, alignment, stream});
    } catch (...) {
      this->upstream().deallocate(ptr, bytes, alignment, stream);
      throw;
    }
    return ptr;
  }

  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept {
    if (ptr == nullptr) { return; }
    allocation_record record{};
    {
      std::lock_guard lock(mutex_);
      auto const found = live_.find(ptr);
      if (found == live_.end()) {
        ++unknown_;
        return;
      }
      record = found->second;
      live_.erase(found);
      if (record.bytes != bytes || record.alignment != alignment) { ++mismatched_; }
    }
    // Upstream gets the size and alignment it handed out, whatever the caller passed.
    this->upstream().deallocate(ptr, record.bytes, record.alignment, stream);
  }

  [[nodiscard]] std::vector<allocation_record> outstanding() const {
    std::vector<allocation_record> records;
    {
      std::lock_guard lock(mutex_);
      records.reserve(live_.size());
      for (auto const& entry : live_) { records.push_back(entry.second); }
    }
    return records;
  }
  [[nodiscard]] std::size_t outstanding_count() const {
    std::lock_guard lock(mutex_);
    return live_.size();
  }
  [[nodiscard]] std::size_t outstanding_bytes() const {
    std::lock_guard lock(mutex_);
    std::size_t total = 0;
    for (auto const& entry : live_) { total += entry.second.bytes; }
    return total;
  }
  [[nodiscard]] std::size_t mismatched_deallocations() const {
    std::lock_guard lock(mutex_);
    return mismatched_;
  }
  [[nodiscard]] std::size_t unknown_deallocations() const {
    std::lock_guard lock(mutex_);
    return unknown_;
  }
  [[nodiscard]] std::string report() const {
    auto const records = outstanding();
    if (records.empty()) { return {}; }
    std::ostringstream out;
    out << "devcol::mr::tracking: " << records.size() << " allocation(s) outstanding:\n";
    for (auto const& r : records) {
      out << "  " << r.pointer << ": " << r.bytes << " bytes, alignment " << r.alignment << '\n';
    }
    return out.str();
  }
  void report_leaks_on_destruction(bool enabled) noexcept { report_leaks_.store(enabled, std::memory_order_relaxed); }

 private:
  mutable std::mutex mutex_;
  // Ordered, as RMM's tracking adaptor keeps it: a report lists by address without a sort, and a
  // hash table's header alone cost every including file a tenth of a Thrust-only file's compile.
  std::map<void*, allocation_record> live_;
  std::size_t mismatched_ = 0;
  std::size_t unknown_ = 0;
  std::atomic<bool> report_leaks_{true};
};

}  // namespace detail

/**
 * @brief Keeps a table of outstanding allocations from `Upstream`: a debugging and testing aid.
 *
 * Checks each deallocation against its allocation: one with another size or alignment than its
 * allocate (the NEP 49 contract: the size comes back) counts as mismatched and is forwarded with the
 * recorded size and alignment; one of a pointer it never handed out counts as unknown and is not
 * forwarded. Either way the upstream is never handed a bad free. A mutex guards the table, so this costs a lock and a
 * hash-map update per call: use it in tests and debugging, not on hot paths. When the last copy is
 * destroyed it prints what is still outstanding to stderr (a leak report) unless told not to.
 *
 * Copies share the one table and its counters (a copy costs an atomic increment; see
 * `detail::adaptor_handle`): memory allocated through one copy may be freed through another, and
 * every copy reports the same allocations. Copies compare equal and may be used from any threads at
 * once (they take the one table's mutex).
 * @tparam Upstream the resource the adaptor forwards to, owned by value by the shared state (never a
 *         reference that could dangle; pass a copy of another adaptor to share it); it always gets
 *         back the size and alignment it handed out
 */
template <memory_resource Upstream>
class tracking : public detail::adaptor_handle<detail::tracking_state<Upstream>, tracking<Upstream>> {
  using base = detail::adaptor_handle<detail::tracking_state<Upstream>, tracking<Upstream>>;

 public:
  /// @brief Shares `other`'s state (an atomic increment); written out, not defaulted, for the reason
  /// `detail::adaptor_handle` gives.
  /// @param other the adaptor whose state is shared
  tracking(tracking const& other) noexcept : base(other) {}
  /// @brief Shares `other`'s state, leaving this one's; written out as the copy constructor is.
  /// @param other the adaptor whose state is shared
  tracking& operator=(tracking const& other) noexcept {
    base::operator=(other);
    return *this;
  }
  /// @brief Tracks allocations from a default-constructed upstream. @throws std::bad_alloc
  tracking() : base(std::in_place) {}
  /// @brief Tracks allocations from `upstream`, moved in. @throws std::bad_alloc
  /// @param upstream the resource forwarded to
  explicit tracking(Upstream upstream) : base(std::in_place, std::in_place, std::move(upstream)) {}
  /// @brief Constructs the upstream in place from `args`.
  /// @tparam Args the types of `Upstream`'s constructor arguments
  /// @param args forwarded to `Upstream`'s constructor
  /// @throws std::bad_alloc, or what `Upstream`'s constructor throws
  template <class... Args>
  explicit tracking(std::in_place_t, Args&&... args) : base(std::in_place, std::in_place, std::forward<Args>(args)...) {}

  /// @brief Allocates from upstream and records it under the table's mutex. Throws what the
  /// upstream throws, or std::bad_alloc if the record cannot be made (the memory is then freed).
  /// @param bytes the size in bytes
  /// @param alignment a power of two
  /// @param stream the stream the allocation is ordered on
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return this->state().allocate(bytes, alignment, stream);
  }

  /// @brief Checks the call against the record, forgets it and frees through upstream with the
  /// recorded size and alignment. Never throws.
  /// @param ptr memory from allocate() of this adaptor or a copy; anything else is counted and dropped
  /// @param bytes the size it was allocated with (a difference is counted)
  /// @param alignment the alignment it was allocated with (a difference is counted)
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    this->state().deallocate(ptr, bytes, alignment, stream);
  }

  /// @brief The outstanding allocations, by address. @throws std::bad_alloc
  [[nodiscard]] std::vector<allocation_record> outstanding() const { return this->state().outstanding(); }
  /// @brief How many allocations are outstanding.
  [[nodiscard]] std::size_t outstanding_count() const { return this->state().outstanding_count(); }
  /// @brief How many bytes (as requested) are outstanding.
  [[nodiscard]] std::size_t outstanding_bytes() const { return this->state().outstanding_bytes(); }
  /// @brief Deallocations whose size or alignment differed from their allocation's.
  [[nodiscard]] std::size_t mismatched_deallocations() const { return this->state().mismatched_deallocations(); }
  /// @brief Deallocations of pointers this adaptor never handed out (not forwarded upstream).
  [[nodiscard]] std::size_t unknown_deallocations() const { return this->state().unknown_deallocations(); }
  /// @brief A readable list of the outstanding allocations (empty when there are none). @throws std::bad_alloc
  [[nodiscard]] std::string report() const { return this->state().report(); }
  /// @brief Whether the last copy's destruction prints the leak report (default true), for every copy.
  /// @param enabled false to keep it silent
  void report_leaks_on_destruction(bool enabled) noexcept { this->state().report_leaks_on_destruction(enabled); }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // adaptor's own allocate and deallocate would otherwise hide.
  using base::allocate, base::deallocate;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
