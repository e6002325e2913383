// What each op's doc comment says it costs, checked on the CUDA backend over the simulated runtime:
// the host synchronisations it makes ("no synchronisation", "synchronises `stream`") and the
// allocations ("a new column from `col`'s resource"), counted by the double (devcol_sim::costs).
// The double runs Thrust's algorithms on the host: a value one returns to the host is read back
// with the wait CUDA makes there (detail::read_back), so the count is CUDA's. The temporaries of
// CUB's launches on a GPU are not made here: an allocation count is the op's own, the least it
// costs on CUDA.
#include "simulated_cuda.hpp"

#include <devcol/devcol.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <limits>
#include <string_view>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace costs_test {

using i64 = std::int64_t;

// What one call cost.
struct measured {
  std::size_t synchronizations;
  std::size_t allocations;
};

// Runs `f` alone and returns what it cost: its result, if any, is destroyed inside (a free in order
// on the stream costs no wait).
template <class F>
measured cost_of(F&& f) {
  (void)devcol_sim::take_costs();
  f();
  auto const c = devcol_sim::take_costs();
  return {c.synchronizations, c.allocations};
}

// The allocations of an op whose Thrust algorithms take temporaries: the double's host system takes
// others than CUDA's would (a merge sort's, many times over), so they are not checked.
constexpr std::size_t thrust_temporaries = std::numeric_limits<std::size_t>::max();
// The word a check of the rows raises where it finds a bad one (detail::find_first_n), from the
// executor's temporaries, beside the one synchronisation that reads it back.
constexpr std::size_t check_word = 1;

// One row of the table: the op's measured cost against its comment's claim. `most_allocations` is
// what the comment allows it to allocate.
void expect_cost(std::string const& op, measured got, std::size_t synchronizations, std::size_t most_allocations) {
  INFO(op << ": " << got.synchronizations << " synchronisations (claimed " << synchronizations << "), "
          << got.allocations << " allocations (at most " << most_allocations << ")");
  CHECK(got.synchronizations == synchronizations);
  CHECK(got.allocations <= most_allocations);
}

// 200 rows (a few words of mask, not a multiple of 64), with and without nulls.
std::vector<std::optional<i64>> rows_with_nulls() {
  std::vector<std::optional<i64>> rows;
  for (i64 i = 0; i < 200; ++i) { rows.push_back(i % 7 == 3 ? std::nullopt : std::optional<i64>(200 - i)); }
  return rows;
}
std::vector<i64> rows_without_nulls() {
  std::vector<i64> rows;
  for (i64 i = 0; i < 200; ++i) { rows.push_back((i * 37) % 200); }
  return rows;
}

