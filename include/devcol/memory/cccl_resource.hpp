/**
 * @file cccl_resource.hpp
 * @brief `devcol::mr::cccl_resource<R>`: any CCCL `cuda::mr` resource (an RMM resource, a
 * `cuda::mr::resource_ref`, RMM's `device_async_resource_ref`) as a devcol leaf or upstream.
 *
 * The other direction needs nothing: every devcol resource and adaptor is a CCCL resource itself
 * (see `detail::cccl_interop`), so `rmm::device_async_resource_ref ref{my_pool};` compiles.
 * Available where CCCL's memory resources are (`DEVCOL_HAS_CCCL_MR`).
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <new>
#include <utility>

#if DEVCOL_HAS_CCCL_MR
DEVCOL_NAMESPACE_BEGIN
namespace mr {
namespace detail {

/// CCCL 3.1 and later (RMM 26.10 is on 3.5): `allocate(stream, bytes, alignment)`.
template <class R>
concept cccl_stream_first = requires(R& r, void* p, std::size_t n, ::cuda::stream_ref s) {
  { r.allocate(s, n, n) } -> std::same_as<void*>;
  r.deallocate(s, p, n, n);
};
/// CCCL 3.0: `allocate_async(bytes, alignment, stream)`.
template <class R>
concept cccl_async_named = requires(R& r, void* p, std::size_t n, ::cuda::stream_ref s) {
  { r.allocate_async(n, n, s) } -> std::same_as<void*>;
  r.deallocate_async(p, n, n, s);
};
/// CCCL 3.1 and later, synchronous only: `allocate_sync(bytes, alignment)`.
template <class R>
concept cccl_sync_named = requires(R& r, void* p, std::size_t n) {
  { r.allocate_sync(n, n) } -> std::same_as<void*>;
  r.deallocate_sync(p, n, n);
};
/// CCCL 3.0, synchronous only: `allocate(bytes, alignment)`.
template <class R>
concept cccl_sync_plain = requires(R& r, void* p, std::size_t n) {
  { r.allocate(n, n) } -> std::same_as<void*>;
  r.deallocate(p, n, n);
};

}  // namespace detail

/**
 * @brief Satisfied by a resource of any CCCL release devcol supports (3.0 through 3.6), stream
 * ordered or synchronous, and comparable: what `cccl_resource` wraps.
 * @tparam R the resource type tested, e.g. `rmm::mr::cuda_async_memory_resource` or
 *         `rmm::device_async_resource_ref`
 */
template <class R>
concept cccl_memory_resource =
    std::equality_comparable<R> && (detail::cccl_stream_first<R> || detail::cccl_async_named<R> ||
                                    detail::cccl_sync_named<R> || detail::cccl_sync_plain<R>);

/**
 * @brief A CCCL memory resource (held by value) as a devcol memory resource.
 *
 * Each call forwards to the CCCL resource's stream-ordered entry point when it has one (CCCL 3.1+:
 * `allocate(stream, bytes, alignment)`; 3.0: `allocate_async`), else to its synchronous one
 * (`allocate_sync`; 3.0: `allocate(bytes, alignment)`), so it costs what the wrapped resource
 * costs. Its accessibility properties pass through, and it is a CCCL resource again itself.
 *
 * Hold RMM's resources by value (in RMM 26 they are shared handles: copies use one pool) or
 * through `rmm::device_async_resource_ref` (the resource must then outlive every allocation).
 * A resource that can neither copy nor move is built in place (`std::in_place`, or
 * `make_resource_handle<cccl_resource<R>>(name, std::in_place, args...)`).
 *
 * Errors: `std::bad_alloc` from the wrapped resource (RMM's `rmm::out_of_memory` and
 * `rmm::bad_alloc` derive from it) becomes `devcol::out_of_memory`, so devcol's on-demand spilling
 * (`mr::on_oom`) sees it; other exceptions pass through unchanged. A deallocate that throws
 * terminates the program (devcol frees in destructors).
 *
 * On the host backend the CCCL resource gets the default CUDA stream (devcol's host streams are
 * ordered no-ops); it is the caller's business that its memory is what the host backend can touch.
 * @tparam R a `cccl_memory_resource`
 */
