/**
 * @file cuda_device.hpp
 * @brief `devcol::mr::cuda_device`: device memory from `cudaMalloc`. CUDA backend only: declares nothing on the host backend.
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
 * @brief Device memory from `cudaMalloc`.
 *
 * Synchronous: `cudaMalloc` may and `cudaFree` does synchronise the device, so the stream is
 * ignored. The counterpart of RMM's `cuda_memory_resource`.
 * Honours alignments up to 256 bytes; stateless, all instances compare equal.
 */
class cuda_device : public detail::cuda_leaf<cuda_device> {
 public:
  friend constexpr void get_property(cuda_device const&, device_accessible) noexcept {}

 private:
  friend class detail::cuda_leaf<cuda_device>;
  static constexpr char const* name = "cudaMalloc";
  static cudaError_t cuda_allocate(void** ptr, std::size_t bytes, cudaStream_t) { return cudaMalloc(ptr, bytes); }
  static cudaError_t cuda_free(void* ptr, cudaStream_t) { return cudaFree(ptr); }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
