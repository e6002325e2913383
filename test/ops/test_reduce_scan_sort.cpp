// Reductions, scans and sorting against host references.
#include "ops_support.hpp"

#include <algorithm>
#include <numeric>

using namespace devcol_test::ops;  // NOLINT: test brevity

namespace devcol_test::ops {
template <class T>
std::vector<T> valid_values(model<T> const& m) {
  std::vector<T> out;
  for (auto const& v : m) {
    if (v) { out.push_back(*v); }
  }
  return out;
}
template <class A, class B>
void check_close(std::optional<A> const& got, std::optional<B> const& expected) {
  REQUIRE(got.has_value() == expected.has_value());
  if (!got) { return; }
  if constexpr (std::is_floating_point_v<A>) {
    CHECK(*got == Approx(static_cast<double>(*expected)).epsilon(1e-9).margin(1e-9));
  } else {
    CHECK(*got == *expected);
  }
}
}  // namespace devcol_test::ops

TEMPLATE_TEST_CASE("reductions skip nulls, empty or all-null gives nullopt", "[ops][reduce]", std::int8_t, std::uint16_t,
                   std::int32_t, std::int64_t, float, double) {
  devcol_test::leak_check leaks;
  using S = devcol::sum_type_t<TestType>;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_column<TestType>(n, off, true, static_cast<unsigned>(n + 11 * off));
      auto const v = valid_values(ma);
      std::optional<S> sum;
      std::optional<TestType> lo;
      std::optional<TestType> hi;
      std::optional<double> mean;
      std::optional<bool> any;
      std::optional<bool> all;
      if (!v.empty()) {
        sum = std::accumulate(v.begin(), v.end(), S{0}, [](S x, TestType y) { return static_cast<S>(x + static_cast<S>(y)); });
        lo = *std::min_element(v.begin(), v.end());
        hi = *std::max_element(v.begin(), v.end());
        mean = static_cast<double>(*sum) / static_cast<double>(v.size());
        any = std::any_of(v.begin(), v.end(), [](TestType x) { return x != 0; });
        all = std::all_of(v.begin(), v.end(), [](TestType x) { return x != 0; });
      }
      check_close(devcol::sum(a), sum);
      check_close(devcol::min(a), lo);
      check_close(devcol::max(a), hi);
      check_close(devcol::mean(a), mean);
      CHECK(devcol::count(a) == v.size());
      CHECK(devcol::any(a) == any);
      CHECK(devcol::all(a) == all);
    }
  }
  auto small = devcol::make_column<TestType>({TestType{2}, std::nullopt, TestType{3}, TestType{4}});
  check_close(devcol::product(small), std::optional<S>{24});
  CHECK_FALSE(devcol::sum(devcol::full<TestType>(5, std::nullopt)).has_value());
}

TEST_CASE("reductions as the issue writes them, on a million rows", "[ops][reduce]") {
  devcol_test::leak_check leaks;
  auto x = devcol::sequence<std::int64_t>(1000000, 0, 1);
  std::optional<std::int64_t> t = devcol::sum(x);
  std::optional<std::int64_t> lo = devcol::min(x);
  std::optional<std::int64_t> hi = devcol::max(x);
  CHECK(t == 499999500000);
  CHECK(lo == 0);
  CHECK(hi == 999999);
  auto i32 = devcol::full<std::int32_t>(1000000, 2147483647);
  CHECK(devcol::sum(i32) == std::int64_t{2147483647} * 1000000);  // int32 accumulates in int64
  auto [big, model_big] = random_column<double>(1000000, 3, true, 77);
  auto const v = valid_values(model_big);
  check_close(devcol::sum(big), std::optional<double>(std::accumulate(v.begin(), v.end(), 0.0)));
}

