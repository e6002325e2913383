/**
 * @file resource.hpp
 * @brief The `devcol::mr::memory_resource` concept, accessibility properties and alignment rules.
 *
 * A memory resource hands out raw bytes (NEP 49's allocator, RMM's `device_memory_resource`):
 * @code
 * void* p = r.allocate(bytes, alignment, stream);
 * r.deallocate(p, bytes, alignment, stream);   // the same size and alignment come back
 * @endcode
 * Allocation may throw `devcol::out_of_memory`; deallocation never throws. Accessibility is a
 * compile-time property found by `get_property(resource, property)`, CCCL's mechanism; where CCCL's
 * `cuda::mr` is available the property tags *are* CCCL's, so devcol resources satisfy
 * `cuda::mr::resource_with<R, cuda::mr::device_accessible>` and plug into CCCL and RMM code.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>

#if DEVCOL_HAS_CCCL_MR
#  include <cuda/memory_resource>
#endif

DEVCOL_NAMESPACE_BEGIN
namespace mr {

/// The alignment asked for when the caller names none: 64 bytes, what Arrow requires of buffers.
inline constexpr std::size_t default_alignment = 64;

#if DEVCOL_HAS_CCCL_MR
/// Property: memory from this resource can be read and written by host code.
using host_accessible = ::cuda::mr::host_accessible;
/// Property: memory from this resource can be read and written by device code (kernels).
using device_accessible = ::cuda::mr::device_accessible;
#else
/// Property: memory from this resource can be read and written by host code.
struct host_accessible {};
/// Property: memory from this resource can be read and written by device code (kernels).
struct device_accessible {};
#endif

/**
 * @brief Satisfied by a type that allocates and frees bytes on a stream.
 *
 * `allocate(bytes, alignment, stream)` returns `void*` (and may throw `devcol::out_of_memory` or,
 * for an alignment it cannot honour, `devcol::logic_error`); `deallocate(ptr, bytes, alignment,
 * stream)` is `noexcept` and receives the size and alignment of the allocation; two resources
 * compare equal when either can free the other's memory.
 * @tparam R the resource type tested; devcol takes resources by value or through a reference
 *         wrapper, so `R` is usually a cheap handle onto shared state
 */
template <class R>
concept memory_resource = std::equality_comparable<R> &&
                          requires(R& r, void* p, std::size_t bytes, std::size_t alignment, stream_ref s) {
                            { r.allocate(bytes, alignment, s) } -> std::same_as<void*>;
                            { r.deallocate(p, bytes, alignment, s) } noexcept -> std::same_as<void>;
                          };

/// @brief Satisfied when `R` declares the stateless property `P` (a `get_property(R const&, P)` overload).
/// @tparam R the resource type tested
/// @tparam P the property tag, e.g. `host_accessible` or `device_accessible`; default-constructible
template <class R, class P>
concept has_property = requires(R const& r) { get_property(r, P{}); };

/**
 * @brief Satisfied when `R` declares the stateless property `P`: what wrappers and adaptors
 * forward. Properties with a value (a `P::value_type`, such as CCCL 3.5+'s
 * `cuda::mr::dynamic_accessibility_property`, which CCCL derives from the stateless ones itself)
 * are not forwarded: a forwarding overload returning nothing would make CCCL's lookup ambiguous.
 * @tparam R the resource type tested
 * @tparam P the property tag
 */
template <class R, class P>
concept forwardable_property = has_property<R, P> && !requires { typename P::value_type; };

/// @brief A memory resource whose memory host code may touch (dereferencing it needs no copy).
/// @tparam R the resource type tested
template <class R>
concept host_accessible_resource = memory_resource<R> && has_property<R, host_accessible>;

/// @brief A memory resource whose memory kernels may touch.
/// @tparam R the resource type tested
template <class R>
concept device_accessible_resource = memory_resource<R> && has_property<R, device_accessible>;

/// @brief Whether `alignment` is usable: a non-zero power of two. O(1).
/// @param alignment the alignment in bytes
[[nodiscard]] constexpr bool is_valid_alignment(std::size_t alignment) noexcept {
  return std::has_single_bit(alignment);
}

/// @brief `value` rounded up to a multiple of `alignment` (a power of two). Does not check overflow.
/// @param value the size or address to round, in bytes
/// @param alignment the alignment in bytes; a power of two, else the result is meaningless
[[nodiscard]] constexpr std::size_t align_up(std::size_t value, std::size_t alignment) noexcept {
  return (value + alignment - 1) & ~(alignment - 1);
}

/// @brief Whether `ptr` is a multiple of `alignment` (a power of two). Never dereferences `ptr`.
/// @param ptr the address tested (host or device)
/// @param alignment the alignment in bytes; a power of two
[[nodiscard]] inline bool is_aligned(void const* ptr, std::size_t alignment) noexcept {
  return (reinterpret_cast<std::uintptr_t>(ptr) & (alignment - 1)) == 0;
}

/**
 * @brief The largest alignment `R` honours: `R::max_alignment` when it says, else the default one.
 *
 * Leaf resources state theirs (`cudaMalloc` guarantees 256 bytes); adaptors forward their upstream's.
 * @tparam R a memory resource type; a larger request makes allocate() throw `devcol::logic_error`
 */
