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
 * @brief Gives a resource the stream-ordered entry points of CCCL's `cuda::mr::async_resource`
 * (`allocate_async` / `deallocate_async` on a `cuda::stream_ref`), forwarding to its own
 * `allocate` / `deallocate`. Empty where CCCL's memory resources are unavailable.
 */
template <class Derived>
class cccl_interop {
#if DEVCOL_HAS_CCCL_MR
 public:
  /// @brief `allocate` on a CCCL stream reference (ignored by the host backend, whose streams are no-ops).
  void* allocate_async(std::size_t bytes, std::size_t alignment, ::cuda::stream_ref stream) {
    return self().allocate(bytes, alignment, to_stream_ref(stream));
  }
  /// @brief `deallocate` on a CCCL stream reference.
  void deallocate_async(void* ptr, std::size_t bytes, std::size_t alignment, ::cuda::stream_ref stream) noexcept {
    self().deallocate(ptr, bytes, alignment, to_stream_ref(stream));
  }

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  static stream_ref to_stream_ref([[maybe_unused]] ::cuda::stream_ref stream) noexcept {
#  if DEVCOL_BACKEND_CUDA
    return stream_ref{stream};
#  else
    return stream_ref{};
#  endif
  }
#endif
};

}  // namespace detail
}  // namespace mr
DEVCOL_NAMESPACE_END
