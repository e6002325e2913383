/**
 * @file owner.hpp
 * @brief The allocation owner every buffer handle refers to.
 */
#pragma once

#include <devcol/buffer/spill_state.hpp>
#include <devcol/buffer/options.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/allocation.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/host_aligned.hpp>
#include <devcol/memory/pinned_host.hpp>
#include <devcol/memory/resource_handle.hpp>
#include <devcol/memory/resource_ref.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What an owner keeps of the policy's resource: the thread's default handle, a stateless
/// resource by value (no bytes), or a reference to the process-wide instance.
template <class R>
using resource_storage_t =
    std::conditional_t<std::is_same_v<R, mr::resource_handle>, mr::resource_handle,
                       std::conditional_t<std::is_empty_v<R> && std::copyable<R>, R, mr::resource_ref<R>>>;

template <class R>
resource_storage_t<R> policy_resource() {
  if constexpr (std::is_same_v<R, mr::resource_handle>) {
    return mr::get_default();
  } else if constexpr (std::is_same_v<resource_storage_t<R>, R>) {
    return R{};
  } else {
    return mr::resource_ref<R>{mr::shared_instance<R>()};
  }
}

/// The count of live handles: atomic or plain, as the policy says. Starts at 1.
template <bool Atomic>
class refcount_cell {
 public:
  void retain() noexcept { count_.fetch_add(1, std::memory_order_relaxed); }
  /// True when the caller dropped the last reference (everything others did happens before).
  bool release() noexcept { return count_.fetch_sub(1, std::memory_order_acq_rel) == 1; }
  [[nodiscard]] std::size_t count() const noexcept { return count_.load(std::memory_order_acquire); }

 private:
  std::atomic<std::size_t> count_{1};
};
template <>
class refcount_cell<false> {
 public:
  void retain() noexcept { ++count_; }
  bool release() noexcept { return --count_ == 0; }
  [[nodiscard]] std::size_t count() const noexcept { return count_; }

 private:
  std::size_t count_ = 1;
};

/// The sticky exposure flag, or nothing when exposure is untracked.
template <bool Tracked>
class exposure_cell {
 public:
  void mark() noexcept { exposed_.store(true, std::memory_order_release); }
  [[nodiscard]] bool exposed() const noexcept { return exposed_.load(std::memory_order_acquire); }

 private:
  std::atomic<bool> exposed_{false};
};
template <>
class exposure_cell<false> {
 public:
  void mark() noexcept {}
  [[nodiscard]] static constexpr bool exposed() noexcept { return false; }
};

/// The sharing mode that a runtime_sharing owner made on this thread now must keep instead of the
/// option in force (-1: none, 0: shared views, 1: copy-on-write); see keep_sharing_mode.
inline thread_local signed char kept_sharing_mode = -1;

/**
 * @brief While it lives, `runtime_sharing` memory made on this thread takes the mode `copy_on_write`
 * rather than `options::copy_on_write()`: what a write that copies, and a deep copy of exposed
 * memory, hold so that the memory they give an existing column keeps that column's mode (DESIGN.md
 * rule 9: copies, slices and what a write gives them keep the mode of the column they came from;
 * only memory made from nothing takes the option in force). Nothing for the fixed policies.
 */
template <class Policy>
class [[nodiscard]] keep_sharing_mode {
 public:
  explicit keep_sharing_mode(bool copy_on_write) noexcept {
    if constexpr (!Policy::sharing::fixed) {
      previous_ = std::exchange(kept_sharing_mode, static_cast<signed char>(copy_on_write ? 1 : 0));
    }
  }
  keep_sharing_mode(keep_sharing_mode const&) = delete;
  keep_sharing_mode& operator=(keep_sharing_mode const&) = delete;
  ~keep_sharing_mode() {
    if constexpr (!Policy::sharing::fixed) { kept_sharing_mode = previous_; }
  }

 private:
  signed char previous_ = -1;
};

/// The sharing mode: a constant for the fixed policies, captured at creation for runtime_sharing.
template <class Sharing>
class sharing_cell {
 public:
  [[nodiscard]] static constexpr bool copy_on_write() noexcept { return Sharing::value; }
};
template <>
class sharing_cell<runtime_sharing> {
 public:
  [[nodiscard]] bool copy_on_write() const noexcept { return copy_on_write_; }

 private:
  bool copy_on_write_ = kept_sharing_mode >= 0 ? kept_sharing_mode == 1 : options::copy_on_write();
};

/// Where spilled bytes go: pinned host memory on CUDA (full-speed copies), aligned host memory on
/// the host backend (a separate allocation from the "device" one).
#if DEVCOL_BACKEND_CUDA
using spill_host_resource = mr::pinned_host;
#else
using spill_host_resource = mr::host_aligned;
#endif

