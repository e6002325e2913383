// devcol quick start: compose a memory resource at compile time, make it the default, allocate.
#include <devcol/devcol.hpp>

#include <iostream>

int main() {
  namespace mr = devcol::mr;
  // A pool over the backend's device memory, with statistics on top: chosen at compile time.
#if DEVCOL_BACKEND_CUDA
  using device_memory = mr::cuda_async;
#else
  using device_memory = mr::host_aligned;  // the host backend's "device" memory
#endif
  using resource = mr::statistics<mr::pool<device_memory>>;
  auto handle = mr::make_resource_handle<resource>("stats+pool");
  mr::scoped_default use_it{handle};  // this thread allocates from it until the scope ends

  devcol::stream stream;
  {
    mr::allocation a(1 << 20, stream);   // 1 MiB, 64-byte aligned, from the default
    mr::allocation b(4096, stream);
    std::cout << "allocated from '" << a.resource().name() << "': "
              << handle.target<resource>()->report().bytes.current << " bytes live\n";
  }  // both freed through the resource that made them
  auto const report = handle.target<resource>()->report();
  std::cout << "peak " << report.bytes.peak << " bytes, " << report.allocations.total << " allocations, "
            << report.bytes.current << " live\n";
  return report.bytes.current == 0 ? 0 : 1;
}
