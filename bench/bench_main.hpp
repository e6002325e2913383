// The main() of every devcol benchmark program, once: DEVCOL_BENCH_MAIN() after the benchmarks, or
// DEVCOL_BENCH_MAIN_WITH(setup) where the program must prepare something first (setup() returns
// false to fail with exit status 1).
#pragma once

#include <devcol/core/stream_ref.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#if defined(DEVCOL_BENCH_WITH_ARROW)
#  include <arrow/array/builder_primitive.h>
#  include <arrow/compute/initialize.h>

#  include <memory>
#  include <vector>
#endif

namespace devcol_bench {

/// The setup of the programs that compare with Arrow C++ compute: its kernels registered (nothing
/// to do without Arrow).
inline bool initialize_arrow() {
#if defined(DEVCOL_BENCH_WITH_ARROW)
  return arrow::compute::Initialize().ok();
#else
  return true;
#endif
}

/// Times `op()` in the benchmark loop, each call followed by a synchronisation of the default
/// stream (the kernels' time, not their launch's; a no-op on the host), after one untimed call so
/// that a pool already holds the result's blocks: steady state, no page faults in the loop.
template <class Op>
void steady_loop(benchmark::State& state, Op op) {
  op();
  devcol::stream_ref{}.synchronize();
  for (auto _ : state) {
    op();
    devcol::stream_ref{}.synchronize();
  }
}

#if defined(DEVCOL_BENCH_WITH_ARROW)
/// `flags` as an Arrow boolean array: Arrow packs booleans a bit a row, so it is built, not wrapped.
inline std::shared_ptr<arrow::Array> arrow_flags(std::vector<bool> const& flags) {
  arrow::BooleanBuilder builder;
  if (!builder.AppendValues(flags).ok()) { return nullptr; }
  return *builder.Finish();
}
#endif

/// Throws the status of a failed Arrow result (`ok()`, `status()`); keeps a good one from being
/// optimised away.
template <class Result>
void check(Result const& result) {
  if (!result.ok()) { throw std::runtime_error(result.status().ToString()); }
  benchmark::DoNotOptimize(result);
}

/// The base-2 logarithm of the row count of the programs that take one (bench_ops): 24 unless the
/// command line says `--devcol_rows_log2=N`, so that a plain run stays minutes long and the large
/// sizes are a separate run.
inline int& rows_log2() {
  static int value = 24;
  return value;
}

/// Takes devcol's own options (`--devcol_rows_log2=N`) out of the command line, which Google
/// Benchmark would reject.
inline void take_devcol_options(int& argc, char** argv) {
  constexpr char const rows_flag[] = "--devcol_rows_log2=";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], rows_flag, sizeof(rows_flag) - 1) == 0) {
      rows_log2() = std::atoi(argv[i] + sizeof(rows_flag) - 1);
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

/// Starts and joins one thread, then runs the benchmarks the command line selects. The thread: a
/// program with a GPU runtime has threads, and libstdc++ skips shared_ptr's atomics until a process
/// starts one, which would compare devcol's atomic counts with plain increments.
template <class Setup>
int main(int argc, char** argv, Setup setup) {
  std::thread([] {}).join();
  take_devcol_options(argc, argv);
  if (!setup()) { return 1; }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) { return 1; }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace devcol_bench

/// main() running the benchmarks after `setup()`.
#define DEVCOL_BENCH_MAIN_WITH(setup) \
  int main(int argc, char** argv) { return devcol_bench::main(argc, argv, setup); }
/// main() running the benchmarks.
#define DEVCOL_BENCH_MAIN() DEVCOL_BENCH_MAIN_WITH([] { return true; })
