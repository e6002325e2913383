// The simulated CUDA runtime: a test double of exactly the CUDA runtime calls devcol makes, with
// the happens-before order CUDA guarantees (and no more) checked as a race detector does.
//
// Work runs at once on the host, but each stream keeps a vector clock, advanced by the work queued
// on it and joined only through events (cudaEventRecord / cudaStreamWaitEvent) and host
// synchronisations (cudaStreamSynchronize, cudaEventSynchronize, a successful query,
// cudaDeviceSynchronize, the synchronous cudaFree / cudaFreeHost). The host is one agent: what it
// has waited for orders everything it queues afterwards. Every call that touches memory (copies,
// fills, allocations, frees, and the operands devcol's executor records for its algorithms)
// remembers who touched which bytes, at which clock; an access that conflicts with an earlier one
// not ordered before it is reported, naming both streams. So are the use of a destroyed stream or
// event, the use of freed memory, and a call on a stream or memory of a device that is not current
// (the call then fails with cudaErrorInvalidResourceHandle, as CUDA fails a launch there).
//
// Reports are collected, not thrown (many of the calls happen in destructors): a test that expects
// one takes them with take_reports(); simulated_cuda_main.cpp fails every test case that leaves one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace devcol_sim {

/// The number of simulated devices (cudaGetDeviceCount).
inline constexpr int device_count = 2;

/// The reports made since the last call, oldest first; forgets them.
std::vector<std::string> take_reports();

/// The host reads `bytes` at `ptr` (device-accessible memory, or host memory a stream wrote): a
/// report unless every stream's write to those bytes is ordered before this point.
void host_read(void const* ptr, std::size_t bytes);
/// The host writes `bytes` at `ptr`: a report unless every stream's access is ordered before.
void host_write(void const* ptr, std::size_t bytes);

/// While `on`, every runtime call fails with cudaErrorCudartUnloading, as CUDA's do once the runtime
/// has begun to shut down at process exit: what objects of static storage duration made before the
/// runtime's first use meet when they are destroyed.
void set_unloading(bool on);

/// Whether `ptr` is memory the double allocated and has not freed.
bool is_live_allocation(void const* ptr);
/// The number of allocations made by the double and not yet freed (all devices, all kinds).
std::size_t live_allocations();

/// What the runtime calls made since the last take_costs() cost: what a doc comment's "no
/// synchronisation" and "allocates only its result" are checked against.
struct costs {
  /// Host waits for device work: cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize,
  /// and the frees that wait for the device first (cudaFree, cudaFreeHost).
  std::size_t synchronizations = 0;
  /// Allocations of any kind: cudaMalloc, cudaMallocAsync, cudaMallocManaged, cudaMallocHost.
  std::size_t allocations = 0;
};
/// The costs counted since the last call (on every thread, all devices); starts counting afresh.
costs take_costs();

}  // namespace devcol_sim