TEMPLATE_TEST_CASE("scans: inclusive and exclusive sum, min, max, nulls skipped and kept null", "[ops][scan]",
                   std::int32_t, std::int64_t, double) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      auto [a, ma] = random_column<TestType>(n, off, true, static_cast<unsigned>(n + 13 * off));
      for (auto op : {devcol::scan_op::sum, devcol::scan_op::min, devcol::scan_op::max}) {
        using limits = std::numeric_limits<TestType>;
        TestType const identity = op == devcol::scan_op::sum   ? TestType{0}
                                  : op == devcol::scan_op::min ? (limits::has_infinity ? limits::infinity() : limits::max())
                                                               : (limits::has_infinity ? -limits::infinity() : limits::lowest());
        auto const combine = [op](TestType x, TestType y) {
          return op == devcol::scan_op::sum ? static_cast<TestType>(x + y) : op == devcol::scan_op::min ? std::min(x, y) : std::max(x, y);
        };
        model<TestType> inclusive(n);
        model<TestType> exclusive(n);
        TestType running = identity;
        for (std::size_t i = 0; i < n; ++i) {
          if (ma[i]) { exclusive[i] = running; }
          running = ma[i] ? combine(running, *ma[i]) : running;
          if (ma[i]) { inclusive[i] = running; }
        }
        auto const inc = devcol::to_host(devcol::inclusive_scan(a, op));
        auto const exc = devcol::to_host(devcol::exclusive_scan(a, op));
        REQUIRE(inc.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
          REQUIRE(inc[i].has_value() == inclusive[i].has_value());
          REQUIRE(exc[i].has_value() == exclusive[i].has_value());
          if (inc[i]) { check_close(inc[i], inclusive[i]); }
          if (exc[i]) { check_close(exc[i], exclusive[i]); }
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("sort and argsort: stable, both orders, nulls first or last, is_sorted", "[ops][sort]", std::int8_t,
                   std::uint32_t, std::int64_t, double, devcol::timestamp_ns) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      for (bool with_nulls : {false, true}) {
        auto [a, ma] = random_column<TestType>(n, off, with_nulls, static_cast<unsigned>(n + 17 * off));
        for (auto dir : {devcol::order::ascending, devcol::order::descending}) {
          for (auto nulls : {devcol::null_order::last, devcol::null_order::first}) {
            INFO("n " << n << ", offset " << off << ", nulls " << with_nulls);
            std::vector<std::int64_t> expected(n);
            std::iota(expected.begin(), expected.end(), 0);
            std::stable_sort(expected.begin(), expected.end(), [&](std::int64_t x, std::int64_t y) {
              auto const& vx = ma[static_cast<std::size_t>(x)];
              auto const& vy = ma[static_cast<std::size_t>(y)];
              if (!vx || !vy) { return nulls == devcol::null_order::first ? (!vx && vy.has_value()) : (vx.has_value() && !vy); }
              return dir == devcol::order::ascending ? *vx < *vy : *vy < *vx;
            });
            auto const order = devcol::argsort(a, dir, {}, nulls);
            CHECK(devcol_test::host_values(order) == expected);
            model<TestType> sorted;
            for (auto i : expected) { sorted.push_back(ma[static_cast<std::size_t>(i)]); }
            auto const s = devcol::sort(a, dir, {}, nulls);
            check_equal(s, sorted);
            CHECK(devcol::is_sorted(s, dir, {}, nulls));
            if (n > 2 && expected.front() != expected.back() && ma[0] != ma[n - 1]) {
              auto const reversed = devcol::sort(a, dir == devcol::order::ascending ? devcol::order::descending
                                                                                       : devcol::order::ascending,
                                                 {}, nulls == devcol::null_order::last ? devcol::null_order::first
                                                                                       : devcol::null_order::last);
              CHECK_FALSE(devcol::is_sorted(reversed, dir, {}, nulls));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("sort and argsort as the issue writes them, on a million rows", "[ops][sort]") {
  devcol_test::leak_check leaks;
  auto [x, mx] = random_column<std::int64_t>(1000000, 0, false, 5);
  auto o = devcol::sort(x, devcol::order::descending);
  auto i = devcol::argsort(x, devcol::order::ascending);
  CHECK(devcol::is_sorted(o, devcol::order::descending));
  CHECK(devcol::is_sorted(devcol::gather(x, i), devcol::order::ascending));
  auto c = devcol::inclusive_scan(devcol::sequence<std::int64_t>(1000, 0, 1), devcol::scan_op::sum);
  CHECK(devcol::max(c) == 499500);
}
