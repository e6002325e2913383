// The ops on 2^24 rows (2^27 or another power of two with --devcol_rows_log2=27): bytes moved per second against memcpy's in the same run, and,
// where Arrow C++ has the same kernel, Arrow compute on the very same memory (wrapped zero-copy;
// host backend). Columns and results come from a pool, as RMM and cuDF run: steady state, no page
// faults from fresh memory inside the loop. On the CUDA backend the memory is the device's, each
// iteration ends with the stream synchronised (so the time is the kernels'), the baseline is a
// device-to-device copy, and Thrust called directly on the same memory is the peer.
#include <devcol/devcol.hpp>

#include "bench_main.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(_OPENMP) && !DEVCOL_BACKEND_CUDA
#  include <omp.h>
#endif

#if DEVCOL_BACKEND_CUDA
#  include <thrust/copy.h>
#  include <thrust/execution_policy.h>
#  include <thrust/gather.h>
#  include <thrust/reduce.h>
#  include <thrust/scan.h>
#  include <thrust/sort.h>
#  include <thrust/transform.h>
#endif

#if defined(DEVCOL_BENCH_WITH_ARROW)
#  include <arrow/api.h>
#  include <arrow/compute/api.h>
#  include <arrow/util/thread_pool.h>
#endif

namespace {

namespace mr = devcol::mr;
using i64 = std::int64_t;

struct dataset {
  devcol::column<i64> x;
  devcol::column<i64> y;
  devcol::column<std::int32_t> indices;  // random, in range
  devcol::column<bool> keep;             // about half true
  devcol::column<double> fx;             // x as double, 1% NaN and 1% -0.0: the float paths of min/max and sort
#if defined(DEVCOL_BENCH_WITH_ARROW)
  std::shared_ptr<arrow::Array> ax, ay, aindices, akeep, afx;
#endif
};

#if DEVCOL_BACKEND_CUDA
using upstream_type = mr::cuda_device;
#else
using upstream_type = mr::host_aligned;
#endif

mr::resource_handle const& pool_handle() {
  static mr::resource_handle const handle = mr::make_resource_handle<mr::pool<upstream_type>>("bench-pool");
  return handle;
}

dataset const& data(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<dataset>> cache;
  if (auto const found = cache.find(n); found != cache.end()) { return *found->second; }
  cache.clear();  // one size at a time: 2^27 rows take gigabytes
  {
    mr::scoped_default use_pool{pool_handle()};
    std::mt19937_64 rng(n);
    std::vector<i64> x(n);
    std::vector<i64> y(n);
    std::vector<std::int32_t> idx(n);
    std::vector<bool> keep(n);
    std::vector<double> fx(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<i64>(rng() % 1000000);
      y[i] = static_cast<i64>(rng() % 1000);
      idx[i] = static_cast<std::int32_t>(rng() % n);
      keep[i] = (rng() & 1U) != 0;
      std::uint64_t const kind = rng() % 100;
      fx[i] = kind == 0 ? std::numeric_limits<double>::quiet_NaN() : kind == 1 ? -0.0 : static_cast<double>(x[i]) - 5e5;
    }
    auto d = std::make_unique<dataset>();
    d->x = devcol::make_column<i64>(x);
    d->y = devcol::make_column<i64>(y);
    d->indices = devcol::make_column<std::int32_t>(idx);
    d->keep = devcol::make_column<bool>(keep);
    d->fx = devcol::make_column<double>(fx);
#if defined(DEVCOL_BENCH_WITH_ARROW)
    auto wrap = [n](void const* p, std::size_t width, std::shared_ptr<arrow::DataType> type) {
      auto buffer = std::make_shared<arrow::Buffer>(static_cast<std::uint8_t const*>(p), static_cast<std::int64_t>(n * width));
      return arrow::MakeArray(arrow::ArrayData::Make(std::move(type), static_cast<std::int64_t>(n), {nullptr, buffer}));
    };
    d->ax = wrap(d->x.data(devcol::access::read), 8, arrow::int64());
    d->ay = wrap(d->y.data(devcol::access::read), 8, arrow::int64());
    d->aindices = wrap(d->indices.data(devcol::access::read), 4, arrow::int32());
    d->afx = wrap(d->fx.data(devcol::access::read), 8, arrow::float64());
    arrow::BooleanBuilder flags;  // Arrow packs booleans: built from the same flags
    (void)flags.AppendValues(keep);
    d->akeep = *flags.Finish();
#endif
    cache[n] = std::move(d);
  }
  return *cache[n];
}

/// The row count of this run: 2^24, or 2^N with `--devcol_rows_log2=N` (bench_main.hpp).
std::int64_t row_count() { return std::int64_t{1} << devcol_bench::rows_log2(); }

/// This file's fixed benchmarks, registered by initialize() once the command line has given the
/// row count (static registration would fix it before main()).
std::vector<std::pair<char const*, void (*)(benchmark::State&)>>& listed() {
  static std::vector<std::pair<char const*, void (*)(benchmark::State&)>> all;
  return all;
}
#define DEVCOL_LIST_BENCH(fn) [[maybe_unused]] bool const fn##_listed = (listed().emplace_back(#fn, fn), true)

/// Runs `op` in the loop on the pool and reports `bytes_per_row` moved per row.
template <class Op>
void run(benchmark::State& state, double bytes_per_row, Op op) {
  auto const n = static_cast<std::size_t>(state.range(0));
  auto const& d = data(n);
  mr::scoped_default use_pool{pool_handle()};
  op(d);  // warm: the pool holds the result's block before timing
  devcol::stream_ref{}.synchronize();
  for (auto _ : state) {
    op(d);
    devcol::stream_ref{}.synchronize();  // the kernels' time, not their launch's (a no-op on the host)
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(static_cast<double>(state.iterations()) * bytes_per_row * static_cast<double>(n)));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}

void memcpy_baseline(benchmark::State& state) {
  run(state, 16, [](dataset const& d) {
#if DEVCOL_BACKEND_CUDA
    static devcol::column<i64> dst;  // from the pool, made once per size
    if (dst.size() != d.x.size()) { dst = devcol::column<i64>(d.x.size()); }
    devcol::copy_bytes(dst.data(devcol::access::write), d.x.data(devcol::access::read), d.x.size() * sizeof(i64), {});
#else
    static std::vector<i64> dst;
    dst.resize(d.x.size());
    std::memcpy(dst.data(), d.x.data(devcol::access::read), d.x.size() * sizeof(i64));
    benchmark::ClobberMemory();
#endif
  });
}
DEVCOL_LIST_BENCH(memcpy_baseline);


#define DEVCOL_OP_BENCH(name, bytes, expr)                                                   \
  void devcol_##name(benchmark::State& state) {                                              \
    run(state, bytes, [](dataset const& d) { benchmark::DoNotOptimize(expr); });             \
  }                                                                                          \
  DEVCOL_LIST_BENCH(devcol_##name)

struct doubled {
  DEVCOL_HOST_DEVICE i64 operator()(i64 v) const { return v * 2; }
};
struct plus {
  DEVCOL_HOST_DEVICE i64 operator()(i64 a, i64 b) const { return a + b; }
};

DEVCOL_OP_BENCH(min, 8, devcol::min(d.x));
DEVCOL_OP_BENCH(max, 8, devcol::max(d.x));
DEVCOL_OP_BENCH(copy, 16, devcol::copy(d.x));
DEVCOL_OP_BENCH(transform, 16, devcol::transform(d.x, doubled{}));
DEVCOL_OP_BENCH(sort, 16, devcol::sort(d.x));
DEVCOL_OP_BENCH(is_sorted, 8, devcol::is_sorted(d.x));
DEVCOL_OP_BENCH(min_double_nan, 8, devcol::min(d.fx));
DEVCOL_OP_BENCH(minmax_double_nan, 8, devcol::minmax(d.fx));
DEVCOL_OP_BENCH(sort_double_nan, 16, devcol::sort(d.fx));
DEVCOL_OP_BENCH(argsort_double_nan, 16, devcol::argsort(d.fx));

#if DEVCOL_BACKEND_CUDA
/// Thrust called directly on the same device memory, into scratch made once: the peer the ops
/// stand on, without devcol's result allocation, null handling or bounds checks.
struct is_set {
  DEVCOL_HOST_DEVICE bool operator()(bool b) const { return b; }
};
struct scratch {
  devcol::column<i64> a, b;
};
scratch& scratch_for(std::size_t n) {
  static scratch s;
  if (s.a.size() != n) {
    mr::scoped_default use_pool{pool_handle()};
    s.a = devcol::column<i64>(n);
    s.b = devcol::column<i64>(n);
  }
  return s;
}
#  define THRUST_OP_BENCH(name, bytes, ...)                                     \
    void thrust_##name(benchmark::State& state) {                               \
      run(state, bytes, [](dataset const& d) {                                  \
        auto const n = d.x.size();                                              \
        i64 const* x = d.x.data(devcol::access::read);                          \
        i64* out = scratch_for(n).a.data(devcol::access::write);                \
        i64* tmp = scratch_for(n).b.data(devcol::access::write);                \
        (void)out;                                                              \
        (void)tmp;                                                              \
        __VA_ARGS__;                                                            \
      });                                                                       \
    }                                                                           \
    DEVCOL_LIST_BENCH(thrust_##name)

THRUST_OP_BENCH(sum, 8, benchmark::DoNotOptimize(thrust::reduce(thrust::cuda::par, x, x + n, i64{0})));
THRUST_OP_BENCH(transform, 16, thrust::transform(thrust::cuda::par_nosync, x, x + n, out, doubled{}));
THRUST_OP_BENCH(add, 24,
                thrust::transform(thrust::cuda::par_nosync, x, x + n, d.y.data(devcol::access::read), out, plus{}));
THRUST_OP_BENCH(gather, 20,
                thrust::gather(thrust::cuda::par_nosync, d.indices.data(devcol::access::read),
                               d.indices.data(devcol::access::read) + n, x, out));
THRUST_OP_BENCH(filter, 13,
                benchmark::DoNotOptimize(thrust::copy_if(thrust::cuda::par, x, x + n, d.keep.data(devcol::access::read),
                                                         out, is_set{})));
THRUST_OP_BENCH(inclusive_scan, 16, thrust::inclusive_scan(thrust::cuda::par_nosync, x, x + n, out));
THRUST_OP_BENCH(sort, 16,
                thrust::copy(thrust::cuda::par_nosync, x, x + n, out);
                thrust::sort(thrust::cuda::par_nosync, out, out + n));
#endif

void devcol_fill(benchmark::State& state) {
  auto target = devcol::sequence<i64>(static_cast<std::size_t>(state.range(0)));
  run(state, 8, [&](dataset const&) { devcol::fill(target, i64{7}); });
}
DEVCOL_LIST_BENCH(devcol_fill);

// --- devcol against Arrow C++ at equal threads ------------------------------------------------
// Each op for int32, int64, float and double, without nulls and with 10% nulls (x and y; the
// indices and the keep flags have none), devcol_<op> and its Arrow peer registered side by side.
// Threads: devcol runs on OpenMP's thread count (OMP_NUM_THREADS); Arrow gets the same count, its
// CPU pool set to it and each call split into that many slices over std::threads (one call, no
// thread, at 1). Arrow's sort_indices cannot be split without a merge: it runs on one thread always.
template <class T>
struct typed_dataset {
  devcol::column<T> x;
  devcol::column<T> y;
  devcol::column<std::int32_t> indices;  // random, in range, no nulls
  devcol::column<bool> keep;             // about half true, no nulls
#if defined(DEVCOL_BENCH_WITH_ARROW)
  std::shared_ptr<arrow::Array> ax, ay, aindices, akeep;
#endif
};

template <class T>
char const* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return "int32";
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return "int64";
  } else if constexpr (std::is_same_v<T, float>) {
    return "float";
  } else {
    return "double";
  }
}

