// Cases the reviews of the ops layer asked for: infinities, null-free fast paths, repeated scatter
// indices, exposed inputs, masks too small to adopt.
#include "ops_support.hpp"

#include <cuda/std/functional>

#include <limits>

using namespace devcol_test::ops;  // NOLINT: test brevity

TEST_CASE("min, max, minmax and min/max scans handle infinities", "[ops][reduce][scan]") {
  devcol_test::leak_check leaks;
  constexpr double inf = std::numeric_limits<double>::infinity();
  auto pos = devcol::make_column<double>({inf});
  auto neg = devcol::make_column<double>({-inf, std::nullopt});
  CHECK(devcol::min(pos) == inf);
  CHECK(devcol::max(neg) == -inf);
  CHECK(devcol::minmax(pos) == std::pair{inf, inf});
  CHECK(devcol::minmax(neg) == std::pair{-inf, -inf});
  auto scanned = devcol::to_host(devcol::inclusive_scan(devcol::make_column<double>({std::nullopt, inf, 2.0}), devcol::scan_op::min));
  CHECK(scanned == model<double>{std::nullopt, inf, 2.0});
  auto exclusive = devcol::to_host(devcol::exclusive_scan(devcol::make_column<float>({3.0F, -1.0F}), devcol::scan_op::max));
  CHECK(exclusive == model<float>{-std::numeric_limits<float>::infinity(), 3.0F});
}

TEMPLATE_TEST_CASE("minmax equals min and max, with and without nulls", "[ops][reduce]", std::int8_t, std::uint64_t, float,
                   devcol::timestamp_s) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (bool nulls : {false, true}) {
      auto [a, ma] = random_column<TestType>(n, 3, nulls, static_cast<unsigned>(n + 1));
      auto const both = devcol::minmax(a);
      REQUIRE(both.has_value() == devcol::min(a).has_value());
      if (both) {
        CHECK(both->first == *devcol::min(a));
        CHECK(both->second == *devcol::max(a));
      }
    }
  }
}

TEMPLATE_TEST_CASE("null-free inputs take the fast paths and agree with the reference", "[ops][fast]", std::int16_t,
                   std::uint32_t, float, double) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      auto [a, ma] = random_column<TestType>(n, off, false, static_cast<unsigned>(n * 7 + off));
      auto [keep, mk] = random_column<bool>(n, off, false, static_cast<unsigned>(n * 11 + off));
      REQUIRE_FALSE(a.has_nulls());
      std::vector<TestType> v;
      model<TestType> kept;
      for (std::size_t i = 0; i < n; ++i) {
        v.push_back(*ma[i]);
        if (*mk[i]) { kept.push_back(ma[i]); }
      }
      check_equal(devcol::filter(a, keep), kept);  // the host backend's branchless compaction
      if (!v.empty()) {
        CHECK(devcol::min(a) == *std::min_element(v.begin(), v.end()));
        CHECK(devcol::max(a) == *std::max_element(v.begin(), v.end()));
        CHECK(devcol::any(a) == std::any_of(v.begin(), v.end(), [](TestType x) { return x != 0; }));
        CHECK(devcol::all(a) == std::all_of(v.begin(), v.end(), [](TestType x) { return x != 0; }));
      }
      model<TestType> running(n);
      TestType lo = std::numeric_limits<TestType>::has_infinity ? std::numeric_limits<TestType>::infinity()
                                                                 : std::numeric_limits<TestType>::max();
      for (std::size_t i = 0; i < n; ++i) {
        lo = std::min(lo, v[i]);
        running[i] = lo;
      }
      check_equal(devcol::inclusive_scan(a, devcol::scan_op::min), running);
    }
  }
}

TEST_CASE("scatter with repeated indices takes value and validity from the same source row", "[ops][scatter]") {
  devcol_test::leak_check leaks;
  for (int round = 0; round < 20; ++round) {
    auto target = devcol::make_column<std::int32_t>({1, 2, 3});
    auto source = devcol::make_column<std::int32_t>({5, std::nullopt, 7, std::nullopt});
    devcol::scatter(source, devcol::make_column<std::int32_t>({0, 0, 2, 2}), target);
    auto const rows = devcol::to_host(target);
    CHECK((rows[0] == std::optional<std::int32_t>{5} || rows[0] == std::nullopt));  // never valid with a null row's value
    CHECK((rows[2] == std::optional<std::int32_t>{7} || rows[2] == std::nullopt));
    CHECK(rows[1] == 2);
  }
}

TEST_CASE("ops on an exposed column keep the exposed memory alive and in place", "[ops][exposure]") {
  devcol_test::leak_check leaks;
  auto t = devcol::make_column<std::int32_t>({1, std::nullopt, 3, 4});
  auto const mv = t.mutable_view();  // handed out: must stay valid
  devcol::scatter(devcol::make_column<std::int32_t>({9}), devcol::make_column<std::int32_t>({0}), t);
  CHECK(t.data(devcol::access::read) == mv.data());  // values written in place, not moved
  CHECK(devcol::to_host(t) == model<std::int32_t>{9, std::nullopt, 3, 4});
  devcol::copy_into(devcol::make_column<std::int32_t>({5, 6, 7, 8}), t);
  CHECK(t.data(devcol::access::read) == mv.data());
  CHECK(devcol::to_host(t) == model<std::int32_t>{5, 6, 7, 8});
  devcol::fill(t, 2);
  CHECK(t.data(devcol::access::read) == mv.data());
}

