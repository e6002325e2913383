/**
 * @file owner.hpp
 * @brief The allocation owner every buffer handle refers to.
 */
#pragma once

#include <devcol/buffer/options.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/allocation.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource_handle.hpp>
#include <devcol/memory/resource_ref.hpp>

#include <atomic>
#include <concepts>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

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
  bool copy_on_write_ = options::copy_on_write();
};

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
 */
template <buffer_policy Policy>
class owner {
 public:
  using resource_type = resource_storage_t<typename Policy::resource>;

  owner(std::size_t bytes, std::size_t alignment, stream_ref stream, resource_type resource)
      : memory_(bytes, alignment, stream, std::move(resource)) {}
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
  [[nodiscard]] std::size_t size() const noexcept { return borrowed_ == nullptr ? memory_.size() : borrowed_->size; }
  [[nodiscard]] std::size_t alignment() const noexcept { return memory_.alignment(); }
  [[nodiscard]] stream_ref stream() const noexcept { return memory_.stream(); }
  [[nodiscard]] std::string resource_name() const { return mr::resource_name(memory_.resource()); }
  [[nodiscard]] resource_type const& resource() const noexcept { return memory_.resource(); }
  /// Whether the memory was made elsewhere (and so is never written in place).
  [[nodiscard]] bool is_borrowed() const noexcept { return borrowed_ != nullptr; }

  void retain() noexcept { refs_.retain(); }
  /// Drops one reference; the last one frees the memory through its resource (or lets go of the
  /// borrowed memory), exactly once.
  static void release(owner* o) noexcept {
    if (o->refs_.release()) { delete o; }
  }
  [[nodiscard]] std::size_t use_count() const noexcept { return refs_.count(); }

  void mark_exposed() noexcept { exposure_.mark(); }
  [[nodiscard]] bool is_exposed() const noexcept { return exposure_.exposed(); }
  [[nodiscard]] bool copy_on_write() const noexcept { return sharing_.copy_on_write(); }

 private:
  ~owner() = default;

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
