/**
 * @file execution.hpp
 * @brief The Thrust execution policy for a stream: CUDA's `par_nosync` on the stream (no hidden
 * synchronisation; temporary storage from this thread's default resource), or the host backend's
 * device system (OpenMP, or serial C++).
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/default_resource.hpp>
#include <devcol/memory/resource_handle.hpp>

#include <thrust/execution_policy.h>

#include <cstddef>

#if DEVCOL_BACKEND_CUDA && !DEVCOL_HAS_DEVICE_COMPILER
#  error "devcol's column and ops layers launch kernels: compile this translation unit with a CUDA compiler"
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

#if DEVCOL_BACKEND_CUDA
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

 private:
  stream_ref stream_;
  temporary_allocator temporaries_;
};

}  // namespace detail
DEVCOL_NAMESPACE_END
