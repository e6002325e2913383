/**
 * @file resource_ref.hpp
 * @brief `mr::resource_ref`, `mr::shared_resource`, `mr::shared_instance` and `mr::resource_name`: how compile-time
 * resource choices are held and named.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <array>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>
#include <utility>
#if defined(__GNUG__)
#  include <cstdlib>
#  include <cxxabi.h>
#endif

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief A non-owning, copyable reference to a resource: one pointer, forwarding every call.
 *
 * The referenced resource must outlive the reference and everything allocated through it; use it
 * with `shared_instance<R>()`, which lives for the whole process (one per device).
 * @tparam R the referenced resource type; its properties and maximum alignment pass through
 */
template <memory_resource R>
class resource_ref : public detail::cccl_interop<resource_ref<R>> {
 public:
  /// The largest alignment honoured: the referenced resource's.
  static constexpr std::size_t max_alignment = max_alignment_v<R>;

  /// @brief Refers to `resource`. O(1); nothing is copied.
  /// @param resource the resource forwarded to; must outlive this reference and its allocations
  explicit resource_ref(R& resource) noexcept : resource_(&resource) {}
  /// @brief Allocates from the referenced resource; costs what its allocate() costs.
  /// @param bytes the size in bytes
  /// @param alignment a power of two no larger than `max_alignment`
  /// @param stream the stream the allocation is ordered on
  /// @returns the referenced resource's pointer
  /// @throws what the referenced resource throws (`devcol::out_of_memory`, `devcol::logic_error`)
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return resource_->allocate(bytes, alignment, stream);
  }
  /// @brief Frees through the referenced resource. Never throws.
  /// @param ptr memory allocated through this reference or one equal to it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    resource_->deallocate(ptr, bytes, alignment, stream);
  }
  /// @brief The referenced resource.
  [[nodiscard]] R& get() const noexcept { return *resource_; }
  /// @brief Equal when the referenced resources are (either may free the other's memory).
  /// @param a one reference
  /// @param b the other
  friend bool operator==(resource_ref const& a, resource_ref const& b) noexcept { return *a.resource_ == *b.resource_; }
  /// @brief A reference has the referenced resource's properties.
  /// @tparam P a property tag that `R` declares
  template <class P>
    requires forwardable_property<R, P>
  friend constexpr void get_property(resource_ref const&, P) noexcept {}

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // class's own allocate and deallocate would otherwise hide.
  using detail::cccl_interop<resource_ref<R>>::allocate, detail::cccl_interop<resource_ref<R>>::deallocate;

 private:
  R* resource_;
};

/**
 * @brief A copyable, shared-ownership handle to one `R` built in place: a typed, compile-time
 * `resource_handle` (no virtual call, properties known statically).
 *
 * Hands any resource to code that copies resources: CCCL 3.1 and later type-erase resources, even
 * behind `cuda::mr::resource_ref` (RMM's `device_async_resource_ref`), as copyable objects.
 * devcol's own adaptors are such shared handles already; this serves a resource type of one's own
 * that keeps state and cannot copy. Copies share the one `R` (copying costs an atomic increment),
 * which lives until the last copy is gone; two handles are equal when they share it. (CCCL's own
 * `cuda::mr::shared_resource` does the same from 3.1 on.)
 * @tparam R any devcol memory resource; its properties and maximum alignment pass through
 */
template <memory_resource R>
class shared_resource : public detail::cccl_interop<shared_resource<R>> {
 public:
  /// The largest alignment honoured: the shared resource's.
  static constexpr std::size_t max_alignment = max_alignment_v<R>;

  /// @brief Builds the shared `R` from `args` (one allocation of the shared state).
  /// @param args forwarded to `R`'s constructor
  /// @throws std::bad_alloc, or what `R`'s constructor throws
  template <class... Args>
  explicit shared_resource(std::in_place_t, Args&&... args) : resource_(std::make_shared<R>(std::forward<Args>(args)...)) {}
  /// @brief Builds a default-constructed `R`.
  /// @throws std::bad_alloc, or what `R`'s constructor throws
  shared_resource()
    requires std::default_initializable<R>
      : shared_resource(std::in_place) {}

