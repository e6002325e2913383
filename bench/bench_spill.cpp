// Spilling costs: spill and unspill throughput of 256 MiB against memcpy, and the overhead of
// spill tracking on a hot loop of pointer accesses with spilling compiled in but no pressure.
#include <devcol/devcol.hpp>

#include "bench_main.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstring>
#include <optional>
#include <vector>

namespace {

namespace mr = devcol::mr;
namespace access = devcol::access;

struct spilling : devcol::default_policy {
  using spill = devcol::spillable;
};

constexpr std::size_t big_bytes = std::size_t{256} << 20;
constexpr std::size_t big_rows = big_bytes / sizeof(double);

#if DEVCOL_BACKEND_CUDA
using host_memory = mr::pinned_host;
#else
using host_memory = mr::host_aligned;
#endif

// Device -> host: spill() (allocates the host copy, copies, synchronises, frees device memory).
void spill_256MiB(benchmark::State& state) {
  devcol::column<double, spilling> c(big_rows);
  devcol::fill_bytes(c.data(access::write), 1, big_bytes, {});
  for (auto _ : state) {
    benchmark::DoNotOptimize(c.spill());
    state.PauseTiming();
    c.unspill();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * big_bytes));
}
BENCHMARK(spill_256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

// Host -> device: unspill() (allocates device memory, copies, synchronises, frees the host copy).
void unspill_256MiB(benchmark::State& state) {
  devcol::column<double, spilling> c(big_rows);
  devcol::fill_bytes(c.data(access::write), 1, big_bytes, {});
  for (auto _ : state) {
    state.PauseTiming();
    (void)c.spill();
    state.ResumeTiming();
    c.unspill();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * big_bytes));
}
BENCHMARK(unspill_256MiB)->Unit(benchmark::kMillisecond)->UseRealTime();

// The baseline: one copy of 256 MiB between device and host memory allocated once (arg 0), or
// allocated and freed around each copy as spilling does (arg 1).
void memcpy_256MiB(benchmark::State& state) {
  bool const fresh = state.range(0) != 0;
  mr::basic_allocation<mr::resource_handle> device(big_bytes);
  devcol::fill_bytes(device.data(), 1, big_bytes, {});
  host_memory host_mr;
  void* host = fresh ? nullptr : host_mr.allocate(big_bytes);
  if (!fresh) { std::memset(host, 0, big_bytes); }
  for (auto _ : state) {
    if (fresh) { host = host_mr.allocate(big_bytes); }
    devcol::copy_bytes(host, device.data(), big_bytes, {});
    devcol::stream_ref{}.synchronize();
    if (fresh) { host_mr.deallocate(host, big_bytes); }
  }
  if (!fresh) { host_mr.deallocate(host, big_bytes); }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * big_bytes));
}
BENCHMARK(memcpy_256MiB)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// A hot loop of pointer accesses: each iteration asks the column for its pointer and reads a row;
// `Locked`: under a spill_lock (the first access takes the owner's mutex, then one look-up each).
template <class Policy, bool Locked = false>
void pointer_access(benchmark::State& state) {
  auto const c = devcol::sequence<double, Policy>(4096);
  std::optional<devcol::spill_lock> lock;
  if constexpr (Locked) { lock.emplace(); }
  double sum = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    double const* p = c.data(access::read);
#if DEVCOL_BACKEND_HOST
    sum += p[i++ & 4095];
#else
    benchmark::DoNotOptimize(p + (i++ & 4095));
#endif
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(pointer_access<devcol::default_policy>)->Name("pointer_access/no_spill");
BENCHMARK(pointer_access<spilling>)->Name("pointer_access/spillable");
BENCHMARK(pointer_access<spilling, true>)->Name("pointer_access/spillable_under_spill_lock");

}  // namespace
DEVCOL_BENCH_MAIN()
