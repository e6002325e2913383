// The main() of every devcol benchmark program, once: DEVCOL_BENCH_MAIN() after the benchmarks, or
// DEVCOL_BENCH_MAIN_WITH(setup) where the program must prepare something first (setup() returns
// false to fail with exit status 1).
#pragma once

#include <benchmark/benchmark.h>

#include <thread>

#if defined(DEVCOL_BENCH_WITH_ARROW)
#  include <arrow/compute/initialize.h>
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

/// Starts and joins one thread, then runs the benchmarks the command line selects. The thread: a
/// program with a GPU runtime has threads, and libstdc++ skips shared_ptr's atomics until a process
/// starts one, which would compare devcol's atomic counts with plain increments.
template <class Setup>
int main(int argc, char** argv, Setup setup) {
  std::thread([] {}).join();
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
