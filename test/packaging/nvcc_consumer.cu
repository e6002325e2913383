// A consumer compiled as its users compile it: `nvcc -std=c++20 -arch=sm_90 -I<include>` and no
// other flag (no --extended-lambda, no --expt-relaxed-constexpr), to real SASS so that ptxas runs
// over every kernel. It instantiates every layer for every kind and a call of each operation; it
// only needs to compile and link (CI has no GPU), so its main never runs them unless asked.
#include <devcol/devcol.hpp>
#include <devcol/interop/arrow_stream.hpp>
#include <devcol/interop/dlpack.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace mr = devcol::mr;
using i64 = std::int64_t;

/// A transform as users write it without extended lambdas: a named device-callable functor.
struct scale_by {
  i64 factor;
  DEVCOL_HOST_DEVICE i64 operator()(i64 v) const noexcept { return v * factor; }
};
struct add {
  DEVCOL_HOST_DEVICE double operator()(double a, double b) const noexcept { return a + b; }
};

struct spilling : devcol::default_policy {
  using spill = devcol::spillable;
};
struct pooled : devcol::default_policy {
  using resource = mr::statistics<mr::pool<mr::cuda_async>>;
};

/// Every op over fixed-width columns of a few types.
void fixed_width(devcol::stream_ref s) {
  auto a = devcol::make_column<i64>({1, std::nullopt, 3, 4}, s);
  auto b = devcol::sequence<i64>(4, 0, 1, s);
  auto f = devcol::make_column<double>({0.5, -1.0, std::nullopt, 2.0}, s);
  auto i = devcol::make_column<std::int32_t>({3, 0, std::nullopt}, s);
  auto keep = devcol::make_column<bool>({true, false, std::nullopt, true}, s);
  auto t = devcol::full<devcol::timestamp_ms>(4, devcol::timestamp_ms{devcol::duration_ms{5}}, s);
  auto u = devcol::full<std::uint8_t>(4, std::nullopt, s);
  (void)devcol::to_host(t);
  (void)devcol::to_host(u);

  (void)devcol::transform(a, scale_by{2}, s);
  (void)devcol::transform(f, f, add{}, s);
  (void)devcol::compare(a, devcol::cmp::less, i64{3}, s);
  (void)devcol::compare(a, devcol::cmp::equal, b, s);
  (void)devcol::compare(f, devcol::cmp::greater, f, s);
  (void)devcol::cast<double>(a, s);
  (void)devcol::cast<std::int32_t>(f, s);
  (void)devcol::cast<devcol::timestamp_s>(t, s);
  (void)devcol::gather(a, i, s);
  (void)devcol::gather(f, i, s, devcol::out_of_bounds::nullify);
  devcol::scatter(b.slice(0, 3), i, a, s);
  (void)devcol::filter(a, keep, s);
  (void)devcol::concatenate(std::vector{a, b}, s);
  (void)devcol::sum(a, s);
  (void)devcol::product(b, s);
  (void)devcol::min(f, s);
  (void)devcol::max(a, s);
  (void)devcol::minmax(f, s);
  (void)devcol::mean(f, s);
  (void)devcol::any(keep, s);
  (void)devcol::all(keep, s);
  (void)devcol::inclusive_scan(a, devcol::scan_op::sum, s);
  (void)devcol::exclusive_scan(f, devcol::scan_op::max, s);
  (void)devcol::sort(a, devcol::order::ascending, s);
  (void)devcol::sort(f, devcol::order::descending, s, devcol::null_order::first);
  (void)devcol::argsort(f, devcol::order::ascending, s);
  (void)devcol::is_sorted(a, devcol::order::ascending, s);
  (void)devcol::is_null(a, s);
  (void)devcol::is_valid(f, s);
  (void)devcol::fill_null(a, i64{0}, s);
  (void)devcol::set_null_mask(b, keep, s);
  (void)devcol::drop_null_mask(a);
  devcol::fill(b, i64{7}, s);
  (void)devcol::copy(f, s);
  devcol::copy_into(a, b, s);

  devcol::table tbl;
  tbl.add("a", a).add("f", f).add("keep", keep);
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(tbl, &schema, &array, s);
  (void)devcol::table_from_arrow(&schema, &array, s);
  devcol::to_arrow(a, &schema, &array, s);
  (void)devcol::from_arrow<i64>(&schema, &array, s);
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector{tbl, tbl}, &stream, s);
  (void)devcol::tables_from_arrow(&stream, s);

  auto dense = b.deep_copy(s);
  (void)devcol::from_dlpack<i64>(devcol::to_dlpack(dense, s), s);
}

