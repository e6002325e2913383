/**
 * @file cuda_leaf.hpp
 * @brief What the CUDA leaf resources share: alignment validation, error mapping, equality.
 */
#pragma once

#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>

#if DEVCOL_BACKEND_CUDA
DEVCOL_NAMESPACE_BEGIN
namespace mr::detail {

/**
 * @brief A stateless resource over one CUDA allocate/free pair, which `Derived` supplies as
 * `static cudaError_t cuda_allocate(void**, std::size_t, cudaStream_t)`, `static cudaError_t
 * cuda_free(void*, cudaStream_t)` and `static constexpr char const* name`, and, when the pair is
 * stream-ordered (`cudaMallocAsync`), `static constexpr bool stream_ordered = true`.
 *
 * Two ways to call it, as CCCL's `cuda::mr` concepts have: on a stream (`allocate(bytes,
 * alignment, stream)`, devcol's and `cuda::mr::async_resource`'s), and synchronously, without a
 * stream (`allocate(bytes, alignment)`, `cuda::mr::resource`'s), whose memory every stream may use
 * as soon as it returns.
 */
template <class Derived>
class cuda_leaf : public cccl_interop<Derived> {
 public:
  // CCCL's entry points (stream-first and *_sync for CCCL 3.1+, *_async for 3.0), which the
  // overloads below would otherwise hide.
  using cccl_interop<Derived>::allocate;
  using cccl_interop<Derived>::deallocate;
  /// The alignment CUDA guarantees for its allocations; larger ones throw (use mr::aligned).
  static constexpr std::size_t max_alignment = 256;
  /// allocate(bytes, alignment) is synchronous: CCCL's allocate_sync calls it as it is.
  static constexpr bool synchronous_allocate = true;

  /**
   * @brief Allocates `bytes` aligned to `alignment` (null for 0 bytes, without calling CUDA).
   * @throws devcol::out_of_memory when CUDA reports `cudaErrorMemoryAllocation`
   * @throws devcol::cuda_error on any other CUDA failure
   * @throws devcol::logic_error when `alignment` is not a power of two or exceeds max_alignment
   */
  void* allocate(std::size_t bytes, std::size_t alignment, stream_ref stream) {
    validate_alignment(alignment, max_alignment, Derived::name);
    if (bytes == 0) { return nullptr; }  // as RMM: no CUDA call for an empty allocation
    void* ptr = nullptr;
    if (cudaError_t const status = Derived::cuda_allocate(&ptr, bytes, stream.value()); status != cudaSuccess) {
      ::devcol::detail::throw_cuda_error(status, Derived::name, __FILE__, __LINE__, bytes);
    }
    return ptr;
  }

  /**
   * @brief Synchronous allocate: the memory is usable by any stream when it returns. A
   * stream-ordered resource allocates on the default stream and synchronises it (the call then
   * costs a host synchronisation); the others are synchronous already.
   * @throws as the stream-ordered allocate, and devcol::cuda_error if the synchronisation fails
   */
  void* allocate(std::size_t bytes, std::size_t alignment = default_alignment) {
    void* ptr = allocate(bytes, alignment, stream_ref{});
    if constexpr (is_stream_ordered()) {
      if (cudaError_t const status = cudaStreamSynchronize(stream_ref{}.value()); status != cudaSuccess) {
        deallocate(ptr, bytes, alignment, stream_ref{});
        ::devcol::detail::throw_cuda_error(status, "cudaStreamSynchronize", __FILE__, __LINE__);
      }
    }
    return ptr;
  }

  /// @brief Frees memory from allocate(), in order on `stream`. Never throws (a failure is asserted
  /// in debug builds).
  void deallocate(void* ptr, std::size_t, std::size_t, stream_ref stream) noexcept {
    if (ptr == nullptr) { return; }
    DEVCOL_ASSERT_CUDA_SUCCESS(Derived::cuda_free(ptr, stream.value()));
  }

  /// @brief Synchronous deallocate: the memory is back with the resource when it returns (a
  /// stream-ordered resource frees on the default stream and synchronises it). Never throws.
  void deallocate(void* ptr, std::size_t bytes, std::size_t alignment = default_alignment) noexcept {
    if (ptr == nullptr) { return; }
    deallocate(ptr, bytes, alignment, stream_ref{});
    if constexpr (is_stream_ordered()) { DEVCOL_ASSERT_CUDA_SUCCESS(cudaStreamSynchronize(stream_ref{}.value())); }
  }

  /// @brief Stateless: any instance frees any other's memory.
  friend constexpr bool operator==(Derived const&, Derived const&) noexcept { return true; }

 private:
  // A function, not a variable: Derived is incomplete where this base is instantiated.
  static constexpr bool is_stream_ordered() noexcept {
    if constexpr (requires { Derived::stream_ordered; }) {
      return Derived::stream_ordered;
    } else {
      return false;
    }
  }
};

}  // namespace mr::detail
DEVCOL_NAMESPACE_END
#endif
