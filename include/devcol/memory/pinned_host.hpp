/**
 * @file pinned_host.hpp
 * @brief `devcol::mr::pinned_host`: page-locked host memory from `cudaMallocHost`, readable by host and device. CUDA backend only: declares nothing on the host backend.
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
 * @brief Page-locked host memory from `cudaMallocHost`, readable by host and device.
 *
 * Synchronous (`cudaFreeHost` synchronises the device); the stream is ignored. The spill target
 * of choice: copies to and from it run at full interconnect speed.
 * Honours alignments up to 256 bytes; stateless, all instances compare equal.
 */
class pinned_host : public detail::cuda_leaf<pinned_host> {
 public:
  friend constexpr void get_property(pinned_host const&, host_accessible) noexcept {}
  friend constexpr void get_property(pinned_host const&, device_accessible) noexcept {}

 private:
  friend class detail::cuda_leaf<pinned_host>;
  static constexpr char const* name = "cudaMallocHost";
  static cudaError_t cuda_allocate(void** ptr, std::size_t bytes, cudaStream_t) { return cudaMallocHost(ptr, bytes); }
  static cudaError_t cuda_free(void* ptr, cudaStream_t) { return cudaFreeHost(ptr); }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
