// The kinds beside fixed-width and strings: decimal128, fixed-size binary (16 bytes), a list of
// int32, a struct of int64 and double, and a dictionary of 1000 strings with int32 indices, each
// devcol_<op> beside its Arrow C++ peer arrow_<op> (from the pyarrow wheel), on the very same
// memory: each column goes to Arrow through devcol's zero-copy export (the C Device Data
// Interface) and Arrow's import. 2^22 rows, about one in ten null; int32 indices uniform in range
// (checked, as Arrow's `take` checks them); keep flags about half true; compare: `less` than a
// scalar. Results from a pool (devcol) and Arrow's default pool: steady state. Arrow's calls are not
// split over threads: compare at one thread (OMP_NUM_THREADS=1), as RESULTS.md does. Host backend
// with Arrow only.
#include "bench_main.hpp"

#include <devcol/devcol.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(DEVCOL_BENCH_WITH_ARROW)
#  include <arrow/api.h>
#  include <arrow/c/bridge.h>
#  include <arrow/compute/api.h>
#endif

namespace {

namespace mr = devcol::mr;

constexpr std::size_t rows = std::size_t{1} << 22;

struct dataset {
  devcol::decimal128_column dec;
  devcol::fixed_size_binary_column<> fsb;
  devcol::list_column list;
  devcol::struct_column<> record;   // struct<a: int64, b: double>, its own nulls and the children's
  devcol::dictionary_column<> dict;  // int32 indices (their nulls the rows') into 1000 strings
  devcol::column<std::int32_t> indices;  // random, in range, no nulls
  devcol::column<bool> keep;             // about half true, no nulls
  devcol::int128_t threshold = 0;        // the decimal compare's scalar (unscaled)
#if defined(DEVCOL_BENCH_WITH_ARROW)
  std::shared_ptr<arrow::Array> adec, afsb, alist, arecord, adict, aindices, akeep;
#endif
};

mr::resource_handle const& pool_handle() {
  static mr::resource_handle const handle = mr::make_resource_handle<mr::pool<mr::host_aligned>>("bench-pool");
  return handle;
}

#if defined(DEVCOL_BENCH_WITH_ARROW)
/// `col` as an Arrow array over the same buffers: devcol's export, Arrow's import (zero-copy).
template <class C>
std::shared_ptr<arrow::Array> to_arrow_array(C const& col) {
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(col, &schema, &array);
  auto imported = arrow::ImportDeviceArray(&array, &schema);
  if (!imported.ok()) { throw std::runtime_error(imported.status().ToString()); }
  if (!(*imported)->ValidateFull().ok()) { throw std::runtime_error("the Arrow view of the dataset is invalid"); }
  return *imported;
}
#endif

std::unique_ptr<dataset> make_dataset() {
  mr::scoped_default use_pool{pool_handle()};
  std::mt19937_64 rng(22);
  std::vector<std::optional<devcol::int128_t>> dec(rows);
  std::vector<std::optional<std::string>> fsb(rows);
  std::vector<std::int32_t> offsets(rows + 1, 0);
  std::vector<std::int32_t> elements;
  std::vector<bool> valid(rows);
  std::vector<std::optional<std::int64_t>> field_a(rows);
  std::vector<std::optional<double>> field_b(rows);
  std::vector<std::optional<std::int32_t>> codes(rows);
  std::vector<std::int32_t> idx(rows);
  std::vector<bool> keep(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    bool const null = rng() % 10 == 0;
    // decimal128(38, 2) values past 64 bits, of either sign
    auto const wide = (static_cast<devcol::int128_t>(rng()) << 40) - (static_cast<devcol::int128_t>(1) << 100);
    if (!null) { dec[i] = wide; }
    std::string bytes(16, '\0');
    for (auto& c : bytes) { c = static_cast<char>(rng()); }
    if (!null) { fsb[i] = bytes; }
    valid[i] = !null;
    std::size_t const length = null ? 0 : rng() % 9;
    for (std::size_t k = 0; k < length; ++k) { elements.push_back(static_cast<std::int32_t>(rng())); }
    offsets[i + 1] = static_cast<std::int32_t>(elements.size());
    if (rng() % 10 != 0) { field_a[i] = static_cast<std::int64_t>(rng()); }
    if (rng() % 10 != 0) { field_b[i] = static_cast<double>(rng() % 1000000) / 7.0; }
    if (!null) { codes[i] = static_cast<std::int32_t>(rng() % 1000); }
    idx[i] = static_cast<std::int32_t>(rng() % rows);
    keep[i] = (rng() & 1U) != 0;
  }
  auto out = std::make_unique<dataset>();
  out->dec = devcol::make_decimal_column<devcol::int128_t>(dec, 38, 2);
  out->fsb = devcol::make_fixed_size_binary_column(fsb, 16);
  out->list = devcol::make_list_column(offsets, devcol::make_column<std::int32_t>(elements), valid);
  out->record = devcol::make_struct_column(
      {{"a", devcol::make_column<std::int64_t>(field_a)}, {"b", devcol::make_column<double>(field_b)}}, valid);
  std::vector<std::optional<std::string>> words(1000);
  for (std::size_t w = 0; w < words.size(); ++w) { words[w] = "word-" + std::to_string(w * 7919 % 100003); }
  out->dict =
      devcol::make_dictionary_column(devcol::make_column<std::int32_t>(codes), devcol::make_strings_column(words));
  out->indices = devcol::make_column<std::int32_t>(idx);
  out->keep = devcol::make_column<bool>(keep);
#if defined(DEVCOL_BENCH_WITH_ARROW)
  out->adec = to_arrow_array(out->dec);
  out->afsb = to_arrow_array(out->fsb);
  out->alist = to_arrow_array(out->list);
  out->arecord = to_arrow_array(out->record);
  out->adict = to_arrow_array(out->dict);
  out->aindices = to_arrow_array(out->indices);
  out->akeep = devcol_bench::arrow_flags(keep);
#endif
  return out;
}

dataset const& data() {
  static std::unique_ptr<dataset> const d = make_dataset();
  return *d;
}

/// The body of benchmark `name`: `expr` (which reads `d`) timed on the pool, rows per second.
#define DEVCOL_KIND_BENCH_AS(name, expr)                                                      \
  void name(benchmark::State& state) {                                                        \
    dataset const& d = data();                                                                \
    mr::scoped_default use_pool{pool_handle()};                                               \
    devcol_bench::steady_loop(state, [&] { expr; });                                          \
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(rows));            \
  }                                                                                           \
  BENCHMARK(name)->Unit(benchmark::kMillisecond)->UseRealTime()

