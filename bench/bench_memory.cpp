// Allocation benchmarks: an allocate + free pair through the pool, through its upstream, and
// through malloc, for sizes from 64 B to 64 MiB; plus a mixed-size workload. On the CUDA backend the
// pool is measured against cudaMalloc and cudaMallocAsync instead.
#include <devcol/devcol.hpp>

#include "bench_main.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <vector>

namespace {

namespace mr = devcol::mr;

void sizes(benchmark::internal::Benchmark* b) {
  // 64 B to 64 MiB by fours: includes 1 KiB, 1 MiB and 64 MiB, the sizes the goals name.
  for (std::int64_t bytes = 64; bytes <= (std::int64_t{64} << 20); bytes *= 4) { b->Arg(bytes); }
}

template <class Resource>
void pair_through(benchmark::State& state, Resource& resource) {
  auto const bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    void* p = resource.allocate(bytes);
    benchmark::DoNotOptimize(p);
    resource.deallocate(p, bytes);
  }
  state.SetItemsProcessed(state.iterations());
}

#if DEVCOL_BACKEND_CUDA
using upstream_type = mr::cuda_device;
#else
using upstream_type = mr::host_aligned;
#endif

void pool_pair(benchmark::State& state) {
  mr::pool<upstream_type> pool;
  pair_through(state, pool);
}
BENCHMARK(pool_pair)->Apply(sizes);

// The same pair from 1, 2 and 4 threads on one shared pool: what its lock costs under contention.
mr::pool<upstream_type>& shared_pool() {
  static mr::pool<upstream_type> pool;
  return pool;
}
void pool_pair_shared(benchmark::State& state) { pair_through(state, shared_pool()); }
BENCHMARK(pool_pair_shared)->Arg(1024)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();

void upstream_pair(benchmark::State& state) {
  upstream_type upstream;
  pair_through(state, upstream);
}
BENCHMARK(upstream_pair)->Apply(sizes);

#if DEVCOL_BACKEND_CUDA
void cuda_async_pair(benchmark::State& state) {
  mr::cuda_async async;
  pair_through(state, async);
}
BENCHMARK(cuda_async_pair)->Apply(sizes);
#else
void malloc_pair(benchmark::State& state) {
  auto const bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    void* p = std::malloc(bytes);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(malloc_pair)->Apply(sizes);
#endif

// A mixed workload: 64 live blocks of random sizes (256 B to 1 MiB), one replaced per iteration, so
// the pool's free list (not just its cache of recent frees) does the work.
template <class Allocate, class Free>
void mixed(benchmark::State& state, Allocate allocate, Free free) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<std::size_t> size(256, 1 << 20);
  std::vector<std::pair<void*, std::size_t>> live;
  for (int i = 0; i < 64; ++i) {
    std::size_t const n = size(rng);
    live.emplace_back(allocate(n), n);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto& slot = live[i++ % live.size()];
    free(slot.first, slot.second);
    slot.second = size(rng);
    slot.first = allocate(slot.second);
    benchmark::DoNotOptimize(slot.first);
  }
  for (auto const& [p, n] : live) { free(p, n); }
  state.SetItemsProcessed(state.iterations());
}

void pool_mixed(benchmark::State& state) {
  mr::pool<upstream_type> pool;
  mixed(state, [&](std::size_t n) { return pool.allocate(n); }, [&](void* p, std::size_t n) { pool.deallocate(p, n); });
}
BENCHMARK(pool_mixed);

void upstream_mixed(benchmark::State& state) {
  upstream_type upstream;
  mixed(state, [&](std::size_t n) { return upstream.allocate(n); },
        [&](void* p, std::size_t n) { upstream.deallocate(p, n); });
}
BENCHMARK(upstream_mixed);

}  // namespace

DEVCOL_BENCH_MAIN()
