/**
 * @file managed.hpp
 * @brief `devcol::mr::managed`: unified memory from `cudaMallocManaged`, migrated between host and device on demand. CUDA backend only: declares nothing on the host backend.
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
 * @brief Unified memory from `cudaMallocManaged`, migrated between host and device on demand.
 *
 * Synchronous (`cudaFree` synchronises the device); the stream is ignored.
 * Honours alignments up to 256 bytes; stateless, all instances compare equal.
 */
class managed : public detail::cuda_leaf<managed> {
 public:
  friend constexpr void get_property(managed const&, host_accessible) noexcept {}
  friend constexpr void get_property(managed const&, device_accessible) noexcept {}

 private:
  friend class detail::cuda_leaf<managed>;
  static constexpr char const* name = "cudaMallocManaged";
  static cudaError_t cuda_allocate(void** ptr, std::size_t bytes, cudaStream_t) { return cudaMallocManaged(ptr, bytes); }
  static cudaError_t cuda_free(void* ptr, cudaStream_t) { return cudaFree(ptr); }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
