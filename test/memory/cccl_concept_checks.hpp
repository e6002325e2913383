// devcol's resources and adaptors against CCCL's `cuda::mr` concepts, for the CCCL release this
// translation unit is compiled with: 3.0 (the CUDA 13 toolkit's) names them `resource` (synchronous)
// and `async_resource`; 3.1 and later (RMM 26's CCCL 3.5, the cuda-cccl wheel's 3.6) name them
// `synchronous_resource` and `resource`, with stream-first calls. Included by the host suite
// (test_resources.cpp) and compiled alone against each CCCL by CTest (label `cccl`).
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/memory/aligned.hpp>
#include <devcol/memory/cccl_resource.hpp>
#include <devcol/memory/host_aligned.hpp>
#include <devcol/memory/limiting.hpp>
#include <devcol/memory/logging.hpp>
#include <devcol/memory/on_oom.hpp>
#include <devcol/memory/pool.hpp>
#include <devcol/memory/resource_handle.hpp>
#include <devcol/memory/resource_ref.hpp>
#include <devcol/memory/statistics.hpp>
#include <devcol/memory/tracking.hpp>
#if DEVCOL_BACKEND_CUDA
#  include <devcol/memory/cuda_async.hpp>
#  include <devcol/memory/cuda_device.hpp>
#  include <devcol/memory/managed.hpp>
#  include <devcol/memory/pinned_host.hpp>
#endif

#include <concepts>
#include <type_traits>

#if DEVCOL_HAS_CCCL_MR
#  include <cuda/memory_resource>
#  include <cuda/version>

namespace devcol_test::cccl_concepts {
namespace dmr = devcol::mr;
using dmr::host_aligned;

#  if CCCL_VERSION >= 3000000 && CCCL_VERSION < 3001000
/// CCCL 3.0: `resource` is synchronous, `async_resource` takes the stream last.
inline constexpr int cccl_api = 30;
template <class R, class... P>
inline constexpr bool stream_ordered_with = cuda::mr::async_resource_with<R, P...>;
template <class R, class... P>
inline constexpr bool synchronous_with = cuda::mr::resource_with<R, P...>;
template <class... P>
using stream_ordered_ref = cuda::mr::async_resource_ref<P...>;
#  elif CCCL_VERSION >= 3001000 && CCCL_VERSION < 3007000
/// CCCL 3.1 to 3.6: `synchronous_resource`, and `resource` with the stream first.
inline constexpr int cccl_api = 31;
template <class R, class... P>
inline constexpr bool stream_ordered_with = cuda::mr::resource_with<R, P...>;
template <class R, class... P>
inline constexpr bool synchronous_with = cuda::mr::synchronous_resource_with<R, P...>;
template <class... P>
using stream_ordered_ref = cuda::mr::resource_ref<P...>;
#  else
#    error "devcol's concept checks know CCCL 3.0 through 3.6"
#  endif

// Every leaf and every adaptor, and the type-erased handle, both ways of calling.
static_assert(stream_ordered_with<host_aligned, dmr::host_accessible> && synchronous_with<host_aligned, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::aligned<host_aligned>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::limiting<host_aligned>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::logging<host_aligned>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::on_oom<host_aligned>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::pool<host_aligned>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::statistics<dmr::tracking<host_aligned>>, dmr::host_accessible>);
static_assert(synchronous_with<dmr::statistics<dmr::pool<host_aligned>>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::resource_ref<dmr::pool<host_aligned>>, dmr::host_accessible>);
static_assert(stream_ordered_with<dmr::resource_handle> && synchronous_with<dmr::resource_handle>);
static_assert(stream_ordered_with<dmr::shared_resource<dmr::pool<host_aligned>>, dmr::host_accessible>);
// From CCCL 3.1 on a resource_ref (RMM's device_async_resource_ref) takes only a resource it could
// copy: its interface is the owning any_resource's, and a type that is not cuda::std::copyable is a
// hard error (a static_assert in CCCL's copy and move functions), not a failed constraint. So every
// leaf and adaptor is copyable, the adaptors as shared handles.
static_assert(std::copyable<host_aligned> && std::copyable<dmr::pool<host_aligned>>);
static_assert(std::copyable<dmr::statistics<dmr::tracking<host_aligned>>> && std::copyable<dmr::limiting<host_aligned>>);
static_assert(std::copyable<dmr::logging<host_aligned>> && std::copyable<dmr::on_oom<host_aligned>>);
static_assert(std::copyable<dmr::aligned<host_aligned>> && std::copyable<dmr::resource_handle>);
// The host backend's "device" memory is device-accessible: a composition fits a device ref, the
// type of RMM's device_async_resource_ref, directly (the issue's `ref{pool}`), by devcol reference
// or through a shared handle.
#  if DEVCOL_BACKEND_HOST
using host_stack = dmr::statistics<dmr::pool<host_aligned>>;
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::resource_ref<host_stack>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::shared_resource<host_stack>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(host_stack& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::pool<host_aligned>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::limiting<dmr::on_oom<dmr::aligned<host_aligned>>>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::logging<dmr::tracking<host_aligned>>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
#  endif
#  if DEVCOL_BACKEND_CUDA
static_assert(stream_ordered_with<dmr::cuda_async, dmr::device_accessible>);
static_assert(stream_ordered_with<dmr::cuda_device, dmr::device_accessible>);
static_assert(stream_ordered_with<dmr::managed, dmr::device_accessible, dmr::host_accessible>);
static_assert(synchronous_with<dmr::pinned_host, dmr::host_accessible, dmr::device_accessible>);
static_assert(stream_ordered_with<dmr::pool<dmr::cuda_async>, dmr::device_accessible>);
using device_stack = dmr::statistics<dmr::pool<dmr::cuda_async>>;
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::resource_ref<device_stack>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::shared_resource<device_stack>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(device_stack& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
inline stream_ordered_ref<dmr::device_accessible> device_ref_of(dmr::pool<dmr::cuda_async>& r) { return stream_ordered_ref<dmr::device_accessible>{r}; }
static_assert(stream_ordered_with<dmr::cccl_resource<stream_ordered_ref<dmr::device_accessible>>, dmr::device_accessible>);
#  endif

// And back: a CCCL reference is a devcol leaf, which is a CCCL resource again.
using wrapped_ref = dmr::cccl_resource<stream_ordered_ref<dmr::host_accessible>>;
static_assert(dmr::memory_resource<wrapped_ref> && dmr::host_accessible_resource<wrapped_ref>);
static_assert(!dmr::device_accessible_resource<wrapped_ref>);
static_assert(stream_ordered_with<dmr::pool<wrapped_ref>, dmr::host_accessible>);
static_assert(dmr::memory_resource<dmr::statistics<dmr::pool<wrapped_ref>>>);

}  // namespace devcol_test::cccl_concepts
#endif
