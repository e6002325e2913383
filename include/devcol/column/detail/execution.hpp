/**
 * @file execution.hpp
 * @brief The Thrust execution policy for a stream: CUDA's `par_nosync` on the stream (no hidden
 * synchronisation; temporary storage from this thread's default resource), or the host backend's
 * device system (OpenMP, or serial C++). Under the simulated CUDA runtime of devcol's tests, the
 * host system runs the work at once and the runtime double orders it on the stream.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <thrust/execution_policy.h>

#include <cstddef>

#if DEVCOL_BACKEND_CUDA && !DEVCOL_HAS_DEVICE_COMPILER && !DEVCOL_SIMULATED_CUDA
#  error "devcol's column and ops layers launch kernels: compile this translation unit with a CUDA compiler"
#endif

#if DEVCOL_SIMULATED_CUDA
// Defined by the simulated CUDA runtime (test/simulated_cuda): a kernel is queued on `stream`; the
// kernel on `stream` reads (or writes) `bytes` at `ptr`.
extern "C" cudaError_t devcol_simulated_cuda_launch(cudaStream_t stream);
extern "C" void devcol_simulated_cuda_access(cudaStream_t stream, void const* ptr, std::size_t bytes, int write);
#endif

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Thrust's temporary storage from a devcol resource, on the algorithm's stream.
class temporary_allocator {
 public:
  using value_type = char;
  temporary_allocator(mr::resource_handle resource, stream_ref stream) : resource_(std::move(resource)), stream_(stream) {}
  char* allocate(std::ptrdiff_t bytes) {
    return static_cast<char*>(resource_.allocate(static_cast<std::size_t>(bytes), 256, stream_));
  }
  void deallocate(char* ptr, std::size_t bytes) noexcept { resource_.deallocate(ptr, bytes, 256, stream_); }

 private:
  mr::resource_handle resource_;
  stream_ref stream_;
};

#if DEVCOL_SIMULATED_CUDA
/// The host system, its work queued on `stream` of the simulated runtime, with temporaries from this
/// thread's default resource (stream-ordered simulated device memory).
inline auto execution_policy(stream_ref stream, temporary_allocator& temporaries) {
  DEVCOL_CUDA_TRY(devcol_simulated_cuda_launch(stream.value()));
  return thrust::device(temporaries);
}
#elif DEVCOL_BACKEND_CUDA
/// The execution policy for `stream`, with temporaries from this thread's default resource.
inline auto execution_policy(stream_ref stream, temporary_allocator& temporaries) {
  return thrust::cuda::par_nosync(temporaries).on(stream.value());
}
#else
/// The host backend's device system; its temporaries are host memory.
inline auto execution_policy(stream_ref, temporary_allocator&) { return thrust::device; }
#endif

/// Holds the temporaries' allocator alive for the duration of one or more algorithm calls.
class executor {
 public:
  explicit executor(stream_ref stream) : stream_(stream), temporaries_(mr::get_default(), stream) {}
  [[nodiscard]] auto policy() { return execution_policy(stream_, temporaries_); }
  [[nodiscard]] stream_ref stream() const noexcept { return stream_; }
  /// @brief Names `bytes` at `ptr` as read by the algorithms run through this executor. Costs
  /// nothing: only the simulated CUDA runtime of devcol's tests checks it against the stream order.
  void reads([[maybe_unused]] void const* ptr, [[maybe_unused]] std::size_t bytes) const noexcept {
#if DEVCOL_SIMULATED_CUDA
    devcol_simulated_cuda_access(stream_.value(), ptr, bytes, 0);
#endif
  }
  /// @brief Names `bytes` at `ptr` as written by the algorithms run through this executor (see reads()).
  void writes([[maybe_unused]] void const* ptr, [[maybe_unused]] std::size_t bytes) const noexcept {
#if DEVCOL_SIMULATED_CUDA
    devcol_simulated_cuda_access(stream_.value(), ptr, bytes, 1);
#endif
  }

 private:
  stream_ref stream_;
  temporary_allocator temporaries_;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