/// The base of a no_spill owner: nothing.
struct no_spill_node {};

/// Tags the owner of memory devcol did not allocate (an Arrow or DLPack import).
struct borrowed_memory_t {
  explicit borrowed_memory_t() = default;
};

/**
 * @brief One allocation and what its handles share: the resource that made it, the count of live
 * handles, the exposure flag and the sharing mode. Handles create and release it; nothing else does.
 *
 * A borrowed owner holds memory made elsewhere instead: `keep_alive` keeps it valid (its last
 * copy going is what hands the memory back), and the resource only serves later copies. Borrowed
 * memory is read-only to devcol: every write first copies (see buffer::data(access::write)).
 *
 * Its device (rule 21) is the one current when it was made, recorded by its allocation: the free,
 * spill, unspill and host-side copy make it current (`scoped_device`), whichever thread runs them
 * and whatever device that thread has made current; the buffer's copies do the same.
 */
template <buffer_policy Policy>
class owner : public std::conditional_t<Policy::spill::enabled, spill_node, no_spill_node> {
 public:
  using resource_type = resource_storage_t<typename Policy::resource>;
  /// Whether the policy spills: then the owner is a registered spill_node (see spill_state.hpp).
  static constexpr bool spillable = Policy::spill::enabled;
  static_assert(!spillable || Policy::refcount::atomic,
                "devcol::spillable requires devcol::atomic_refcount: the spill manager takes references from its own thread");

  owner(std::size_t bytes, std::size_t alignment, stream_ref stream, resource_type resource)
      : memory_(bytes, alignment, stream, std::move(resource)) {
    if constexpr (spillable) { track(); }
  }
  owner(borrowed_memory_t, void const* data, std::size_t bytes, stream_ref stream, resource_type resource,
        std::shared_ptr<void const> keep_alive)
      : memory_(std::move(resource), stream),
        borrowed_(std::make_unique<borrowed const>(
            borrowed{static_cast<std::byte*>(const_cast<void*>(data)), bytes, std::move(keep_alive)})) {}
  owner(owner const&) = delete;
  owner& operator=(owner const&) = delete;

  [[nodiscard]] std::byte* data() const noexcept {
    return borrowed_ == nullptr ? static_cast<std::byte*>(const_cast<void*>(memory_.data())) : borrowed_->data;
  }
  [[nodiscard]] std::size_t size() const noexcept {
    if constexpr (spillable) {
      return borrowed_ == nullptr ? this->bytes_ : borrowed_->size;
    } else {
      return borrowed_ == nullptr ? memory_.size() : borrowed_->size;
    }
  }
  [[nodiscard]] std::size_t alignment() const noexcept {
    if constexpr (spillable) {
      // Borrowed memory is never tracked, so alignment_ stays unset: the copies a write or a deep
      // copy makes of it take what memory_ holds for them, as for a policy that does not spill.
      return borrowed_ == nullptr ? this->alignment_ : memory_.alignment();
    } else {
      return memory_.alignment();
    }
  }
  [[nodiscard]] stream_ref stream() const noexcept { return memory_.stream(); }
  /// The device current when the owner was made (0 on the host backend).
  [[nodiscard]] device_id device() const noexcept { return memory_.device(); }
  [[nodiscard]] std::string resource_name() const { return mr::resource_name(memory_.resource()); }
  [[nodiscard]] resource_type const& resource() const noexcept { return memory_.resource(); }
  /// Whether the memory was made elsewhere (and so is never written in place).
  [[nodiscard]] bool is_borrowed() const noexcept { return borrowed_ != nullptr; }

  void retain() noexcept { refs_.retain(); }
  /// Drops one reference; the last one frees the memory through its resource (or lets go of the
  /// borrowed memory), exactly once.
  static void release(owner* o) noexcept {
    if (o->refs_.release()) {
      if constexpr (spillable) {
        unpin(o);  // the handles' pin; spill locks may still hold the owner a while
      } else {
        delete o;
      }
    }
  }
  [[nodiscard]] std::size_t use_count() const noexcept { return refs_.count(); }

  void mark_exposed() noexcept { exposure_.mark(); }
  [[nodiscard]] bool is_exposed() const noexcept { return exposure_.exposed(); }
  [[nodiscard]] bool copy_on_write() const noexcept { return sharing_.copy_on_write(); }

  // --- spilling (spillable owners only) ---------------------------------------------------------

