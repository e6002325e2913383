/**
 * @file cuda_async.hpp
 * @brief `devcol::mr::cuda_async`: stream-ordered device memory from `cudaMallocAsync` (the current device's default pool). CUDA backend only: declares nothing on the host backend.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/memory/detail/cuda_leaf.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>

#if DEVCOL_BACKEND_CUDA
DEVCOL_NAMESPACE_BEGIN
namespace mr {

/**
 * @brief Stream-ordered device memory from `cudaMallocAsync` (the current device's default pool).
 *
 * Stream-ordered, no host synchronisation: the memory is usable by work queued on the allocating
 * stream after the call, and is reused only once the work queued on the deallocating stream
 * before the free has run. The default device resource of the CUDA backend (RMM's
 * `cuda_async_memory_resource`). Called without a stream (CCCL's synchronous `cuda::mr::resource`
 * contract), allocate and deallocate synchronise the default stream before they return.
 * Honours alignments up to 256 bytes; stateless, all instances compare equal.
 */
class cuda_async : public detail::cuda_leaf<cuda_async> {
 public:
  /// Stream-ordered: its calls without a stream synchronise the default stream (see cuda_leaf).
  static constexpr bool stream_ordered = true;

  friend constexpr void get_property(cuda_async const&, device_accessible) noexcept {}

 private:
  friend class detail::cuda_leaf<cuda_async>;
  static constexpr char const* name = "cudaMallocAsync";
  static cudaError_t cuda_allocate(void** ptr, std::size_t bytes, cudaStream_t s) { return cudaMallocAsync(ptr, bytes, s); }
  static cudaError_t cuda_free(void* ptr, cudaStream_t s) { return cudaFreeAsync(ptr, s); }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
