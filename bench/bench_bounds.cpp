// What one core of the machine can do at all, without devcol or Arrow: the bounds that the ops'
// figures in bench/RESULTS.md are read against. An op that only reads cannot go faster than
// read_sum; a gather of random rows from memory past the last-level cache cannot go faster than
// random_gather (both libraries' gathers issue the same one load a row, and a core keeps only so
// many misses in flight: pointer_chase's latency over random_gather's time a row says how many).
//
// Run on one thread, on a quiet machine:
//   build/bench/bench/bench_bounds --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Memory is 2 MiB-aligned and advised for transparent huge pages, as devcol's pool<host_aligned>
// does for blocks of 16 MiB and more, so that the figures are of the memory, not the TLB.
#include <benchmark/benchmark.h>

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr std::size_t huge_page = std::size_t{1} << 21;

struct free_deleter {
  void operator()(void* p) const noexcept { std::free(p); }
};

/// `bytes` of memory on huge pages where the kernel gives them, every page touched.
template <class T>
std::unique_ptr<T[], free_deleter> huge_array(std::size_t count) {
  std::size_t const bytes = (count * sizeof(T) + huge_page - 1) / huge_page * huge_page;
  void* p = std::aligned_alloc(huge_page, bytes);
  if (p == nullptr) { throw std::bad_alloc(); }
  (void)madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0, bytes);
  return std::unique_ptr<T[], free_deleter>(static_cast<T*>(p));
}

/// A sum of int64 in four independent accumulators, which the compiler vectorises; built for
/// AVX-512, AVX2 and the baseline and chosen at load time, as devcol's folds are.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
std::int64_t read_sum(std::int64_t const* p, std::size_t n) {
  std::int64_t a = 0, b = 0, c = 0, d = 0;
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    a += p[i];
    b += p[i + 1];
    c += p[i + 2];
    d += p[i + 3];
  }
  return a + b + c + d;
}

/// 2^arg int64 rows copied by memcpy (bytes counted: read and written, as bench_ops counts).
void memcpy_int64(benchmark::State& state) {
  std::size_t const n = std::size_t{1} << state.range(0);
  auto from = huge_array<std::int64_t>(n);
  auto to = huge_array<std::int64_t>(n);
  std::iota(from.get(), from.get() + n, std::int64_t{0});
  for (auto _ : state) {
    std::memcpy(to.get(), from.get(), n * sizeof(std::int64_t));
    benchmark::DoNotOptimize(to.get());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * 2 * n * sizeof(std::int64_t)));
}

/// 2^arg int64 rows read once (bytes counted: read).
void read_int64(benchmark::State& state) {
  std::size_t const n = std::size_t{1} << state.range(0);
  auto values = huge_array<std::int64_t>(n);
  std::iota(values.get(), values.get() + n, std::int64_t{0});
  for (auto _ : state) { benchmark::DoNotOptimize(read_sum(values.get(), n)); }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(std::int64_t)));
}

/// One load after another, each address the last load's value: the latency of a load that misses
/// every cache (a random cycle over 1 GiB, one step a 64-byte line). Reported as time per load.
void pointer_chase(benchmark::State& state) {
  std::size_t const lines = (std::size_t{1} << 30) / 64;
  auto memory = huge_array<std::uint64_t>(lines * 8);
  std::vector<std::uint32_t> order(lines);
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (std::size_t i = 0; i < lines; ++i) { memory[std::size_t{order[i]} * 8] = std::uint64_t{order[(i + 1) % lines]} * 8; }
  constexpr std::size_t steps = std::size_t{1} << 20;
  std::uint64_t at = 0;
  for (auto _ : state) {
    for (std::size_t s = 0; s < steps; ++s) { at = memory[at]; }
    benchmark::DoNotOptimize(at);
  }
  state.counters["ns_per_load"] =
      benchmark::Counter(static_cast<double>(state.iterations() * steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// 2^24 int32 rows gathered at random indices from a 1 GiB source (past any last-level cache), as
/// devcol's gather and Arrow's take do it without nulls: one load a row, the source prefetched
/// into the L2 `arg` rows ahead (0: not at all).
void random_gather(benchmark::State& state) {
  std::size_t const rows = std::size_t{1} << 24;
  std::size_t const source_rows = std::size_t{1} << 28;
  auto const distance = static_cast<std::size_t>(state.range(0));
  auto source = huge_array<std::int32_t>(source_rows);
  auto indices = huge_array<std::uint32_t>(rows);
  auto out = huge_array<std::int32_t>(rows);
  std::mt19937_64 rng(2);
  for (std::size_t i = 0; i < rows; ++i) { indices[i] = static_cast<std::uint32_t>(rng() % source_rows); }
  for (auto _ : state) {
    for (std::size_t i = 0; i < rows; ++i) {
      if (distance != 0 && i + distance < rows) { __builtin_prefetch(source.get() + indices[i + distance], 0, 2); }
      out[i] = source[indices[i]];
    }
    benchmark::DoNotOptimize(out.get());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * rows));
}

}  // namespace

BENCHMARK(memcpy_int64)->Arg(24)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(read_int64)->Arg(24)->Arg(27)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(pointer_chase)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(random_gather)->Arg(0)->Arg(128)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