  /// @brief Allocates from the shared resource; costs what its allocate() costs.
  /// @param bytes the size in bytes
  /// @param alignment a power of two no larger than `max_alignment`
  /// @param stream the stream the allocation is ordered on
  /// @throws what the shared resource throws (`devcol::out_of_memory`, `devcol::logic_error`)
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return resource_->allocate(bytes, alignment, stream);
  }
  /// @brief Frees through the shared resource. Never throws.
  /// @param ptr memory allocated through this handle or one equal to it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    resource_->deallocate(ptr, bytes, alignment, stream);
  }
  /// @brief The shared resource.
  [[nodiscard]] R& get() const noexcept { return *resource_; }
  /// @brief Equal when both share one resource, or the resources compare equal.
  /// @param a one handle
  /// @param b the other
  friend bool operator==(shared_resource const& a, shared_resource const& b) noexcept {
    return a.resource_ == b.resource_ || *a.resource_ == *b.resource_;
  }
  /// @brief A handle has the shared resource's properties.
  /// @tparam P a property tag that `R` declares
  template <class P>
    requires forwardable_property<R, P>
  friend constexpr void get_property(shared_resource const&, P) noexcept {}

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // class's own allocate and deallocate would otherwise hide.
  using detail::cccl_interop<shared_resource<R>>::allocate, detail::cccl_interop<shared_resource<R>>::deallocate;

 private:
  std::shared_ptr<R> resource_;
};

/**
 * @brief The process-wide instance of `R` for `device` that policies naming `R` allocate from
 * while `device` is current: one per device, as RMM keeps one resource per device, since a pool
 * caches the memory of the device it grew on and a limit counts one device's (rule 21). Made on
 * first use with `device` current (thread-safe), never destroyed, so memory freed during static
 * destruction still finds it. Devices past the 64th share the last one.
 * @tparam R a default-constructible resource type
 * @param device the device whose instance it is
 * @throws what `R`'s constructor throws, on first use only (a later call tries again);
 *         devcol::cuda_error if `device` cannot be made current then
 */
template <memory_resource R>
[[nodiscard]] R& shared_instance(device_id device) {
  static std::array<std::atomic<R*>, ::devcol::detail::device_slots> instances{};  // constant-initialised: no guard, no destructor
  static std::mutex making;
  auto& slot = instances[::devcol::detail::device_slot(device)];
  if (R* const made = slot.load(std::memory_order_acquire)) { return *made; }
  std::lock_guard const lock(making);
  if (R* const made = slot.load(std::memory_order_relaxed)) { return *made; }
  scoped_device const on_device(device);
  R* const made = new R();  // deliberately leaked: see above
  slot.store(made, std::memory_order_release);
  return *made;
}
/**
 * @brief The current device's shared_instance(device_id) of `R`.
 * @tparam R a default-constructible resource type
 * @throws as shared_instance(device_id); devcol::cuda_error if the current device cannot be read
 */
template <memory_resource R>
[[nodiscard]] R& shared_instance() {
  return shared_instance<R>(current_device());
}

/**
 * @brief A readable name for a resource type: `devcol::mr::statistics<devcol::mr::pool<...>>`.
 * Costs a demangling and a string; meant for messages and diagnostics.
 * @tparam R any type; named as the compiler's type information spells it, with devcol's backend
 *         inline namespace removed
 * @throws std::bad_alloc if the string cannot be made
 */
template <class R>
[[nodiscard]] std::string resource_name() {
  std::string name = typeid(R).name();
#if defined(__GNUG__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled{abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free};
  if (status == 0 && demangled) { name = demangled.get(); }
#endif
  // The backend's inline namespace says nothing a reader needs.
  for (std::string const abi : {"::cuda_v0", "::host_v0", "::host_thrust_v0"}) {
    for (auto at = name.find(abi); at != std::string::npos; at = name.find(abi)) { name.erase(at, abi.size()); }
  }
  return name;
}

/// @brief The name of the resource `r` stands for: a handle's own name, a reference's target type.
/// @tparam R `mr::resource_handle`, a reference type with `get()`, or a resource type
/// @param r the resource, handle or reference named
/// @throws std::bad_alloc if the string cannot be made
template <class R>
[[nodiscard]] std::string resource_name(R const& r) {
  if constexpr (std::is_same_v<R, resource_handle>) {
    return r.name();
  } else if constexpr (requires { r.get(); }) {
    return resource_name<std::remove_cvref_t<decltype(r.get())>>();
  } else {
    return resource_name<R>();
  }
}

}  // namespace mr
DEVCOL_NAMESPACE_END