  /**
   * The device bytes for a pointer access: unspills first (rule 16). Under a spill_lock it raises
   * the lock count once per outermost lock and pins the owner until that lock ends; outside every
   * lock it pins the owner on the device for good, since the caller may keep the pointer anywhere
   * (rule 20, cuDF's `get_ptr`). With `expose`, it also marks the owner exposed (rule 14). Both are
   * written under the owner's mutex, so no spill can slip in between. Already held by this
   * thread's lock, or pinned for good, it takes no mutex: a few relaxed or acquire loads.
   */
  std::byte* device_access(bool expose = false, source_location const* where = nullptr)
    requires spillable
  {
    if (borrowed_ != nullptr || this->bytes_ == 0) {
      if (expose) { mark_exposed(); }
      return data();
    }
    mark_used();
    bool const locked = spill_lock_frame::active();
    if (!expose) {
      if (locked ? spill_lock_frame::current().holds(this) : this->pinned_for_good.load(std::memory_order_acquire)) {
        return data();
      }
    }
    auto& registry = spill_registry::global();
    bool unspilled = false;
    bool first_exposure = false;  // decided under the mutex: two threads exposing one owner count it once
    {
      std::unique_lock guard(this->mutex);
      unspilled = bring_to_device(guard);
      if (locked) {
        hold_in_lock();
      } else {
        this->pinned_for_good.store(true, std::memory_order_release);
      }
      if (expose) {
        first_exposure = !is_exposed();
        mark_exposed();
      }
    }
    if (unspilled) { registry.after_allocation(device()); }  // this owner is held or pinned now: not spilled
    if (first_exposure && where != nullptr && registry.stats_level() >= 2) {
      registry.record_exposure(*where, this->bytes_);
    }
    return data();
  }

  /**
   * Moves the bytes to host memory and frees the device memory, if the owner is on the device,
   * tracked, not exposed and not spill-locked (rules 14, 15). The copy is queued on `stream` after
   * the owner's stream's work, and synchronised before the device memory is freed, all with the
   * owner's device current (the spill manager may call this from any thread).
   * @returns the device bytes freed (0 when it did not spill)
   * @throws what the host allocation or the copy throws (the owner stays on the device), and
   *         devcol::cuda_error if its device cannot be made current
   */
  std::size_t spill(stream_ref stream)
    requires spillable
  {
    scoped_device const on_device(device());
    std::unique_lock guard(this->mutex);
    if (borrowed_ != nullptr || this->bytes_ == 0 || is_exposed() ||
        this->pinned_for_good.load(std::memory_order_acquire) ||
        this->location.load(std::memory_order_acquire) != spill_location::device ||
        this->lock_count.load(std::memory_order_acquire) != 0) {
      return 0;
    }
    this->location.store(spill_location::moving, std::memory_order_release);
    guard.unlock();  // no lock across an allocation (rule 18)
    auto& registry = spill_registry::global();
    bool const counting = registry.stats_level() > 0;
    spill_timer const timer(counting);
    void* copy = nullptr;
    try {
      copy = spill_host_resource{}.allocate(this->bytes_, this->alignment_);
      order_after_own_stream(stream);
      copy_bytes(copy, memory_.data(), this->bytes_, stream);
      stream.synchronize();
    } catch (...) {
      if (copy != nullptr) { spill_host_resource{}.deallocate(copy, this->bytes_, this->alignment_); }
      std::lock_guard const relock(this->mutex);
      settle(spill_location::device);
      throw;
    }
    void* device = nullptr;
    {
      std::lock_guard const relock(this->mutex);
      device = memory_.release();
      this->host = static_cast<std::byte*>(copy);
      settle(spill_location::host);
    }
    {  // freed with no lock held, through a copy of the resource (nothing writes memory_'s)
      resource_type resource = memory_.resource();
      resource.deallocate(device, this->bytes_, this->alignment_, memory_.stream());
    }
    registry.sub_device_bytes(this->bytes_, this->device());
    if (counting) {
      auto& c = registry.counters();
      c.spilled_bytes.fetch_add(this->bytes_, std::memory_order_relaxed);
      c.spill_count.fetch_add(1, std::memory_order_relaxed);
      c.spill_ns.fetch_add(timer.elapsed_ns(), std::memory_order_relaxed);
    }
    return this->bytes_;
  }

  /// Brings spilled bytes back to the device (allocating from the owner's resource); nothing if
  /// they are there. @throws what the allocation throws (the owner stays spilled)
  void unspill()
    requires spillable
  {
    if (borrowed_ != nullptr || this->bytes_ == 0) { return; }
    bool unspilled = false;
    {
      std::unique_lock guard(this->mutex);
      unspilled = bring_to_device(guard);
    }
    if (unspilled) { spill_registry::global().after_allocation(device()); }
  }