TEST_CASE("fill through an alias of exposed memory leaves the other column's null count true to its mask",
          "[ops][exposure][fill]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<std::int32_t>({1, std::nullopt, 3});
  (void)a.mutable_view();  // exposed: only alias() shares its memory now
  auto b = a.alias();
  devcol::fill(b, 5);
  CHECK(devcol::to_host(b) == model<std::int32_t>{5, 5, 5});
  CHECK(b.null_count() == 0);
  CHECK(devcol::to_host(a) == model<std::int32_t>{5, std::nullopt, 5});  // the values are shared, the validity is a's
  CHECK(a.null_count() == 1);
  CHECK(a.slice(0, 3).null_count() == 1);  // recounted from a's mask bits
}

TEST_CASE("adopting buffers refuses masks too small for whole words and misaligned slices", "[column][errors]") {
  devcol_test::leak_check leaks;
  devcol::buffer<> values(32);
  CHECK_THROWS_WITH((devcol::column<std::int64_t>(values, devcol::buffer<>(1), 4, 0)),
                    Catch::Contains("a mask of 1 bytes cannot hold the 1 words"));
  devcol::buffer<> mask(64);
  CHECK_THROWS_WITH((devcol::column<std::int64_t>(values, mask.slice(3, 64), 4, 0)),
                    Catch::Contains("a mask at byte offset 3 is not aligned"));
  CHECK_THROWS_WITH((devcol::column<std::int64_t>(values.slice(4, 32), {}, 3, 0)),
                    Catch::Contains("a data buffer at byte offset 4 is not aligned"));
  devcol::column<std::int64_t> ok(values, mask.slice(8, 64), 4, 0);
  CHECK(ok.size() == 4);
}

TEST_CASE("slicing a column with no nulls, or only nulls, needs no kernel", "[column][mask]") {
  devcol_test::leak_check leaks;
  devcol::column<std::int64_t> valid(100, {}, devcol::mask_state::all_valid);
  devcol::column<std::int64_t> null(100, {}, devcol::mask_state::all_null);
  CHECK(valid.slice(3, 50).null_count() == 0);
  CHECK(null.slice(3, 50).null_count() == 47);
  auto const parts = null.slice(std::vector<std::pair<std::size_t, std::size_t>>{{0, 10}, {5, 5}});
  CHECK(parts[0].null_count() == 10);
  CHECK(parts[1].null_count() == 0);
}

TEST_CASE("every op on a million rows, sliced at an offset off the byte boundary, with nulls", "[ops][million]") {
  devcol_test::leak_check leaks;
  constexpr std::size_t n = 1000000;
  auto [a, ma] = random_column<std::int64_t>(n, 3, true, 2024);
  auto [b, mb] = random_column<std::int64_t>(n, 70, true, 2025);
  auto [keep, mk] = random_column<bool>(n, 5, true, 2026);
  model<std::int64_t> sums(n);
  model<bool> less(n);
  model<double> casted(n);
  model<std::int64_t> kept;
  model<std::int64_t> filled(n);
  std::int64_t total = 0;
  std::size_t valid = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (ma[i] && mb[i]) { sums[i] = *ma[i] + *mb[i]; }
    if (ma[i]) {
      less[i] = *ma[i] < 50;
      casted[i] = static_cast<double>(*ma[i]);
      total += *ma[i];
      ++valid;
    }
    if (mk[i] && *mk[i]) { kept.push_back(ma[i]); }
    filled[i] = ma[i].value_or(-1);
  }
  check_equal(devcol::transform(a, b, cuda::std::plus<std::int64_t>{}), sums);
  check_equal(devcol::compare(a, devcol::cmp::less, std::int64_t{50}), less);
  check_equal(devcol::cast<double>(a), casted);
  check_equal(devcol::filter(a, keep), kept);
  check_equal(devcol::fill_null(a, std::int64_t{-1}), filled);
  CHECK(devcol::sum(a) == total);
  CHECK(devcol::count(a) == valid);
  auto const reversed = devcol::argsort(a, devcol::order::descending);
  auto const sorted = devcol::gather(a, reversed);
  CHECK(devcol::is_sorted(sorted, devcol::order::descending));
  CHECK(sorted.null_count() == a.null_count());
  auto scanned = devcol::to_host(devcol::inclusive_scan(a, devcol::scan_op::sum));
  std::int64_t running = 0;
  bool scan_ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    running += ma[i].value_or(0);
    scan_ok = scan_ok && (ma[i] ? scanned[i] == running : !scanned[i].has_value());
  }
  CHECK(scan_ok);
  check_equal(devcol::concatenate(std::vector{a.slice(0, n / 2), a.slice(n / 2, n)}), ma);
  auto target = b.deep_copy();
  auto const first_rows = devcol::sequence<std::int64_t>(n / 2, 0, 2);  // even rows of the target
  devcol::scatter(a.slice(0, n / 2), first_rows, target);
  auto expected = mb;
  for (std::size_t i = 0; i < n / 2; ++i) { expected[2 * i] = ma[i]; }
  check_equal(target, expected);
}
