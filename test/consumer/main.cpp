// Builds against the installed devcol package: allocates through a pool and checks the statistics.
#include <devcol/devcol.hpp>

#include <cstdio>

int main() {
  devcol::mr::statistics<devcol::mr::pool<devcol::mr::host_aligned>> resource;
  void* p = resource.allocate(1 << 20);
  resource.deallocate(p, 1 << 20);
  auto const report = resource.report();
  std::printf("devcol %d.%d.%d: %lld bytes allocated in total\n", devcol::version.major, devcol::version.minor,
              devcol::version.patch, static_cast<long long>(report.bytes.total));
  return report.bytes.total == (1 << 20) && report.bytes.current == 0 ? 0 : 1;
}