int bench_threads() {
#if defined(_OPENMP) && !DEVCOL_BACKEND_CUDA
  return omp_get_max_threads();
#else
  return 1;
#endif
}

#if defined(DEVCOL_BENCH_WITH_ARROW)
template <class T>
std::shared_ptr<arrow::DataType> arrow_type() {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return arrow::int32();
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return arrow::int64();
  } else if constexpr (std::is_same_v<T, float>) {
    return arrow::float32();
  } else {
    return arrow::float64();
  }
}
/// An Arrow array over a devcol column's very buffers (values and mask), zero-copy.
template <class T>
std::shared_ptr<arrow::Array> wrap_column(devcol::column<T> const& c, std::shared_ptr<arrow::DataType> type) {
  auto const n = static_cast<std::int64_t>(c.size());
  auto values = std::make_shared<arrow::Buffer>(reinterpret_cast<std::uint8_t const*>(c.data(devcol::access::read)),
                                                n * static_cast<std::int64_t>(sizeof(T)));
  std::shared_ptr<arrow::Buffer> mask;
  if (c.has_nulls()) {
    mask = std::make_shared<arrow::Buffer>(reinterpret_cast<std::uint8_t const*>(c.null_mask(devcol::access::read)),
                                           (n + 7) / 8);
  }
  return arrow::MakeArray(arrow::ArrayData::Make(std::move(type), n, {mask, values},
                                                 static_cast<std::int64_t>(c.null_count())));
}
#endif