template <cccl_memory_resource R>
class cccl_resource : public detail::cccl_interop<cccl_resource<R>> {
 public:
  // CCCL's entry points, which the overloads below would otherwise hide.
  using detail::cccl_interop<cccl_resource<R>>::allocate;
  using detail::cccl_interop<cccl_resource<R>>::deallocate;
  /// The wrapped CCCL resource's type.
  using upstream_type = R;
  /// The largest alignment devcol asks of it: 256 bytes, what CUDA's allocators and RMM guarantee
  /// (wrap in `mr::aligned` for more).
  static constexpr std::size_t max_alignment = 256;

  /// @brief Default-constructs the wrapped resource.
  cccl_resource()
    requires std::default_initializable<R>
  = default;
  /// @brief Wraps `resource` (moved in). O(1) for RMM's shared resources and for resource refs.
  /// @param resource the CCCL resource every call goes to
  explicit cccl_resource(R resource) noexcept(std::is_nothrow_move_constructible_v<R>)
      : resource_(std::move(resource)) {}
  /// @brief Constructs the wrapped resource in place from `args`.
  /// @param args forwarded to `R`'s constructor
  template <class... Args>
  explicit cccl_resource(std::in_place_t, Args&&... args) : resource_(std::forward<Args>(args)...) {}

  /**
   * @brief Allocates `bytes` from the CCCL resource, ordered on `stream` when it is stream-ordered.
   * @param bytes the size in bytes
   * @param alignment a power of two no larger than max_alignment
   * @param stream the stream the allocation is ordered on
   * @throws devcol::out_of_memory when the CCCL resource throws `std::bad_alloc`
   * @throws devcol::logic_error for an alignment that is not a power of two or exceeds max_alignment
   * @throws what else the CCCL resource throws (e.g. `rmm::cuda_error`)
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    detail::validate_alignment(alignment, max_alignment, "cccl_resource");
    try {
      if constexpr (detail::cccl_stream_first<R>) {
        return resource_.allocate(to_cccl(stream), bytes, alignment);
      } else if constexpr (detail::cccl_async_named<R>) {
        return resource_.allocate_async(bytes, alignment, to_cccl(stream));
      } else if constexpr (detail::cccl_sync_named<R>) {
        return resource_.allocate_sync(bytes, alignment);
      } else {
        return resource_.allocate(bytes, alignment);
      }
    } catch (::devcol::error const&) {
      throw;  // a devcol resource behind a CCCL reference: already devcol's
    } catch (std::bad_alloc const& e) {
      DEVCOL_OUT_OF_MEMORY(bytes, "cccl_resource: the CCCL resource could not allocate ", bytes, " bytes: ", e.what());
    }
  }

  /// @brief Frees through the CCCL resource, in order on `stream` when it is stream-ordered.
  /// @param ptr memory from allocate() of this resource or one equal to it
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream the stream the free is ordered on
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    if constexpr (detail::cccl_stream_first<R>) {
      resource_.deallocate(to_cccl(stream), ptr, bytes, alignment);
    } else if constexpr (detail::cccl_async_named<R>) {
      resource_.deallocate_async(ptr, bytes, alignment, to_cccl(stream));
    } else if constexpr (detail::cccl_sync_named<R>) {
      resource_.deallocate_sync(ptr, bytes, alignment);
    } else {
      resource_.deallocate(ptr, bytes, alignment);
    }
  }

  /// @brief The wrapped CCCL resource.
  [[nodiscard]] R& upstream() noexcept { return resource_; }
  /// @brief The wrapped CCCL resource.
  [[nodiscard]] R const& upstream() const noexcept { return resource_; }

  /// @brief Every property the CCCL resource has (`device_accessible`, `host_accessible`: devcol's
  /// tags are CCCL's).
  template <class P>
    requires forwardable_property<R, P>
  friend constexpr void get_property(cccl_resource const&, P) noexcept {}

  /// @brief Equal when the wrapped resources compare equal (either can free the other's memory).
  friend bool operator==(cccl_resource const& a, cccl_resource const& b) noexcept(noexcept(a.resource_ == b.resource_)) {
    return a.resource_ == b.resource_;
  }

 private:
  static ::cuda::stream_ref to_cccl([[maybe_unused]] stream_ref stream) noexcept {
#  if DEVCOL_BACKEND_CUDA
    return ::cuda::stream_ref{stream.value()};
#  else
    return ::cuda::stream_ref{::cudaStream_t{}};
#  endif
  }

  R resource_;
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
