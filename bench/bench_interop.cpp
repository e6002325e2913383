// Arrow C Device Data Interface costs: export + release, and import + drop, of a 1e3-row and a
// 1e8-row column, with and without nulls. Fixed-width columns cross zero-copy, so both must cost
// the same at both sizes (O(1): no device work, no copy, the null count already known). bool is
// the exception, labelled: Arrow packs it one bit per row, devcol stores a byte, so export packs
// and import unpacks (O(n), one pass each).
//
// Import takes ownership of what it imports, so each iteration imports a fresh copy of one devcol
// export whose release (and its schema's) does nothing: the import is timed on its own, on the very
// structs, buffers and private data a devcol export made. Columns and the packed bitmaps come from a
// pool, as RMM and cuDF run (steady state: no page faults from fresh memory inside the loop).
#include <devcol/devcol.hpp>

#include "bench_main.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <type_traits>

namespace {

namespace mr = devcol::mr;

#if DEVCOL_BACKEND_CUDA
using upstream_type = mr::cuda_device;
#else
using upstream_type = mr::host_aligned;
#endif

mr::resource_handle const& pool_handle() {
  static mr::resource_handle const handle = mr::make_resource_handle<mr::pool<upstream_type>>("bench-pool");
  return handle;
}

/// `rows` rows of `T`; with `nulls`, every odd row is null (the count known, as devcol keeps it).
template <class T>
devcol::column<T> make(std::size_t rows, bool nulls) {
  devcol::column<T> values = [&] {
    if constexpr (std::is_same_v<T, bool>) {
      return devcol::full<bool>(rows, true);
    } else {
      return devcol::sequence<T>(rows);
    }
  }();
  if (!nulls) { return values; }
  std::size_t const bytes = devcol::bitmask_allocation_size(rows);
  typename devcol::column<T>::buffer_type mask(bytes);
  devcol::fill_bytes(mask.data(devcol::access::write), 0x55, bytes, {});  // bits 0, 2, 4, ... set
  devcol::stream_ref{}.synchronize();
  return devcol::column<T>(values.data_buffer(), std::move(mask), rows, rows / 2);
}

/// One column per (type, rows, nulls), kept for the whole run (1e8 int64: 800 MB).
template <class T>
devcol::column<T> const& data(std::size_t rows, bool nulls) {
  (void)pool_handle();  // made first, so destroyed after the columns it holds
  static std::map<std::pair<std::size_t, bool>, devcol::column<T>> cache;
  auto const key = std::pair{rows, nulls};
  if (auto const found = cache.find(key); found != cache.end()) { return found->second; }
  mr::scoped_default use_pool{pool_handle()};
  return cache.emplace(key, make<T>(rows, nulls)).first->second;
}

template <class T>
constexpr char const* cost_label() {
  return std::is_same_v<T, bool> ? "O(n): bool is bit-packed" : "O(1): zero-copy, no device work";
}

template <class T>
void export_release(benchmark::State& state) {
  auto const& col = data<T>(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  for (auto _ : state) {
    devcol::to_arrow(col, &schema, &array);
    benchmark::DoNotOptimize(array);
    schema.release(&schema);
    array.array.release(&array.array);
  }
  state.SetLabel(cost_label<T>());
}

void no_release(ArrowSchema* schema) noexcept { schema->release = nullptr; }
void no_release(ArrowArray* array) noexcept { array->release = nullptr; }

template <class T>
void import_drop(benchmark::State& state) {
  auto const& col = data<T>(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
  ArrowSchema exported_schema{};
  ArrowDeviceArray exported_array{};
  devcol::to_arrow(col, &exported_schema, &exported_array);
  {
    mr::scoped_default use_pool{pool_handle()};  // bool's unpacked rows
    for (auto _ : state) {
      ArrowSchema schema = exported_schema;
      ArrowDeviceArray array = exported_array;
      schema.release = &no_release;
      array.array.release = &no_release;
      {
        auto imported = devcol::from_arrow<T>(&schema, &array);
        benchmark::DoNotOptimize(imported);
      }  // dropped: the (no-op) release runs here
    }
  }
  exported_schema.release(&exported_schema);
  exported_array.array.release(&exported_array.array);
  state.SetLabel(cost_label<T>());
}

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "nulls"})->ArgsProduct({{1000, 100000000}, {0, 1}});
}

BENCHMARK(export_release<std::int64_t>)->Name("export_release/int64")->Apply(sizes);
BENCHMARK(import_drop<std::int64_t>)->Name("import_drop/int64")->Apply(sizes);
BENCHMARK(export_release<bool>)->Name("export_release/bool")->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(import_drop<bool>)->Name("import_drop/bool")->Apply(sizes)->Unit(benchmark::kMicrosecond);

}  // namespace

DEVCOL_BENCH_MAIN()