template <class T>
typed_dataset<T> const& typed_data(std::size_t n, bool nulls) {
  static std::map<std::pair<std::size_t, bool>, std::unique_ptr<typed_dataset<T>>> cache;
  auto const key = std::pair{n, nulls};
  if (auto const found = cache.find(key); found != cache.end()) { return *found->second; }
  // Both null modes stay made up to 2^25 rows (under 3 GiB for the four types), so that random
  // interleaving does not remake the data, and move its pages, between repetitions: a gather's
  // time follows its source's pages (huge or not), and remaking it spread repetitions by 25%.
  // Above that, one at a time: 2^27 rows take gigabytes each.
  if (n > (std::size_t{1} << 25)) { cache.clear(); }
  mr::scoped_default use_pool{pool_handle()};
  std::mt19937_64 rng(n + (nulls ? 1 : 0));
  std::vector<std::optional<T>> x(n);
  std::vector<std::optional<T>> y(n);
  std::vector<std::int32_t> idx(n);
  std::vector<bool> keep(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto const xv = static_cast<i64>(rng() % 1000000);
    if constexpr (std::is_floating_point_v<T>) {  // 1% NaN and 1% -0.0, as in the float paths' tests
      std::uint64_t const kind = rng() % 100;
      x[i] = kind == 0 ? std::numeric_limits<T>::quiet_NaN() : kind == 1 ? T(-0.0) : static_cast<T>(xv) - T(5e5);
    } else {
      x[i] = static_cast<T>(xv);
    }
    y[i] = static_cast<T>(rng() % 1000);
    if (nulls && rng() % 10 == 0) { x[i].reset(); }
    if (nulls && rng() % 10 == 0) { y[i].reset(); }
    idx[i] = static_cast<std::int32_t>(rng() % n);
    keep[i] = (rng() & 1U) != 0;
  }
  auto d = std::make_unique<typed_dataset<T>>();
  d->x = devcol::make_column<T>(x);
  d->y = devcol::make_column<T>(y);
  d->indices = devcol::make_column<std::int32_t>(idx);
  d->keep = devcol::make_column<bool>(keep);
#if defined(DEVCOL_BENCH_WITH_ARROW)
  d->ax = wrap_column(d->x, arrow_type<T>());
  d->ay = wrap_column(d->y, arrow_type<T>());
  d->aindices = wrap_column(d->indices, arrow::int32());
  arrow::BooleanBuilder flags;  // Arrow packs booleans: built from the same flags
  (void)flags.AppendValues(keep);
  d->akeep = *flags.Finish();
#endif
  auto const& made = *d;
  cache[key] = std::move(d);
  return made;
}