  /**
   * A new owner holding a host-side copy of bytes [begin, begin + size) of this one, spilled, if
   * this one is spilled now (cuDF: a write to a shallow copy of a spilled buffer copies on the host
   * and leaves the original spilled); null otherwise. Allocates host memory only, with no lock held.
   * @throws what the host allocation throws
   */
  [[nodiscard]] owner* spilled_copy(std::size_t begin, std::size_t size)
    requires spillable
  {
    if (borrowed_ != nullptr || this->bytes_ == 0 || size == 0) { return nullptr; }
    std::unique_lock guard(this->mutex);
    if (this->location.load(std::memory_order_acquire) != spill_location::host) { return nullptr; }
    this->location.store(spill_location::moving, std::memory_order_release);  // the host copy stays put
    guard.unlock();
    void* copy = nullptr;
    try {
      copy = spill_host_resource{}.allocate(size, this->alignment_);
    } catch (...) {
      guard.lock();
      settle(spill_location::host);
      throw;
    }
    std::memcpy(copy, this->host + begin, size);
    guard.lock();
    settle(spill_location::host);
    guard.unlock();
    try {
      scoped_device const on_device(device());  // the copy's owner records this owner's device
      return new owner(spilled_copy_t{}, static_cast<std::byte*>(copy), size, this->alignment_, stream(), resource());
    } catch (...) {
      spill_host_resource{}.deallocate(copy, size, this->alignment_);
      throw;
    }
  }

  /// Whether the bytes are in host memory now.
  [[nodiscard]] bool is_spilled() const noexcept
    requires spillable
  {
    return this->location.load(std::memory_order_acquire) == spill_location::host;
  }

 private:
  ~owner() {
    if constexpr (spillable) {
      if (this->registered) {
        bool const on_device = this->location.load(std::memory_order_acquire) == spill_location::device;
        spill_registry::global().remove(this, on_device ? this->bytes_ : 0);
      }
      if (this->host != nullptr) { spill_host_resource{}.deallocate(this->host, this->bytes_, this->alignment_); }
    }
  }

  // Drops a pin; the last one destroys the owner.
  static void unpin(owner* o) noexcept {
    if (o->pins.fetch_sub(1, std::memory_order_acq_rel) == 1) { delete o; }
  }

  // Registers a new spillable owner (size 0 ones are not tracked). Made under a spill lock (an
  // operation's result, a copy a write makes), it is held by that lock from birth: its lock count
  // is raised before the registry can hand it to another thread's on-demand spilling, so neither
  // that nor the soft limit's spilling right after this allocation can move it before its first use.
  void track() {
    this->bytes_ = memory_.size();
    this->alignment_ = memory_.alignment();
    if (this->bytes_ == 0) { return; }
    if (!spill_lock_frame::active()) {
      enlist(this->bytes_);
      return;
    }
    auto& frame = spill_lock_frame::current();
    frame.reserve_one();
    this->lock_count.store(1, std::memory_order_relaxed);  // published by the registry's mutex
    this->pins.fetch_add(1, std::memory_order_relaxed);
    enlist(this->bytes_);  // should it throw, the constructor fails and nothing refers to this owner
    frame.record(this);
  }

  // Records this owner in the thread's outermost spill lock unless it holds it already: raises its
  // lock count and pins it until that lock ends. Throws only before anything changed.
  void hold_in_lock() {
    auto& frame = spill_lock_frame::current();
    if (frame.holds(this)) { return; }
    frame.reserve_one();
    this->lock_count.fetch_add(1, std::memory_order_acq_rel);
    this->pins.fetch_add(1, std::memory_order_relaxed);  // a live handle holds one already
    frame.record(this);
  }