#define DEVCOL_KIND_BENCH(name, expr) DEVCOL_KIND_BENCH_AS(devcol_##name, benchmark::DoNotOptimize(expr))

DEVCOL_KIND_BENCH(decimal128_gather, devcol::gather(d.dec, d.indices));
DEVCOL_KIND_BENCH(decimal128_filter, devcol::filter(d.dec, d.keep));
DEVCOL_KIND_BENCH(decimal128_compare, devcol::compare(d.dec, devcol::cmp::less, d.threshold));
DEVCOL_KIND_BENCH(decimal128_argsort, devcol::argsort(d.dec));
DEVCOL_KIND_BENCH(fixed_size_binary_gather, devcol::gather(d.fsb, d.indices));
DEVCOL_KIND_BENCH(fixed_size_binary_filter, devcol::filter(d.fsb, d.keep));
DEVCOL_KIND_BENCH(list_gather, devcol::gather(d.list, d.indices));
DEVCOL_KIND_BENCH(list_filter, devcol::filter(d.list, d.keep));
DEVCOL_KIND_BENCH(struct_gather, devcol::gather(d.record, d.indices));
DEVCOL_KIND_BENCH(struct_filter, devcol::filter(d.record, d.keep));
DEVCOL_KIND_BENCH(dictionary_gather, devcol::gather(d.dict, d.indices));
DEVCOL_KIND_BENCH(dictionary_filter, devcol::filter(d.dict, d.keep));

#if defined(DEVCOL_BENCH_WITH_ARROW)
namespace cp = arrow::compute;

using devcol_bench::check;

#  define ARROW_KIND_BENCH(name, expr) DEVCOL_KIND_BENCH_AS(arrow_##name, check(expr))

ARROW_KIND_BENCH(decimal128_take, cp::Take(d.adec, d.aindices));
ARROW_KIND_BENCH(decimal128_filter, cp::Filter(d.adec, d.akeep));
ARROW_KIND_BENCH(decimal128_compare,
                 cp::CallFunction("less", {d.adec, arrow::Datum(std::make_shared<arrow::Decimal128Scalar>(
                                                      arrow::Decimal128(0), d.adec->type()))}));
ARROW_KIND_BENCH(decimal128_sort_indices, cp::SortIndices(*d.adec));
ARROW_KIND_BENCH(fixed_size_binary_take, cp::Take(d.afsb, d.aindices));
ARROW_KIND_BENCH(fixed_size_binary_filter, cp::Filter(d.afsb, d.akeep));
ARROW_KIND_BENCH(list_take, cp::Take(d.alist, d.aindices));
ARROW_KIND_BENCH(list_filter, cp::Filter(d.alist, d.akeep));
ARROW_KIND_BENCH(struct_take, cp::Take(d.arecord, d.aindices));
ARROW_KIND_BENCH(struct_filter, cp::Filter(d.arecord, d.akeep));
ARROW_KIND_BENCH(dictionary_take, cp::Take(d.adict, d.aindices));
ARROW_KIND_BENCH(dictionary_filter, cp::Filter(d.adict, d.akeep));
#endif

}  // namespace

DEVCOL_BENCH_MAIN_WITH(devcol_bench::initialize_arrow)