/// Times `op(dataset)` on the pool; `bytes_per_row` as in run().
template <class T, class Op>
void run_typed(benchmark::State& state, bool nulls, double bytes_per_row, Op op) {
  auto const n = static_cast<std::size_t>(state.range(0));
  auto const& d = typed_data<T>(n, nulls);
  mr::scoped_default use_pool{pool_handle()};
  op(d);
  devcol::stream_ref{}.synchronize();
  for (auto _ : state) {
    op(d);
    devcol::stream_ref{}.synchronize();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(static_cast<double>(state.iterations()) * bytes_per_row *
                                                    static_cast<double>(n)));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
  state.counters["threads"] = bench_threads();
}

template <class T>
struct add_op {
  DEVCOL_HOST_DEVICE T operator()(T a, T b) const { return static_cast<T>(a + b); }
};

#if defined(DEVCOL_BENCH_WITH_ARROW)
namespace cp = arrow::compute;
/// `call(offset, length)` on `parts` slices of [0, rows) at once, one std::thread per slice
/// past the first; a failure throws.
template <class Call>
void arrow_split(std::int64_t rows, Call call) {
  int const parts = bench_threads();
  auto check = [](auto const& result) {
    if (!result.ok()) { throw std::runtime_error(result.status().ToString()); }
    benchmark::DoNotOptimize(result);
  };
  if (parts <= 1) {
    check(call(0, rows));
    return;
  }
  std::int64_t const per = (rows + parts - 1) / parts;
  std::vector<std::thread> threads;
  std::vector<std::optional<decltype(call(0, 0))>> results(static_cast<std::size_t>(parts));
  for (int p = 1; p < parts; ++p) {
    threads.emplace_back([&, p] {
      std::int64_t const begin = std::min(rows, p * per);
      results[static_cast<std::size_t>(p)].emplace(call(begin, std::min(rows - begin, per)));
    });
  }
  results[0].emplace(call(0, std::min(rows, per)));
  for (auto& t : threads) { t.join(); }
  for (auto const& r : results) { check(*r); }
}
#endif

