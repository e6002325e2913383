/**
 * @file pinned_host.hpp
 * @brief `devcol::mr::pinned_host`: page-locked host memory from `cudaMallocHost`, readable by host and device. CUDA backend only: declares nothing on the host backend.
 */
#pragma once

#include <devcol/core/config.hpp>

#if DEVCOL_BACKEND_CUDA
// Only the CUDA backend has pinned memory: on the host backend the buffer layer, which includes
// this header for its spill target, parses nothing of it.
#  include <devcol/core/stream_ref.hpp>
#  include <devcol/memory/aligned.hpp>
#  include <devcol/memory/detail/cuda_leaf.hpp>
#  include <devcol/memory/resource.hpp>

#  include <cstddef>

DEVCOL_NAMESPACE_BEGIN
namespace mr {
namespace detail {

/// `cudaMallocHost` itself (alignments up to 256 bytes), under pinned_host.
class pinned_pages : public cuda_leaf<pinned_pages> {
 public:
  friend constexpr void get_property(pinned_pages const&, host_accessible) noexcept {}
  friend constexpr void get_property(pinned_pages const&, device_accessible) noexcept {}

 private:
  friend class cuda_leaf<pinned_pages>;
  static constexpr char const* name = "cudaMallocHost";
  static cudaError_t cuda_allocate(void** ptr, std::size_t bytes, cudaStream_t) { return cudaMallocHost(ptr, bytes); }
  static cudaError_t cuda_free(void* ptr, cudaStream_t) { return cudaFreeHost(ptr); }
};

}  // namespace detail

/**
 * @brief Page-locked host memory from `cudaMallocHost`, readable by host and device.
 *
 * Synchronous (`cudaFreeHost` synchronises the device); the stream is ignored. The spill target
 * of choice: copies to and from it run at full interconnect speed.
 *
 * Honours every power-of-two alignment up to `max_alignment` (2 MiB), as the device resources'
 * owners may ask for when they spill: up to 256 bytes (what CUDA guarantees) at no cost, beyond
 * that by over-allocating through `mr::aligned`, whose table of padded blocks is one for the
 * process (under a mutex), so that any instance frees any other's memory: stateless, all
 * instances compare equal.
 */
class pinned_host : public detail::cccl_interop<pinned_host> {
  using over_aligned_type = aligned<detail::pinned_pages>;

 public:
  /// The largest alignment honoured (that of mr::aligned).
  static constexpr std::size_t max_alignment = over_aligned_type::max_alignment;
  /// allocate(bytes, alignment) is synchronous: CCCL's allocate_sync calls it as it is.
  static constexpr bool synchronous_allocate = true;

  /**
   * @brief Allocates `bytes` of pinned memory aligned to `alignment` (null for 0 bytes at an
   * alignment up to 256). Synchronous: `stream` is ignored.
   * @param bytes the size in bytes
   * @param alignment a power of two up to max_alignment
   * @param stream ignored: `cudaMallocHost` is synchronous
   * @throws devcol::out_of_memory when CUDA reports `cudaErrorMemoryAllocation`
   * @throws devcol::cuda_error on any other CUDA failure
   * @throws devcol::logic_error when `alignment` is not a power of two or exceeds max_alignment
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) {
    return blocks().allocate(bytes, alignment, stream);
  }

  /// @brief Frees memory from allocate() with the same size and alignment. Never throws.
  /// @param ptr memory from allocate() of a pinned_host
  /// @param bytes the size it was allocated with
  /// @param alignment the alignment it was allocated with
  /// @param stream ignored: `cudaFreeHost` synchronises the device
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment, stream_ref stream = {}) noexcept {
    blocks().deallocate(ptr, bytes, alignment, stream);
  }

  friend constexpr void get_property(pinned_host const&, host_accessible) noexcept {}
  friend constexpr void get_property(pinned_host const&, device_accessible) noexcept {}
  /// @brief Stateless: any instance frees any other's memory.
  friend constexpr bool operator==(pinned_host const&, pinned_host const&) noexcept { return true; }

  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which this
  // class's own allocate and deallocate would otherwise hide.
  using detail::cccl_interop<pinned_host>::allocate, detail::cccl_interop<pinned_host>::deallocate;

 private:
  // Never destroyed: pinned memory may be freed during static destruction (a spilled column that
  // outlives main's locals), after a function-local static would be gone.
  static over_aligned_type& blocks() {
    static over_aligned_type* const instance = new over_aligned_type(1);
    return *instance;
  }
};

}  // namespace mr
DEVCOL_NAMESPACE_END
#endif
