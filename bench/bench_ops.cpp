// The ops on 2^24 and 2^27 rows: bytes moved per second against memcpy's in the same run, and,
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
#include <vector>

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

void rows(benchmark::internal::Benchmark* b) { b->Arg(std::int64_t{1} << 24)->Arg(std::int64_t{1} << 27)->Unit(benchmark::kMillisecond)->UseRealTime(); }

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
BENCHMARK(memcpy_baseline)->Apply(rows);

#define DEVCOL_OP_BENCH(name, bytes, expr)                                                   \
  void devcol_##name(benchmark::State& state) {                                              \
    run(state, bytes, [](dataset const& d) { benchmark::DoNotOptimize(expr); });             \
  }                                                                                          \
  BENCHMARK(devcol_##name)->Apply(rows)

struct doubled {
  DEVCOL_HOST_DEVICE i64 operator()(i64 v) const { return v * 2; }
};
struct plus {
  DEVCOL_HOST_DEVICE i64 operator()(i64 a, i64 b) const { return a + b; }
};

DEVCOL_OP_BENCH(sum, 8, devcol::sum(d.x));
DEVCOL_OP_BENCH(min, 8, devcol::min(d.x));
DEVCOL_OP_BENCH(max, 8, devcol::max(d.x));
DEVCOL_OP_BENCH(minmax, 8, devcol::minmax(d.x));
DEVCOL_OP_BENCH(copy, 16, devcol::copy(d.x));
DEVCOL_OP_BENCH(transform, 16, devcol::transform(d.x, doubled{}));
DEVCOL_OP_BENCH(add, 24, devcol::transform(d.x, d.y, plus{}));
DEVCOL_OP_BENCH(compare, 9, devcol::compare(d.x, devcol::cmp::less, i64{500000}));
DEVCOL_OP_BENCH(cast_to_double, 16, devcol::cast<double>(d.x));
DEVCOL_OP_BENCH(gather, 20, devcol::gather(d.x, d.indices, {}, devcol::out_of_bounds::nullify));
DEVCOL_OP_BENCH(filter, 13, devcol::filter(d.x, d.keep));
DEVCOL_OP_BENCH(inclusive_scan, 16, devcol::inclusive_scan(d.x, devcol::scan_op::sum));
DEVCOL_OP_BENCH(sort, 16, devcol::sort(d.x));
DEVCOL_OP_BENCH(argsort, 16, devcol::argsort(d.x));
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
    BENCHMARK(thrust_##name)->Apply(rows)

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
BENCHMARK(devcol_fill)->Apply(rows);

#if defined(DEVCOL_BENCH_WITH_ARROW)
namespace cp = arrow::compute;
#  define ARROW_OP_BENCH(name, bytes, expr)                                          \
    void arrow_##name(benchmark::State& state) {                                     \
      run(state, bytes, [](dataset const& d) {                                       \
        auto result = expr;                                                          \
        if (!result.ok()) { throw std::runtime_error(result.status().ToString()); }  \
        benchmark::DoNotOptimize(result);                                            \
      });                                                                            \
    }                                                                                \
    BENCHMARK(arrow_##name)->Apply(rows)

ARROW_OP_BENCH(sum, 8, cp::Sum(d.ax));
ARROW_OP_BENCH(min_max, 8, cp::MinMax(d.ax));
ARROW_OP_BENCH(add, 24, cp::Add(d.ax, d.ay));
ARROW_OP_BENCH(compare, 9, cp::CallFunction("less", {d.ax, arrow::Datum(i64{500000})}));
ARROW_OP_BENCH(cast_to_double, 16, cp::Cast(d.ax, arrow::float64()));
ARROW_OP_BENCH(take, 20, cp::Take(d.ax, d.aindices));
ARROW_OP_BENCH(filter, 13, cp::Filter(d.ax, d.akeep));
ARROW_OP_BENCH(sort_indices, 16, cp::SortIndices(*d.ax));
ARROW_OP_BENCH(min_max_double_nan, 8, cp::MinMax(d.afx));
ARROW_OP_BENCH(sort_indices_double_nan, 16, cp::SortIndices(*d.afx));
#endif

}  // namespace

DEVCOL_BENCH_MAIN_WITH(devcol_bench::initialize_arrow)
