/**
 * @file resource_handle.hpp
 * @brief `devcol::mr::resource_handle`: a type-erased, named, versioned, shared memory resource
 * (NumPy NEP 49's `PyDataMem_Handler`).
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <concepts>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace mr {
namespace detail {

struct handle_access;

struct erased_resource {
  erased_resource(std::string n, unsigned v, bool host, bool device)
      : name(std::move(n)), version(v), host_accessible(host), device_accessible(device) {}
  erased_resource(erased_resource const&) = delete;
  erased_resource& operator=(erased_resource const&) = delete;
  virtual ~erased_resource() = default;
  virtual void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) = 0;
  virtual void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept = 0;
  [[nodiscard]] virtual bool equals(erased_resource const& other) const noexcept = 0;

  std::string const name;
  unsigned const version;
  bool const host_accessible;
  bool const device_accessible;
};

template <memory_resource R>
struct erased_model final : erased_resource {
  template <class... Args>
  erased_model(std::string n, unsigned v, Args&&... args)
      : erased_resource(std::move(n), v, has_property<R, mr::host_accessible>, has_property<R, mr::device_accessible>),
        resource(std::forward<Args>(args)...) {}
  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) override {
    return resource.allocate(bytes, alignment, stream);
  }
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment, stream_ref stream) noexcept override {
    resource.deallocate(ptr, bytes, alignment, stream);
  }
  [[nodiscard]] bool equals(erased_resource const& other) const noexcept override {
    auto const* same_type = dynamic_cast<erased_model const*>(&other);
    return same_type != nullptr && same_type->resource == resource;
  }
  R resource;
};

}  // namespace detail

/**
 * @brief A shared, type-erased memory resource with a name and a version: what the per-thread
 * default holds and what an allocation keeps to free itself.
 *
 * Copies share one resource (a reference count; copying costs an atomic increment), which lives
 * until the last copy and the last allocation made through it are gone, so memory always goes
 * back to the resource that made it. A handle is never empty: moving one copies it. Each call costs
 * one virtual call over the wrapped resource.
 */
class resource_handle : public detail::cccl_interop<resource_handle> {
 public:
  /// The version of this handle's interface (NEP 49's handler `version`): 1.
  static constexpr unsigned current_version = 1;

  /**
   * @brief Wraps `resource` (moved in) under `name`. Allocates the shared state once.
   * @tparam R a movable memory resource type other than a handle (an adaptor passed in still
   *         shares its state with the caller's copies; make_resource_handle() builds one in place)
   * @param name the name reported by name() and in messages
   * @param resource the resource wrapped; the handle's copies all use this one object
   * @param version the handler version reported by version(); NEP 49 handlers report 1
   * @throws std::bad_alloc if the shared state cannot be allocated
   */
  template <memory_resource R>
    requires(!std::same_as<std::remove_cvref_t<R>, resource_handle>)
  resource_handle(std::string name, R resource, unsigned version = current_version)
      : impl_(std::make_shared<detail::erased_model<R>>(std::move(name), version, std::move(resource))) {}

  resource_handle(resource_handle const&) = default;
  resource_handle& operator=(resource_handle const&) = default;

  /// @brief Allocates through the wrapped resource (one virtual call). Throws what it throws.
  /// @param bytes the size in bytes
  /// @param alignment a power of two the wrapped resource honours
  /// @param stream the stream the allocation is ordered on
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return impl_->allocate(bytes, alignment, stream);
  }
  /// @brief Frees through the wrapped resource. Never throws.
  /// @param ptr memory from allocate() of this handle or one equal to it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    impl_->deallocate(ptr, bytes, alignment, stream);
  }

  /// @brief The name given at creation (NumPy's `get_handler_name`).
  [[nodiscard]] std::string const& name() const noexcept { return impl_->name; }
  /// @brief The version given at creation (NumPy's `get_handler_version`).
  [[nodiscard]] unsigned version() const noexcept { return impl_->version; }
  /// @brief Whether host code may touch this resource's memory.
  [[nodiscard]] bool is_host_accessible() const noexcept { return impl_->host_accessible; }
  /// @brief Whether kernels may touch this resource's memory.
  [[nodiscard]] bool is_device_accessible() const noexcept { return impl_->device_accessible; }

  /// @brief The wrapped resource if it is an `R`, else null (as `std::function::target`). Costs a
  /// `dynamic_cast`.
  /// @tparam R the exact type asked for (no base classes or conversions)
  template <class R>
  [[nodiscard]] R* target() const noexcept {
    auto* model = dynamic_cast<detail::erased_model<R>*>(impl_.get());
    return model != nullptr ? &model->resource : nullptr;
  }

  /// @brief Equal when both share one resource or wrap resources of one type that compare equal.
  /// @param a one handle
  /// @param b the other
  friend bool operator==(resource_handle const& a, resource_handle const& b) noexcept {
    return a.impl_ == b.impl_ || a.impl_->equals(*b.impl_);
  }

  template <class R, class... Args>
  friend resource_handle make_resource_handle(std::string name, Args&&... args);
  friend struct detail::handle_access;

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // class's own allocate and deallocate would otherwise hide.
  using detail::cccl_interop<resource_handle>::allocate, detail::cccl_interop<resource_handle>::deallocate;

 private:
  explicit resource_handle(std::shared_ptr<detail::erased_resource> impl) noexcept : impl_(std::move(impl)) {}
  std::shared_ptr<detail::erased_resource> impl_;
};

namespace detail {

/// Watches a handle's shared resource without keeping it alive, and makes a handle of it again
/// while it lives: what a cache of someone else's handle needs (the per-thread cache of the
/// device default), so that it never keeps a replaced resource, a pool and its chunks, alive.
struct handle_access {
  using watched = std::weak_ptr<erased_resource>;
  [[nodiscard]] static watched watch(resource_handle const& handle) noexcept { return handle.impl_; }
  [[nodiscard]] static std::shared_ptr<erased_resource> lock(watched const& w) noexcept { return w.lock(); }
  [[nodiscard]] static resource_handle adopt(std::shared_ptr<erased_resource> impl) noexcept {
    return resource_handle{std::move(impl)};
  }
};

}  // namespace detail

/**
 * @brief Constructs an `R` in place from `args` inside a new handle named `name` (for resources
 * that cannot be moved, such as adaptors).
 * @tparam R a memory resource type, built in place
 * @tparam Args the types of `R`'s constructor arguments
 * @param name the name reported by the handle's name()
 * @param args forwarded to `R`'s constructor
 * @throws std::bad_alloc, or what `R`'s constructor throws
 */
template <class R, class... Args>
[[nodiscard]] resource_handle make_resource_handle(std::string name, Args&&... args) {
  static_assert(memory_resource<R>, "make_resource_handle: R must satisfy devcol::mr::memory_resource");
  return resource_handle{std::make_shared<detail::erased_model<R>>(std::move(name), resource_handle::current_version,
                                                                   std::forward<Args>(args)...)};
}

}  // namespace mr
DEVCOL_NAMESPACE_END
