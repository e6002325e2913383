// Gather, filter, compare (`less` than a scalar), length and argsort of a 2^24-row strings column
// (lengths uniform in [0, 32] bytes, about one row in eight null), devcol_<op> against Arrow C++
// compute's arrow_<op> (`take`, `filter`, `less`, `binary_length`, `sort_indices`; from the pyarrow
// wheel) in the same run, on the very same memory: Arrow's array wraps devcol's buffers zero-copy.
// The sorts take the first 2^20 rows (a slice, O(1) in both), so a run stays minutes long.
// Results come from a pool, as RMM and cuDF run: steady state, no page faults inside the loop.
// On the CUDA backend the memory is the device's (no Arrow), each iteration ends with the stream
// synchronised, and the baseline is a device-to-device copy.
#include "bench_main.hpp"

#include <devcol/devcol.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#if defined(DEVCOL_BENCH_WITH_ARROW)
#  include <arrow/api.h>
#  include <arrow/compute/api.h>
#endif

namespace {

namespace mr = devcol::mr;

constexpr std::size_t rows = std::size_t{1} << 24;
constexpr std::size_t sort_rows = std::size_t{1} << 20;
constexpr std::string_view threshold = "m";  // compare: about half the rows are less

struct dataset {
  devcol::strings_column s;
  devcol::column<std::int32_t> indices;  // random, in range
  devcol::column<bool> keep;             // about half true
  std::size_t bytes = 0;                 // of characters
#if defined(DEVCOL_BENCH_WITH_ARROW)
  std::shared_ptr<arrow::Array> as, aindices, akeep;
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

/// A host vector's bytes in a new devcol buffer (the pool's).
template <class T>
devcol::buffer<> to_buffer(std::vector<T> const& v) {
  devcol::buffer<> b(v.size() * sizeof(T));
  devcol::copy_bytes(b.data(devcol::access::write), v.data(), v.size() * sizeof(T), {});
  return b;
}

dataset const& data() {
  static std::unique_ptr<dataset> const d = [] {
    mr::scoped_default use_pool{pool_handle()};
    std::mt19937_64 rng(24);
    std::vector<std::int32_t> offsets(rows + 1, 0);
    std::vector<char> chars;
    chars.reserve(rows * 17);
    std::vector<devcol::bitmask_word> mask(devcol::bitmask_allocation_size(rows) / sizeof(devcol::bitmask_word), 0);
    std::size_t nulls = 0;
    std::vector<std::int32_t> idx(rows);
    std::vector<bool> keep(rows);
    for (std::size_t i = 0; i < rows; ++i) {
      if (rng() % 8 == 0) {
        ++nulls;
      } else {
        mask[i / 64] |= devcol::bitmask_word{1} << (i % 64);
        std::size_t const n = rng() % 33;
        for (std::size_t k = 0; k < n; ++k) { chars.push_back(static_cast<char>('a' + rng() % 26)); }
      }
      offsets[i + 1] = static_cast<std::int32_t>(chars.size());
      idx[i] = static_cast<std::int32_t>(rng() % rows);
      keep[i] = (rng() & 1U) != 0;
    }
    auto out = std::make_unique<dataset>();
    out->bytes = chars.size();
    out->s = devcol::strings_column(to_buffer(offsets), to_buffer(chars), to_buffer(mask), rows, nulls);
    out->indices = devcol::make_column<std::int32_t>(idx);
    out->keep = devcol::make_column<bool>(keep);
#if defined(DEVCOL_BENCH_WITH_ARROW)
    auto wrap = [](devcol::buffer<> const& b) {
      return std::make_shared<arrow::Buffer>(static_cast<std::uint8_t const*>(b.data(devcol::access::read)),
                                             static_cast<std::int64_t>(b.size()));
    };
    auto const n = static_cast<std::int64_t>(rows);
    out->as = arrow::MakeArray(arrow::ArrayData::Make(
        arrow::utf8(), n, {wrap(out->s.mask_buffer()), wrap(out->s.offsets_buffer()), wrap(out->s.chars_buffer())},
        static_cast<std::int64_t>(nulls)));
    auto const idx_buffer = std::make_shared<arrow::Buffer>(
        reinterpret_cast<std::uint8_t const*>(out->indices.data(devcol::access::read)), n * 4);
    out->aindices = arrow::MakeArray(arrow::ArrayData::Make(arrow::int32(), n, {nullptr, idx_buffer}));
    out->akeep = devcol_bench::arrow_flags(keep);
    if (!out->as->ValidateFull().ok()) { throw std::runtime_error("the Arrow view of the dataset is invalid"); }
#endif
    return out;
  }();
  return *d;
}

/// Runs `op` in the loop on the pool; reports rows per second and the input's bytes (offsets and
/// characters) per second.
template <class Op>
void run(benchmark::State& state, Op op) {
  auto const& d = data();
  mr::scoped_default use_pool{pool_handle()};
  devcol_bench::steady_loop(state, [&] { op(d); });
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rows));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(d.bytes + 4 * rows));
}