template <class T>
void register_typed(std::int64_t rows) {
  namespace dv = devcol;
  for (bool const nulls : {false, true}) {
    std::string const suffix = std::string("/") + type_name<T>() + (nulls ? "_nulls" : "");
    auto add = [&](std::string const& name, double bytes, auto op) {
      benchmark::RegisterBenchmark((name + suffix).c_str(),
                                   [nulls, bytes, op](benchmark::State& state) { run_typed<T>(state, nulls, bytes, op); })
          ->Arg(rows)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    };
    double const w = sizeof(T);
    using D = typed_dataset<T>;
    [[maybe_unused]] T const threshold = std::is_floating_point_v<T> ? T(0) : T(500000);
    add("devcol_sum", w, [](D const& d) { benchmark::DoNotOptimize(dv::sum(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_sum", w, [](D const& d) {
      arrow_split(d.ax->length(), [&](std::int64_t o, std::int64_t l) { return cp::Sum(d.ax->Slice(o, l)); });
    });
#endif
    add("devcol_min", w, [](D const& d) { benchmark::DoNotOptimize(dv::min(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_min", w, [](D const& d) {
      arrow_split(d.ax->length(), [&](std::int64_t o, std::int64_t l) { return cp::CallFunction("min", {d.ax->Slice(o, l)}); });
    });
#endif
    add("devcol_max", w, [](D const& d) { benchmark::DoNotOptimize(dv::max(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_max", w, [](D const& d) {
      arrow_split(d.ax->length(), [&](std::int64_t o, std::int64_t l) { return cp::CallFunction("max", {d.ax->Slice(o, l)}); });
    });
#endif
    add("devcol_minmax", w, [](D const& d) { benchmark::DoNotOptimize(dv::minmax(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_min_max", w, [](D const& d) {
      arrow_split(d.ax->length(), [&](std::int64_t o, std::int64_t l) { return cp::MinMax(d.ax->Slice(o, l)); });
    });
#endif
    add("devcol_add", 3 * w, [](D const& d) { benchmark::DoNotOptimize(dv::transform(d.x, d.y, add_op<T>{})); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_add", 3 * w, [](D const& d) {
      arrow_split(d.ax->length(),
                  [&](std::int64_t o, std::int64_t l) { return cp::Add(d.ax->Slice(o, l), d.ay->Slice(o, l)); });
    });
#endif
    add("devcol_compare", w + 1, [threshold](D const& d) {
      benchmark::DoNotOptimize(dv::compare(d.x, dv::cmp::less, threshold));
    });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_compare", w + 1, [threshold](D const& d) {
      arrow_split(d.ax->length(), [&](std::int64_t o, std::int64_t l) {
        return cp::CallFunction("less", {d.ax->Slice(o, l), arrow::Datum(threshold)});
      });
    });
#endif
    if constexpr (!std::is_same_v<T, double>) {
      add("devcol_cast_to_double", w + 8, [](D const& d) { benchmark::DoNotOptimize(dv::cast<double>(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
      add("arrow_cast_to_double", w + 8, [](D const& d) {
        arrow_split(d.ax->length(),
                    [&](std::int64_t o, std::int64_t l) { return cp::Cast(d.ax->Slice(o, l), arrow::float64()); });
      });
#endif
    }
    add("devcol_gather", 4 + 2 * w, [](D const& d) { benchmark::DoNotOptimize(dv::gather(d.x, d.indices)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_take", 4 + 2 * w, [](D const& d) {
      arrow_split(d.aindices->length(),
                  [&](std::int64_t o, std::int64_t l) { return cp::Take(d.ax, d.aindices->Slice(o, l)); });
    });
#endif
    add("devcol_filter", 1 + 1.5 * w, [](D const& d) { benchmark::DoNotOptimize(dv::filter(d.x, d.keep)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_filter", 1 + 1.5 * w, [](D const& d) {
      arrow_split(d.ax->length(),
                  [&](std::int64_t o, std::int64_t l) { return cp::Filter(d.ax->Slice(o, l), d.akeep->Slice(o, l)); });
    });
#endif
    // devcol's scan skips nulls and leaves them null (pandas' skipna): Arrow's cumulative_sum with
    // skip_nulls, whose default instead makes every row after a null null.
    add("devcol_inclusive_scan", 2 * w,
        [](D const& d) { benchmark::DoNotOptimize(dv::inclusive_scan(d.x, dv::scan_op::sum)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_cumulative_sum", 2 * w, [](D const& d) {  // a scan carries across slices: one call
      cp::CumulativeOptions const skip_nulls(/*skip_nulls=*/true);
      auto result = cp::CallFunction("cumulative_sum", {d.ax}, &skip_nulls);
      if (!result.ok()) { throw std::runtime_error(result.status().ToString()); }
      benchmark::DoNotOptimize(result);
    });
#endif
    add("devcol_argsort", w + 8, [](D const& d) { benchmark::DoNotOptimize(dv::argsort(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_sort_indices", w + 8, [](D const& d) {
      auto result = cp::SortIndices(*d.ax);
      if (!result.ok()) { throw std::runtime_error(result.status().ToString()); }
      benchmark::DoNotOptimize(result);
    });
#endif
    // Arrow has no sort of an array's values: sort_indices and take are how its users get one.
    add("devcol_sort", 2 * w, [](D const& d) { benchmark::DoNotOptimize(dv::sort(d.x)); });
#if defined(DEVCOL_BENCH_WITH_ARROW)
    add("arrow_sort_indices_take", 2 * w, [](D const& d) {
      auto indices = cp::SortIndices(*d.ax);
      if (!indices.ok()) { throw std::runtime_error(indices.status().ToString()); }
      auto sorted = cp::Take(d.ax, *indices);
      if (!sorted.ok()) { throw std::runtime_error(sorted.status().ToString()); }
      benchmark::DoNotOptimize(sorted);
    });
#endif
  }
}

bool initialize() {
  std::int64_t const rows = row_count();
  for (auto const& [name, fn] : listed()) {
    benchmark::RegisterBenchmark(name, fn)->Arg(rows)->Unit(benchmark::kMillisecond)->UseRealTime();
  }
  register_typed<std::int64_t>(rows);
  register_typed<double>(rows);
#if !DEVCOL_BACKEND_CUDA  // the peer is Arrow on the host; on CUDA two types keep nvcc's time in CI down
  register_typed<std::int32_t>(rows);
  register_typed<float>(rows);
#endif
#if defined(DEVCOL_BENCH_WITH_ARROW)
  if (!arrow::SetCpuThreadPoolCapacity(bench_threads()).ok()) { return false; }
#endif
  return devcol_bench::initialize_arrow();
}
}  // namespace

DEVCOL_BENCH_MAIN_WITH(initialize)