  // Least recently used first: an access to an owner that was not the last one used stamps it with
  // a new epoch, so that reads order owners as allocations do; repeated use of one owner writes
  // nothing (no store to a shared line on a hot loop).
  void mark_used() noexcept {
    if (this->last_use.load(std::memory_order_relaxed) != spill_registry::epoch()) {
      this->last_use.store(spill_registry::advance(), std::memory_order_relaxed);
    }
  }
  void enlist(std::size_t device_bytes) {
    static constexpr spill_node_ops node_ops{
        [](spill_node* n) noexcept {
          // Only owners with a handle left are worth spilling; the pin keeps this one alive.
          if (static_cast<owner*>(n)->refs_.count() == 0) { return false; }
          std::size_t p = n->pins.load(std::memory_order_relaxed);
          while (p != 0) {
            if (n->pins.compare_exchange_weak(p, p + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
              return true;
            }
          }
          return false;
        },
        [](spill_node* n) noexcept { unpin(static_cast<owner*>(n)); },
        [](spill_node* n) { return static_cast<owner*>(n)->spill(static_cast<owner*>(n)->stream()); },
        [](spill_node const* n) noexcept { return static_cast<owner const*>(n)->stream(); },
        [](spill_node const* n) noexcept { return static_cast<owner const*>(n)->device(); }};
    this->ops = &node_ops;
    auto& registry = spill_registry::global();
    this->last_use.store(registry.advance(), std::memory_order_relaxed);
    registry.add(this, device_bytes);
  }

  struct spilled_copy_t {};
  // A spilled owner holding `copy`, host memory of `bytes` from spill_host_resource (adopted).
  owner(spilled_copy_t, std::byte* copy, std::size_t bytes, std::size_t alignment, stream_ref stream,
        resource_type resource)
      : memory_(std::move(resource), stream) {
    this->bytes_ = bytes;
    this->alignment_ = alignment;
    this->host = copy;
    this->location.store(spill_location::host, std::memory_order_release);
    enlist(0);
  }

  // On CUDA, orders `stream` after the work queued on the owner's stream.
  void order_after_own_stream([[maybe_unused]] stream_ref stream) const {
#if DEVCOL_BACKEND_CUDA
    if (stream != memory_.stream()) {
      event done;
      done.record(memory_.stream());
      done.wait(stream);
    }
#endif
  }

  // Ends a move (with the mutex held): the owner is at `where` now, and threads waiting out the move
  // in bring_to_device() wake.
  void settle(spill_location where) noexcept {
    this->location.store(where, std::memory_order_release);
    this->location.notify_all();
  }

  // With `guard` held on entry and exit: waits out another thread's move, and unspills if spilled,
  // allocating with no lock held (the owner marked moving, so on-demand spilling skips it: rule 18).
  // Returns whether it unspilled.
  bool bring_to_device(std::unique_lock<std::mutex>& guard) {
    while (true) {
      auto const where = this->location.load(std::memory_order_acquire);
      if (where == spill_location::device) { return false; }
      if (where == spill_location::moving) {  // sleeps until the mover's settle(), not spinning
        guard.unlock();
        this->location.wait(spill_location::moving, std::memory_order_acquire);
        guard.lock();
        continue;
      }
      break;
    }
    // The allocation and copy run on the owner's device; the new memory records it. Made current
    // before the owner is marked moving: should that fail, the owner stays spilled, untouched.
    scoped_device const on_device(device());
    this->location.store(spill_location::moving, std::memory_order_release);
    guard.unlock();
    auto& registry = spill_registry::global();
    bool const counting = registry.stats_level() > 0;
    spill_timer const timer(counting);
    stream_ref const stream = memory_.stream();
    try {
      // Allocated through a copy of the resource and adopted: nothing writes memory_'s resource,
      // which other handles may be reading (to copy) meanwhile.
      mr::basic_allocation<resource_type> fresh(this->bytes_, this->alignment_, stream, memory_.resource());
      copy_bytes(fresh.data(), this->host, this->bytes_, stream);
      stream.synchronize();  // the host copy is freed next
      guard.lock();
      memory_.adopt(fresh.release(), this->bytes_, this->alignment_);
    } catch (...) {
      if (!guard.owns_lock()) { guard.lock(); }
      settle(spill_location::host);
      throw;
    }
    spill_host_resource{}.deallocate(this->host, this->bytes_, this->alignment_);
    this->host = nullptr;
    settle(spill_location::device);
    registry.add_device_bytes(this->bytes_, device());
    this->last_use.store(registry.advance(), std::memory_order_relaxed);
    if (counting) {
      auto& c = registry.counters();
      c.unspilled_bytes.fetch_add(this->bytes_, std::memory_order_relaxed);
      c.unspill_count.fetch_add(1, std::memory_order_relaxed);
      c.unspill_ns.fetch_add(timer.elapsed_ns(), std::memory_order_relaxed);
    }
    return true;
  }

  // Memory made elsewhere, and what keeps it valid: one pointer, null for memory_ of our own.
  struct borrowed {
    std::byte* data;
    std::size_t size;
    std::shared_ptr<void const> keep_alive;
  };

  mr::basic_allocation<resource_type> memory_;
  std::unique_ptr<borrowed const> borrowed_;
  [[no_unique_address]] refcount_cell<Policy::refcount::atomic> refs_;
  [[no_unique_address]] exposure_cell<Policy::exposure::tracked> exposure_;
  [[no_unique_address]] sharing_cell<typename Policy::sharing> sharing_;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