void memcpy_baseline(benchmark::State& state) {  // the characters and offsets copied once
  run(state, [](dataset const& d) {
#if DEVCOL_BACKEND_CUDA
    static devcol::buffer<> dst(d.bytes + 4 * rows);  // from the pool: run() made it the default
    auto* out = static_cast<char*>(dst.data(devcol::access::write));
    devcol::copy_bytes(out, d.s.chars(devcol::access::read), d.bytes, {});
    devcol::copy_bytes(out + d.bytes, d.s.offsets(devcol::access::read), 4 * rows, {});
#else
    static std::vector<char> dst;
    dst.resize(d.bytes + 4 * rows);
    std::memcpy(dst.data(), d.s.chars(devcol::access::read), d.bytes);
    std::memcpy(dst.data() + d.bytes, d.s.offsets(devcol::access::read), 4 * rows);
    benchmark::ClobberMemory();
#endif
  });
}
BENCHMARK(memcpy_baseline)->Unit(benchmark::kMillisecond)->UseRealTime();

void devcol_strings_gather(benchmark::State& state) {
  run(state, [](dataset const& d) { benchmark::DoNotOptimize(devcol::gather(d.s, d.indices)); });
}
BENCHMARK(devcol_strings_gather)->Unit(benchmark::kMillisecond)->UseRealTime();

void devcol_strings_filter(benchmark::State& state) {
  run(state, [](dataset const& d) { benchmark::DoNotOptimize(devcol::filter(d.s, d.keep)); });
}
BENCHMARK(devcol_strings_filter)->Unit(benchmark::kMillisecond)->UseRealTime();

void devcol_strings_compare(benchmark::State& state) {
  run(state, [](dataset const& d) { benchmark::DoNotOptimize(devcol::compare(d.s, devcol::cmp::less, threshold)); });
}
BENCHMARK(devcol_strings_compare)->Unit(benchmark::kMillisecond)->UseRealTime();

void devcol_strings_length(benchmark::State& state) {
  run(state, [](dataset const& d) { benchmark::DoNotOptimize(devcol::length(d.s)); });
}
BENCHMARK(devcol_strings_length)->Unit(benchmark::kMillisecond)->UseRealTime();

void devcol_strings_argsort(benchmark::State& state) {
  run(state, [](dataset const& d) { benchmark::DoNotOptimize(devcol::argsort(d.s.slice(0, sort_rows))); });
}
BENCHMARK(devcol_strings_argsort)->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(DEVCOL_BENCH_WITH_ARROW)
namespace cp = arrow::compute;

using devcol_bench::check;

void arrow_strings_take(benchmark::State& state) {
  run(state, [](dataset const& d) { check(cp::Take(d.as, d.aindices)); });
}
BENCHMARK(arrow_strings_take)->Unit(benchmark::kMillisecond)->UseRealTime();

void arrow_strings_filter(benchmark::State& state) {
  run(state, [](dataset const& d) { check(cp::Filter(d.as, d.akeep)); });
}
BENCHMARK(arrow_strings_filter)->Unit(benchmark::kMillisecond)->UseRealTime();

void arrow_strings_compare(benchmark::State& state) {
  run(state, [](dataset const& d) {
    check(cp::CallFunction("less", {d.as, arrow::Datum(std::make_shared<arrow::StringScalar>(std::string(threshold)))}));
  });
}
BENCHMARK(arrow_strings_compare)->Unit(benchmark::kMillisecond)->UseRealTime();

void arrow_strings_binary_length(benchmark::State& state) {
  run(state, [](dataset const& d) { check(cp::CallFunction("binary_length", {d.as})); });
}
BENCHMARK(arrow_strings_binary_length)->Unit(benchmark::kMillisecond)->UseRealTime();

void arrow_strings_sort_indices(benchmark::State& state) {
  run(state, [](dataset const& d) { check(cp::SortIndices(*d.as->Slice(0, static_cast<std::int64_t>(sort_rows)))); });
}
BENCHMARK(arrow_strings_sort_indices)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

DEVCOL_BENCH_MAIN_WITH(devcol_bench::initialize_arrow)