TEST_CASE("each op synchronises and allocates no more than its doc comment says", "[simulated_cuda][devcol][costs]") {
  static_assert(DEVCOL_BACKEND_CUDA && DEVCOL_SIMULATED_CUDA, "this file tests the CUDA backend");
  devcol::stream s;
  auto const plain = devcol::make_column<i64>(rows_without_nulls(), s);
  auto const nullable = devcol::make_column<i64>(rows_with_nulls(), s);
  std::vector<double> doubles;
  for (int i = 0; i < 200; ++i) { doubles.push_back(i % 5 == 0 ? -0.0 : 1.5 * (100 - i)); }
  auto const floats = devcol::make_column<double>(doubles, s);
  std::vector<bool> flags;
  for (int i = 0; i < 200; ++i) { flags.push_back(i % 3 != 0); }
  auto const keep = devcol::make_column<bool>(flags, s);
  std::vector<i64> picks;
  for (i64 i = 0; i < 150; ++i) { picks.push_back((i * 13) % 200); }
  auto const indices = devcol::make_column<i64>(picks, s);
  s.synchronize();
  auto const add = [](i64 a, i64 b) { return a + b; };

  SECTION("factories") {
    expect_cost("make_column", cost_of([&] { (void)devcol::make_column<i64>({1, 2, 3}, s); }), 1, 1);
    expect_cost("make_column with nulls",
                cost_of([&] { (void)devcol::make_column<i64>({1, std::nullopt, 3}, s); }), 1, 2);
    expect_cost("sequence", cost_of([&] { (void)devcol::sequence<i64>(100, 0, 1, s); }), 0, 1);
    expect_cost("full", cost_of([&] { (void)devcol::full<i64>(100, i64{4}, s); }), 0, 1);
    expect_cost("full of null", cost_of([&] { (void)devcol::full<i64>(100, std::nullopt, s); }), 0, 2);
    expect_cost("column(size)", cost_of([&] { (void)devcol::column<i64>(100, s); }), 0, 1);
  }
  SECTION("slices share their buffers") {
    expect_cost("slice without nulls", cost_of([&] { (void)plain.slice(1, 65, s); }), 0, 0);
    expect_cost("slice with nulls (counts them)", cost_of([&] { (void)nullable.slice(63, 130, s); }), 1, 0);
    std::vector<std::pair<std::size_t, std::size_t>> const ranges{{1, 64}, {65, 199}, {0, 200}};
    expect_cost("slice of ranges with nulls (one launch, read back by Thrust, then the counts)",
                cost_of([&] { (void)nullable.slice(ranges, s); }), 3, 1);
    expect_cost("slice of ranges without nulls", cost_of([&] { (void)plain.slice(ranges, s); }), 0, 0);
    expect_cost("copy", cost_of([&] { auto copy = nullable; }), 0, 0);
    expect_cost("deep_copy", cost_of([&] { (void)nullable.deep_copy(s); }), 0, 2);
  }
  SECTION("element-wise ops") {
    expect_cost("transform", cost_of([&] { (void)devcol::transform(plain, [](i64 v) { return v * 2; }, s); }), 0, 1);
    expect_cost("transform with nulls",
                cost_of([&] { (void)devcol::transform(nullable, [](i64 v) { return v * 2; }, s); }), 0, 2);
    expect_cost("binary transform, one side nullable", cost_of([&] { (void)devcol::transform(plain, nullable, add, s); }),
                0, 2);
    expect_cost("binary transform, both nullable (counts the AND)",
                cost_of([&] { (void)devcol::transform(nullable, nullable, add, s); }), 1, 2);
    expect_cost("compare to a value",
                cost_of([&] { (void)devcol::compare(nullable, devcol::cmp::less, i64{50}, s); }), 0, 2);
    expect_cost("compare columns", cost_of([&] { (void)devcol::compare(plain, devcol::cmp::less, plain, s); }), 0, 1);
    expect_cost("cast", cost_of([&] { (void)devcol::cast<double>(nullable, s); }), 0, 2);
    using devcol::duration_ms;
    using devcol::duration_ns;
    using devcol::duration_s;
    auto const secs = devcol::make_column<duration_s>({duration_s{1}, duration_s{-2}}, s);
    expect_cost("cast of a duration to a finer unit (checks the rows)",
                cost_of([&] { (void)devcol::cast<duration_ns>(secs, s); }), 1, 1 + check_word);
    auto const nanos = devcol::cast<duration_ns>(secs, s);
    expect_cost("cast of a duration to a coarser unit (nothing to check)",
                cost_of([&] { (void)devcol::cast<duration_ms>(nanos, s); }), 0, 1);
    auto target = plain.deep_copy(s);
    auto masked = nullable.deep_copy(s);
    expect_cost("fill of an unshared column", cost_of([&] { devcol::fill(target, i64{3}, s); }), 0, 0);
    expect_cost("fill with a mask", cost_of([&] { devcol::fill(masked, i64{3}, s); }), 0, 0);
    expect_cost("fill_null", cost_of([&] { (void)devcol::fill_null(nullable, i64{0}, s); }), 0, 1);
    expect_cost("is_null", cost_of([&] { (void)devcol::is_null(nullable, s); }), 0, 1);
    expect_cost("is_valid", cost_of([&] { (void)devcol::is_valid(nullable, s); }), 0, 1);
    expect_cost("is_null of any_column",
                cost_of([&] { (void)devcol::is_null(devcol::any_column<>(nullable), s); }), 0, 1);
  }
  SECTION("selection") {
    expect_cost("gather, checked indices", cost_of([&] { (void)devcol::gather(plain, indices, s); }), 1,
                1 + check_word);
    expect_cost("gather, checked indices, nulls in col (mask counted)",
                cost_of([&] { (void)devcol::gather(nullable, indices, s); }), 2, 2 + check_word);
    expect_cost("gather, nullify (mask counted)",
                cost_of([&] { (void)devcol::gather(plain, indices, s, devcol::out_of_bounds::nullify); }), 1, 2);
    expect_cost("filter (counts the kept rows)", cost_of([&] { (void)devcol::filter(plain, keep, s); }), 1, 1);
    expect_cost("filter with nulls (and counts the result's nulls)",
                cost_of([&] { (void)devcol::filter(nullable, keep, s); }), 2, 3);
    std::vector<devcol::column<i64>> const parts{plain, plain.slice(3, 100, s)};
    expect_cost("concatenate", cost_of([&] { (void)devcol::concatenate(parts, s); }), 0, 1);
    std::vector<devcol::column<i64>> const nullable_parts{nullable, nullable};
    expect_cost("concatenate with nulls (the host index)",
                cost_of([&] { (void)devcol::concatenate(nullable_parts, s); }), 1, 3);
  }
  SECTION("sort") {
    expect_cost("sort of integers", cost_of([&] { (void)devcol::sort(plain, devcol::order::ascending, s); }), 0, thrust_temporaries);
    expect_cost("sort of integers, descending",
                cost_of([&] { (void)devcol::sort(plain, devcol::order::descending, s); }), 0, thrust_temporaries);
    expect_cost("sort of floats (two runs, two binary searches each)",
                cost_of([&] { (void)devcol::sort(floats, devcol::order::ascending, s); }), 4, thrust_temporaries);
    expect_cost("argsort", cost_of([&] { (void)devcol::argsort(plain, devcol::order::ascending, s); }), 0, thrust_temporaries);
    expect_cost("argsort with nulls", cost_of([&] { (void)devcol::argsort(nullable, devcol::order::ascending, s); }), 0, thrust_temporaries);
    expect_cost("is_sorted", cost_of([&] { (void)devcol::is_sorted(plain, devcol::order::ascending, s); }), 1, 0);
  }
  SECTION("scans") {
    expect_cost("inclusive_scan", cost_of([&] { (void)devcol::inclusive_scan(plain, devcol::scan_op::sum, s); }), 0, 1);
    expect_cost("inclusive_scan with nulls",
                cost_of([&] { (void)devcol::inclusive_scan(nullable, devcol::scan_op::max, s); }), 0, 2);
    expect_cost("exclusive_scan", cost_of([&] { (void)devcol::exclusive_scan(nullable, devcol::scan_op::min, s); }), 0, 2);
  }
  SECTION("reductions return a host value: one synchronisation each") {
    expect_cost("sum", cost_of([&] { (void)devcol::sum(nullable, s); }), 1, 0);
    expect_cost("product", cost_of([&] { (void)devcol::product(plain, s); }), 1, 0);
    expect_cost("min", cost_of([&] { (void)devcol::min(nullable, s); }), 1, 0);
    expect_cost("max", cost_of([&] { (void)devcol::max(plain, s); }), 1, 0);
    expect_cost("min of floats", cost_of([&] { (void)devcol::min(floats, s); }), 1, 0);
    expect_cost("minmax", cost_of([&] { (void)devcol::minmax(nullable, s); }), 1, 0);
    expect_cost("mean", cost_of([&] { (void)devcol::mean(nullable, s); }), 1, 0);
    expect_cost("any", cost_of([&] { (void)devcol::any(keep, s); }), 1, 0);
    expect_cost("all", cost_of([&] { (void)devcol::all(keep, s); }), 1, 0);
    expect_cost("count (no kernel)", cost_of([&] { (void)devcol::count(nullable); }), 0, 0);
  }
  SECTION("strings, dictionaries, run-end encoding") {
    std::vector<std::optional<std::string>> words;
    for (int i = 0; i < 200; ++i) {
      words.push_back(i % 9 == 4 ? std::nullopt : std::optional<std::string>(std::string(std::size_t(i % 13), 'a')));
    }
    auto const strings = devcol::make_strings_column(words, s);
    expect_cost("strings length", cost_of([&] { (void)devcol::length(strings, s); }), 0, 2);
    expect_cost("strings hash", cost_of([&] { (void)devcol::hash(strings, 0, s); }), 0, 2);
    expect_cost("strings compare to a value (scratch for its bytes)",
                cost_of([&] { (void)devcol::compare(strings, devcol::cmp::less, std::string_view("aaa"), s); }), 0, 3);
    auto const strings_too = strings.deep_copy(s);
    expect_cost("strings compare, both nullable (counts the AND)",
                cost_of([&] { (void)devcol::compare(strings, devcol::cmp::equal, strings_too, s); }), 1, 2);
    expect_cost("strings is_null", cost_of([&] { (void)devcol::is_null(strings, s); }), 0, 1);
    expect_cost("strings argsort", cost_of([&] { (void)devcol::argsort(strings, devcol::order::ascending, s); }), 0, thrust_temporaries);
    auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 1, std::nullopt, 1}, s),
                                                     devcol::any_column<>(devcol::make_column<i64>({7, 8}, s)), s);
    expect_cost("dictionary is_null", cost_of([&] { (void)devcol::is_null(dict, s); }), 0, 3);
    auto ends = devcol::run_ends_column<>(devcol::make_column<std::int32_t>({2, 5, 9}, s));
    auto const ree = devcol::make_run_end_encoded_column(std::move(ends), devcol::any_column<>(
                                                              devcol::make_column<i64>({1, std::nullopt, 3}, s)), s);
    expect_cost("run-end encoded is_null", cost_of([&] { (void)devcol::is_null(ree, s); }), 0, 3);
  }
  SECTION("floating point extremes") {
    std::vector<double> const infinities(100, std::numeric_limits<double>::infinity());
    auto const inf = devcol::make_column<double>(infinities, s);
    expect_cost("min of floats whose least is +infinity (a second pass)", cost_of([&] { (void)devcol::min(inf, s); }),
                2, 0);
    std::vector<double> const negative_infinities(70, -std::numeric_limits<double>::infinity());
    auto const ninf = devcol::make_column<double>(negative_infinities, s);
    expect_cost("max of floats whose greatest is -infinity (a second pass)",
                cost_of([&] { (void)devcol::max(ninf, s); }), 2, 0);
    expect_cost("max of floats", cost_of([&] { (void)devcol::max(inf, s); }), 1, 0);
    expect_cost("minmax of floats", cost_of([&] { (void)devcol::minmax(inf, s); }), 1, 0);
  }
  SECTION("interop") {
    ArrowSchema schema{};
    ArrowDeviceArray array{};
    expect_cost("to_arrow", cost_of([&] { devcol::to_arrow(nullable, &schema, &array, s); }), 0, 0);
    std::optional<devcol::column<i64>> imported;
    expect_cost("from_arrow", cost_of([&] { imported.emplace(devcol::from_arrow<i64>(&schema, &array, s)); }), 0, 0);
    expect_cost("release of an import (waits for the work on it)", cost_of([&] { imported.reset(); }), 1, 0);
    auto exported = plain.deep_copy(s);
    DLManagedTensorVersioned* tensor = nullptr;
    expect_cost("to_dlpack of an unshared column", cost_of([&] { tensor = devcol::to_dlpack(exported, s); }), 0, 0);
    tensor->deleter(tensor);

    auto const bools = devcol::make_column<bool>({true, std::nullopt, false}, s);
    ArrowSchema bool_schema{};
    ArrowDeviceArray bool_array{};
    expect_cost("to_arrow of bools (bit-packed)", cost_of([&] { devcol::to_arrow(bools, &bool_schema, &bool_array, s); }),
                0, 1);
    std::optional<devcol::column<bool>> bools_back;
    expect_cost("from_arrow of bit-packed bools (unpacked)",
                cost_of([&] { bools_back.emplace(devcol::from_arrow<bool>(&bool_schema, &bool_array, s)); }), 0, 2);
    ArrowSchema counted_schema{};
    ArrowDeviceArray counted_array{};
    devcol::to_arrow(nullable, &counted_schema, &counted_array, s);
    counted_array.array.null_count = -1;
    std::optional<devcol::column<i64>> counted;
    expect_cost("from_arrow with null_count -1 (counts)",
                cost_of([&] { counted.emplace(devcol::from_arrow<i64>(&counted_schema, &counted_array, s)); }), 1, 0);
    s.synchronize();
  }
  s.synchronize();
}

}  // namespace costs_test