/// Strings, lists, structs, dictionaries, decimals and fixed-size binary, through every layer.
void other_kinds(devcol::stream_ref s) {
  auto str = devcol::make_strings_column({"ab", std::nullopt, "", "xyz"}, s);
  auto idx = devcol::make_column<std::int32_t>({3, 0, std::nullopt}, s);
  auto keep = devcol::make_column<bool>({true, false, std::nullopt, true}, s);
  (void)devcol::compare(str, devcol::cmp::less, str, s);
  (void)devcol::compare(str, devcol::cmp::equal, "ab", s);
  (void)devcol::sort(str, devcol::order::ascending, s);
  (void)devcol::argsort(str, devcol::order::descending, s);
  (void)devcol::is_sorted(str, devcol::order::ascending, s);
  (void)devcol::length(str, s);
  (void)devcol::hash(str, 0, s);
  (void)devcol::fill_null(str, "none", s);
  (void)devcol::is_null(str, s);
  (void)devcol::to_host(str);

  auto list = devcol::make_list_column<std::int32_t>({0, 2, 2, 3, 4}, devcol::any_column<>{devcol::make_column<i64>({1, 2, 3, 4}, s)},
                                                     {true, false, true, true}, s);
  auto structs = devcol::make_struct_column({{"s", str}, {"v", devcol::make_column<i64>({1, 2, 3, 4}, s)}}, {}, s);
  auto dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1, std::nullopt, 0}, s),
                                             devcol::make_strings_column({"red", "blue"}, s), s);
  auto dec = devcol::make_decimal_column<std::int64_t>(std::vector<std::optional<std::int64_t>>{1, std::nullopt, 3, 4}, 12, 2, s);
  auto dec128 = devcol::make_decimal_column<devcol::int128_t>(
      std::vector<std::optional<devcol::int128_t>>{1, 2, std::nullopt, 4}, 38, 4, s);
  auto bin = devcol::make_fixed_size_binary_column({"abc", std::nullopt, "def", "ghi"}, 3, s);
  (void)devcol::compare(dec, devcol::cmp::less, dec, s);
  (void)devcol::sort(dec128, devcol::order::ascending, s);
  (void)devcol::argsort(dec, devcol::order::ascending, s);
  (void)devcol::large_strings_column{};

  // The newer kinds: a date with an order, a storage-only half float, a dictionary with uint8
  // indices, and an export that carries a field_info.
  auto date = devcol::make_column<devcol::date32>({devcol::date32(devcol::date32::duration(2)), std::nullopt}, s);
  (void)devcol::sort(date, devcol::order::ascending, s);
  (void)devcol::compare(date, devcol::cmp::less, date, s);
  auto half = devcol::make_column<devcol::float16>(
      {devcol::float16{0x3C00}, devcol::float16{0}, std::nullopt, devcol::float16{0x4000}}, s);
  auto small_dict = devcol::make_dictionary_column(devcol::make_column<std::uint8_t>({1, 0, std::nullopt, 1}, s),
                                                   devcol::make_strings_column({"x", "y"}, s), s);
  {
    devcol::field_info info;
    info.time_zone = "UTC";
    ArrowSchema schema{};
    ArrowDeviceArray array{};
    devcol::to_arrow(devcol::make_column<devcol::timestamp_ns>({devcol::timestamp_ns{}}, s), &schema, &array, s, info);
    (void)devcol::any_from_arrow(&schema, &array, s, &info);
  }

  auto runs = devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<std::int32_t>({1, 4}, s)),
                                                  devcol::any_column<>(str.slice(0, 2, s)), s);
  auto ints = devcol::any_column<>(devcol::make_column<i64>({1, 2, 3, 4}, s));
  auto sparse_union = devcol::make_union_column(devcol::union_mode::sparse, {3, 7}, {{"s", str}, {"i", ints}},
                                                {3, 7, 7, 3}, {}, s);
  auto dense_union = devcol::make_union_column(devcol::union_mode::dense, {3, 7}, {{"s", str}, {"i", ints}},
                                               {3, 7, 7, 3}, {0, 0, 3, 1}, s);
  std::vector<devcol::any_column<>> const kinds{str,  list, structs,    dict, dec,          dec128,
                                                bin,  half, small_dict, runs, sparse_union, dense_union};
  for (auto const& c : kinds) {
    (void)devcol::gather(c, idx, s);
    (void)devcol::filter(c, keep, s);
    (void)devcol::concatenate(std::vector<devcol::any_column<>>{c, c}, s);
    (void)devcol::is_valid(c, s);
    (void)devcol::to_host_values(c);
    ArrowSchema schema{};
    ArrowDeviceArray array{};
    devcol::to_arrow(c, &schema, &array, s);
    (void)devcol::any_from_arrow(&schema, &array, s);
  }
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::to_arrow(str, &schema, &array, s);
  (void)devcol::from_arrow<devcol::strings_column>(&schema, &array, s);
}

/// Spillable columns of each kind, a compile-time resource stack and a run-time handle.
void policies(devcol::stream_ref s) {
  auto c = devcol::make_column<double, spilling>({1.0, std::nullopt}, s);
  (void)c.spill(s);
  c.unspill(s);
  {
    devcol::spill_lock lock;
    (void)c.view();
  }
  auto str = devcol::make_strings_column<std::int32_t, spilling>({"a", "bc"}, s);
  (void)str.spill(s);
  (void)devcol::sort(str, devcol::order::ascending, s);
  auto p = devcol::sequence<float, pooled>(10, 0.0f, 1.0f, s);
  (void)devcol::sum(p, s);
  mr::scoped_default use{mr::make_resource_handle<mr::tracking<mr::pool<mr::cuda_device>>>("tracked pool")};
  (void)devcol::make_column<std::int16_t>({1, 2}, s);
  mr::pinned_host pinned;
  pinned.deallocate(pinned.allocate(100, 4096), 100, 4096);
  mr::cuda_async async;  // synchronous, as CCCL's cuda::mr::resource
  async.deallocate(async.allocate(100), 100);
  mr::managed managed;
  managed.deallocate(managed.allocate(100, 64, s), 100, 64, s);
}

}  // namespace

int main(int argc, char**) {
  // Compiled and linked in CI, where no GPU answers; run only when given an argument.
  if (argc < 2) { return 0; }
  devcol::stream s;
  fixed_width(s);
  other_kinds(s);
  policies(s);
  s.synchronize();
  return 0;
}