template <class R>
inline constexpr std::size_t max_alignment_v = [] {
  if constexpr (requires { R::max_alignment; }) {
    return std::size_t{R::max_alignment};
  } else {
    return default_alignment;
  }
}();

namespace detail {

/// Throws `devcol::logic_error` naming `alignment` unless it is a power of two no larger than `max`.
inline void validate_alignment(std::size_t alignment, std::size_t max, char const* resource_name) {
  DEVCOL_EXPECTS(is_valid_alignment(alignment), resource_name, ": alignment ", alignment,
                 " is not a power of two");
  DEVCOL_EXPECTS(alignment <= max, resource_name, ": alignment ", alignment, " exceeds the ", max,
                 " bytes this resource guarantees (use mr::aligned to over-align)");
}

/**
 * @brief Gives a resource the entry points of CCCL's `cuda::mr` concepts, forwarding to its own
 * `allocate` / `deallocate`, so that a devcol resource *is* a CCCL resource for every CCCL release
 * devcol supports (3.0 through 3.6):
 * - CCCL 3.0 (`cuda::mr::resource`, `cuda::mr::async_resource`): the synchronous
 *   `allocate(bytes, alignment)` the resource has itself, and `allocate_async(bytes, alignment,
 *   stream)` / `deallocate_async(...)` from here;
 * - CCCL 3.1 and later (`cuda::mr::synchronous_resource`, `cuda::mr::resource`, what RMM's
 *   `device_async_resource_ref` holds): `allocate_sync(bytes, alignment)` / `deallocate_sync(...)`
 *   and the stream-first `allocate(stream, bytes, alignment)` / `deallocate(stream, ptr, bytes,
 *   alignment)` from here.
 *
 * A resource that declares its own `allocate` / `deallocate` hides these overloads, so it names
 * them back (`using detail::cccl_interop<R>::allocate;`, and the same for `deallocate`). Where
 * CCCL's memory resources are unavailable the stream-first overloads are deleted placeholders,
 * so those using-declarations always compile.
 *
 * The synchronous calls use the resource's own defaults: the default stream (RMM's
 * `allocate_sync` does the same); the CUDA leaf resources synchronise it.
 */
template <class Derived>
class cccl_interop {
#if DEVCOL_HAS_CCCL_MR
 public:
  /// @brief `allocate(bytes, alignment, stream)` with the stream first, as CCCL 3.1+'s `cuda::mr::resource`.
  /// @throws what the resource's own allocate throws
  void* allocate(::cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
    return self().allocate(bytes, alignment, to_stream_ref(stream));
  }
  /// @brief `deallocate(ptr, bytes, alignment, stream)` with the stream first (CCCL 3.1+). Never throws.
  void deallocate(::cuda::stream_ref stream, void* ptr, std::size_t bytes, std::size_t alignment) noexcept {
    self().deallocate(ptr, bytes, alignment, to_stream_ref(stream));
  }
  /// @brief Synchronous allocate, as CCCL 3.1+'s `cuda::mr::synchronous_resource`: memory every
  /// stream may use on return. A leaf resource's own two-argument allocate is that already
  /// (`synchronous_allocate`); any other's (an adaptor's, a handle's, a reference's) is ordered on
  /// the default stream (a stream-ordered upstream allocates there, a pool may make it wait for a
  /// block's free), so the default stream is synchronised before it returns.
  /// @throws what the allocate throws; devcol::cuda_error if the synchronisation fails (the
  /// memory is given back first)
  void* allocate_sync(std::size_t bytes, std::size_t alignment = default_alignment) {
    void* ptr = self().allocate(bytes, alignment);
    if constexpr (!requires { requires Derived::synchronous_allocate; }) {
      try {
        stream_ref{}.synchronize();  // a no-op on the host backend
      } catch (...) {
        self().deallocate(ptr, bytes, alignment);
        throw;
      }
    }
    return ptr;
  }
  /// @brief Synchronous deallocate (CCCL 3.1+): the resource's own three-argument deallocate. Never throws.
  void deallocate_sync(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment) noexcept {
    self().deallocate(ptr, bytes, alignment);
  }
  /// @brief `allocate` on a CCCL stream reference (CCCL 3.0's `cuda::mr::async_resource`).
  /// @throws what the resource's own allocate throws
  void* allocate_async(std::size_t bytes, std::size_t alignment, ::cuda::stream_ref stream) {
    return self().allocate(bytes, alignment, to_stream_ref(stream));
  }
  /// @brief `deallocate` on a CCCL stream reference (CCCL 3.0). Never throws.
  void deallocate_async(void* ptr, std::size_t bytes, std::size_t alignment, ::cuda::stream_ref stream) noexcept {
    self().deallocate(ptr, bytes, alignment, to_stream_ref(stream));
  }

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  static stream_ref to_stream_ref([[maybe_unused]] ::cuda::stream_ref stream) noexcept {
#  if DEVCOL_BACKEND_CUDA
    return stream_ref{stream};
#  else
    return stream_ref{};  // the host backend's streams are ordered no-ops
#  endif
  }
#else
  struct unavailable {};

 public:
  // Placeholders for the using-declarations of the resources: nothing can call them.
  void allocate(unavailable) = delete;
  void deallocate(unavailable) = delete;
#endif
};

}  // namespace detail
}  // namespace mr
DEVCOL_NAMESPACE_END
