// A program that uses devcol from a package, as its users do: memory from a counted pool chosen at
// compile time, a column, a reduction. Built by g++ for the host backend; main.cu is this file for
// the CUDA backend.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  namespace mr = devcol::mr;
#if DEVCOL_BACKEND_CUDA
  using device_memory = mr::cuda_async;
  char const* const backend = "CUDA";
#else
  using device_memory = mr::host_aligned;
  char const* const backend = "host";
#endif
  using resource = mr::statistics<mr::pool<device_memory>>;
  mr::scoped_default use_it{mr::make_resource_handle<resource>("stats+pool")};

  auto const total = devcol::sum(devcol::sequence<std::int64_t>(1000, 1));  // 1 + 2 + ... + 1000
  auto const report = mr::get_default().target<resource>()->report();
  std::printf("devcol %d.%d.%d, %s backend: sum = %lld, %lld bytes from the pool, %lld still live\n",
              devcol::version.major, devcol::version.minor, devcol::version.patch, backend,
              static_cast<long long>(total.value_or(0)), static_cast<long long>(report.bytes.total),
              static_cast<long long>(report.bytes.current));
  return total == 500500 && report.bytes.total > 0 && report.bytes.current == 0 ? 0 : 1;
}
