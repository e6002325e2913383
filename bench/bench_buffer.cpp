// Copy-on-write costs: shallow copy and slice against a std::shared_ptr copy, write access on an
// unshared column against a use_count check, and a copy-on-write copy of 256 MiB against memcpy.
#include <devcol/devcol.hpp>

#include "bench_main.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace {

namespace mr = devcol::mr;
using value = std::int64_t;

struct single_thread : devcol::default_policy {
  using refcount = devcol::single_thread_refcount;
  using exposure = devcol::untracked_exposure;
};

void shared_ptr_copy(benchmark::State& state) {
  auto const p = std::make_shared<std::vector<value>>(1024);
  for (auto _ : state) {
    auto copy = p;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(shared_ptr_copy);

template <class Policy>
void column_copy(benchmark::State& state) {
  auto const a = devcol::sequence<value, Policy>(1024);
  for (auto _ : state) {
    devcol::column<value, Policy> copy = a;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(column_copy<devcol::default_policy>)->Name("column_copy/default_policy");
BENCHMARK(column_copy<single_thread>)->Name("column_copy/single_thread_untracked");

void column_slice(benchmark::State& state) {
  auto const a = devcol::sequence<value>(1024);
  for (auto _ : state) {
    auto s = a.slice(100, 900);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(column_slice);

void shared_ptr_use_count_check(benchmark::State& state) {
  auto p = std::make_shared<std::vector<value>>(1024);
  for (auto _ : state) {
    value* data = p.use_count() == 1 ? p->data() : nullptr;
    benchmark::DoNotOptimize(data);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(shared_ptr_use_count_check);

void column_write_access_unshared(benchmark::State& state) {
  auto a = devcol::sequence<value>(1024);
  for (auto _ : state) {
    value* data = a.data(devcol::access::write);
    benchmark::DoNotOptimize(data);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(column_write_access_unshared);

constexpr std::size_t big_rows = (std::size_t{256} << 20) / sizeof(value);  // 256 MiB

void memcpy_256mib(benchmark::State& state) {
  std::vector<value> src(big_rows, 1);
  std::vector<value> dst(big_rows, 2);  // touched: no page faults inside the loop
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), big_rows * sizeof(value));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * big_rows * sizeof(value)));
}
BENCHMARK(memcpy_256mib)->Unit(benchmark::kMillisecond)->UseRealTime();

// A shallow copy, then write access: the copy-on-write copy (allocation + copy), then its release.
template <bool Pooled>
void cow_copy_256mib(benchmark::State& state) {
  using pool = mr::pool<mr::host_aligned>;
  std::optional<mr::scoped_default> pooled;
  if constexpr (Pooled) { (void)pooled.emplace(mr::make_resource_handle<pool>("pool")); }
  auto const a = devcol::sequence<value>(big_rows);
  if constexpr (Pooled) {  // steady state: the pool's block is faulted in once, before timing
    devcol::column<value> warm = a;
    benchmark::DoNotOptimize(warm.data(devcol::access::write));
  }
  for (auto _ : state) {
    devcol::column<value> b = a;
    value* data = b.data(devcol::access::write);  // copies 256 MiB
    benchmark::DoNotOptimize(data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * big_rows * sizeof(value)));
}
BENCHMARK(cow_copy_256mib<false>)->Name("cow_copy_256mib/host_aligned")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(cow_copy_256mib<true>)->Name("cow_copy_256mib/pool")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

DEVCOL_BENCH_MAIN()
