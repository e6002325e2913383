// Reductions, scans and sorting against host references.
#include "ops_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

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
                   std::uint32_t, std::int64_t, double, devcol::timestamp_ns, devcol::date32, devcol::duration_ms) {
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

// Floating point as Arrow compute has it (the expected orders are pyarrow's sort_indices results).
namespace devcol_test::ops {
template <class T>
constexpr T nan_v = std::numeric_limits<T>::quiet_NaN();
template <class T>
constexpr T inf_v = std::numeric_limits<T>::infinity();
/// A NaN with its sign bit set: bit patterns that a bit-wise radix sort would put before -infinity.
template <class T>
T negative_nan() {
  return std::copysign(nan_v<T>, T{-1});
}
}  // namespace devcol_test::ops

TEST_CASE("min, max and minmax of bool columns: false below true, nulls skipped (Arrow's min and max of boolean)",
          "[ops][reduce]") {
  devcol_test::leak_check leaks;
  auto const mixed = devcol::make_column<bool>({std::nullopt, true, std::nullopt, false, true});
  CHECK(devcol::min(mixed) == std::optional<bool>(false));
  CHECK(devcol::max(mixed) == std::optional<bool>(true));
  CHECK(devcol::minmax(mixed) == std::optional<std::pair<bool, bool>>({false, true}));
  // Slices at odd offsets, with and without nulls: every row true but one false past a word.
  model<bool> rows(200, true);
  rows[3] = std::nullopt;
  rows[130] = false;
  auto const whole = devcol::make_column<bool>(rows);
  CHECK(devcol::min(whole.slice(1, 131)) == std::optional<bool>(false));
  CHECK(devcol::min(whole.slice(1, 130)) == std::optional<bool>(true));
  CHECK(devcol::minmax(whole.slice(65, 199)) == std::optional<std::pair<bool, bool>>({false, true}));
  CHECK(devcol::max(devcol::make_column<bool>({false, false})) == std::optional<bool>(false));
  CHECK_FALSE(devcol::minmax(devcol::make_column<bool>({std::nullopt})).has_value());
}

TEST_CASE("min, max and minmax of int256_t (decimal256's values): every sign, the extremes, nulls skipped",
          "[ops][reduce]") {
  devcol_test::leak_check leaks;
  using devcol::int256_t;
  auto const positive = devcol::make_column<int256_t>({int256_t(5), std::nullopt, int256_t(7), int256_t(9)});
  CHECK(devcol::min(positive) == int256_t(5));
  CHECK(devcol::max(positive) == int256_t(9));
  CHECK(devcol::minmax(positive) == std::optional<std::pair<int256_t, int256_t>>({int256_t(5), int256_t(9)}));
  auto const negative = devcol::make_column<int256_t>({int256_t(-5), int256_t(-7), std::nullopt});
  CHECK(devcol::min(negative) == int256_t(-7));
  CHECK(devcol::max(negative) == int256_t(-5));
  CHECK(devcol::minmax(negative) == std::optional<std::pair<int256_t, int256_t>>({int256_t(-7), int256_t(-5)}));
  // The type's own extremes, which the identities equal: a column of only one of them.
  auto const top = int256_t::from_words(~0ULL, ~0ULL, ~0ULL, ~0ULL >> 1);
  auto const bottom = int256_t::from_words(0, 0, 0, 1ULL << 63);
  CHECK(devcol::min(devcol::make_column<int256_t>({top, std::nullopt})) == top);
  CHECK(devcol::max(devcol::make_column<int256_t>({bottom})) == bottom);
  CHECK(devcol::minmax(devcol::make_column<int256_t>({bottom, top, int256_t(0)})) ==
        std::optional<std::pair<int256_t, int256_t>>({bottom, top}));
  CHECK_FALSE(devcol::min(devcol::make_column<int256_t>({std::nullopt})).has_value());
}

TEMPLATE_TEST_CASE("min, max and minmax of floats skip NaN, and give NaN only when every valid row is NaN",
                   "[ops][reduce][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  // The shape: 63 rows, 10 null, NaN among them (first and last rows included, so that
  // every way of combining partial results meets one).
  std::mt19937_64 rng(2026);
  for (bool nulls : {false, true}) {
    model<T> rows(63);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows[i] = static_cast<T>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
      if (i % 9 == 0 || i == 62) { rows[i] = i % 2 == 0 ? nan_v<T> : negative_nan<T>(); }
      if (nulls && i % 6 == 5) { rows[i] = std::nullopt; }
    }
    T lo = inf_v<T>;
    T hi = -inf_v<T>;
    for (auto const& v : rows) {
      if (v && !std::isnan(*v)) {
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
    }
    auto const col = devcol::make_column<T>(rows).slice(0, 63);
    CHECK(devcol::min(col) == lo);
    CHECK(devcol::max(col) == hi);
    CHECK(devcol::minmax(col) == std::optional<std::pair<T, T>>({lo, hi}));
  }
  auto const all_nan = devcol::make_column<T>({nan_v<T>, std::nullopt, negative_nan<T>()});
  CHECK(std::isnan(devcol::min(all_nan).value()));
  CHECK(std::isnan(devcol::max(all_nan).value()));
  CHECK(std::isnan(devcol::minmax(all_nan).value().first));
  CHECK(std::isnan(devcol::minmax(all_nan).value().second));
  CHECK_FALSE(devcol::min(devcol::make_column<T>({std::nullopt, std::nullopt})).has_value());
  // Infinite extremes beside NaN: +infinity is the least number there is, not a column of NaN.
  for (bool nulls : {false, true}) {
    model<T> rows{nan_v<T>, inf_v<T>, negative_nan<T>()};
    if (nulls) { rows.push_back(std::nullopt); }
    auto const infinite = devcol::make_column<T>(rows);
    CHECK(devcol::min(infinite) == inf_v<T>);
    CHECK(devcol::max(infinite) == inf_v<T>);
    CHECK(devcol::minmax(infinite) == std::optional<std::pair<T, T>>({inf_v<T>, inf_v<T>}));
    rows[1] = -inf_v<T>;
    auto const negative = devcol::make_column<T>(rows);
    CHECK(devcol::min(negative) == -inf_v<T>);
    CHECK(devcol::max(negative) == -inf_v<T>);
  }
  auto const specials = devcol::make_column<T>(
      {nan_v<T>, -inf_v<T>, std::numeric_limits<T>::denorm_min(), nan_v<T>, inf_v<T>, -T{0}});
  CHECK(devcol::min(specials) == -inf_v<T>);
  CHECK(devcol::max(specials) == inf_v<T>);
  auto const denormals = devcol::make_column<T>({nan_v<T>, std::numeric_limits<T>::denorm_min(), -T{0}, T{0}});
  CHECK(devcol::max(denormals) == std::numeric_limits<T>::denorm_min());
  CHECK(devcol::min(denormals) == T{0});  // -0.0 or 0.0: equal
}

namespace devcol_test::ops {
template <class T>
constexpr bool has_sum = requires(devcol::column<T> const& c) { devcol::sum(c); };
template <class T>
constexpr bool has_product = requires(devcol::column<T> const& c) { devcol::product(c); };
}  // namespace devcol_test::ops

TEST_CASE("sum and product take no int128_t, which GNU C++ counts as arithmetic: 64 bits would cut its rows",
          "[ops][reduce]") {
  // sum of {2^100, 1} as sum_type_t (int64_t) was 1. Compiled as strict C++20, where
  // std::is_arithmetic_v<int128_t> is false, neither compiled already; now neither does in either.
  CHECK_FALSE(has_sum<devcol::int128_t>);
  CHECK_FALSE(has_product<devcol::int128_t>);
  CHECK(has_sum<std::int64_t>);
  CHECK(has_product<std::uint8_t>);
}

TEST_CASE("integer sum and product past 64 bits wrap (two's complement, as Arrow's sum), never undefined",
          "[ops][reduce]") {
  using lim = std::numeric_limits<std::int64_t>;
  CHECK(devcol::sum(devcol::make_column<std::int64_t>({lim::max(), 1})) == lim::min());
  CHECK(devcol::sum(devcol::make_column<std::int64_t>({lim::max(), std::nullopt, 2})) == lim::min() + 1);
  CHECK(devcol::sum(devcol::make_column<std::int64_t>({lim::min(), -1})) == lim::max());
  CHECK(devcol::sum(devcol::make_column<std::int32_t>({-5, 3})) == -2);
  CHECK(devcol::product(devcol::make_column<std::int32_t>({1 << 20, 1 << 20, 1 << 20, 1 << 20})) == 0);
  CHECK(devcol::product(devcol::make_column<std::int64_t>({lim::min(), -1})) == lim::min());
  CHECK(devcol::product(devcol::make_column<std::int32_t>({-3, std::nullopt, 7})) == -21);
  CHECK(devcol::sum(devcol::make_column<std::uint64_t>({~std::uint64_t{0}, 2})) == 1U);
  // Many rows, so that the host fast path's vector lanes and threads wrap too.
  std::vector<std::int64_t> big(100'000, lim::max() / 50'000);
  std::int64_t expected = 0;
  for (auto v : big) { expected = static_cast<std::int64_t>(static_cast<std::uint64_t>(expected) + static_cast<std::uint64_t>(v)); }
  CHECK(devcol::sum(devcol::make_column<std::int64_t>(std::span<std::int64_t const>(big))) == expected);
}

namespace {
/// The first row where `got` and `expected` differ (their size when none does): a short message on
/// failure, where comparing whole columns of 200,000 rows would print them.
template <class T>
std::size_t first_differing_row(model<T> const& got, model<T> const& expected) {
  REQUIRE(got.size() == expected.size());
  return static_cast<std::size_t>(std::mismatch(got.begin(), got.end(), expected.begin()).first - got.begin());
}

/// Checks `col`'s inclusive and exclusive sum scans row for row against the models.
template <class T>
void check_sum_scans(devcol::column<T> const& col, model<T> const& inclusive, model<T> const& exclusive) {
  CHECK(first_differing_row(devcol::to_host(devcol::inclusive_scan(col, devcol::scan_op::sum)), inclusive) == inclusive.size());
  CHECK(first_differing_row(devcol::to_host(devcol::exclusive_scan(col, devcol::scan_op::sum)), exclusive) == exclusive.size());
}

/// The inclusive and exclusive running sums of `rows` in row order, nulls skipped and left null:
/// what pyarrow's cumulative_sum gives, rounding and overflow included.
template <class T>
std::pair<model<T>, model<T>> row_order_sums(model<T> const& rows) {
  model<T> inclusive(rows.size());
  model<T> exclusive(rows.size());
  T acc{0};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i]) { continue; }
    exclusive[i] = acc;
    acc += *rows[i];
    inclusive[i] = acc;
  }
  return {inclusive, exclusive};
}
}  // namespace

TEMPLATE_TEST_CASE("an integer scan past the type's range wraps (as Arrow's cumulative_sum), never undefined",
                   "[ops][scan]", std::int8_t, std::int32_t, std::int64_t, std::uint16_t) {
  devcol_test::leak_check leaks;
  using T = TestType;
  using lim = std::numeric_limits<T>;
  auto const wrapped = [](T a, T b) {
    using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  };
  // Short and long, with nulls: the host path's blocks and tiles and the Thrust path's (the tsan
  // preset's) scan both cross the type's range many times.
  for (std::size_t const n : {std::size_t{3}, std::size_t{70'000}}) {
    std::vector<std::optional<T>> rows(n);
    for (std::size_t i = 0; i < n; ++i) {
      rows[i] = i % 7 == 3 ? std::nullopt : std::optional<T>(i % 2 == 0 ? lim::max() : static_cast<T>(lim::max() / 3));
    }
    auto const col = devcol::make_column<T>(rows);
    std::vector<std::optional<T>> inclusive(n);
    std::vector<std::optional<T>> exclusive(n);
    T acc{0};
    for (std::size_t i = 0; i < n; ++i) {
      if (rows[i]) { exclusive[i] = acc; }
      if (rows[i]) { acc = wrapped(acc, *rows[i]); }
      if (rows[i]) { inclusive[i] = acc; }
    }
    check_sum_scans(col, inclusive, exclusive);
  }
}

TEMPLATE_TEST_CASE("sum, mean and product of floats propagate NaN", "[ops][reduce][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  auto const col = devcol::make_column<T>({T{1}, nan_v<T>, std::nullopt, T{2}});
  CHECK(std::isnan(devcol::sum(col).value()));
  CHECK(std::isnan(devcol::mean(col).value()));
  CHECK(std::isnan(devcol::product(col).value()));
  CHECK(std::isnan(devcol::sum(devcol::make_column<T>({inf_v<T>, -inf_v<T>})).value()));
  CHECK(std::isnan(devcol::product(devcol::make_column<T>({inf_v<T>, T{0}})).value()));
}

TEMPLATE_TEST_CASE("scans of floats: a running sum propagates NaN, a running min or max skips it as Arrow's",
                   "[ops][scan][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  // pyarrow: cumulative_min([nan, 1, null, -1, nan, 3], skip_nulls=True) == [inf, 1, null, -1, -1, -1]
  auto const col = devcol::make_column<T>({nan_v<T>, T{1}, std::nullopt, T{-1}, negative_nan<T>(), T{3}});
  CHECK(devcol::to_host(devcol::inclusive_scan(col, devcol::scan_op::min)) ==
        model<T>{inf_v<T>, T{1}, std::nullopt, T{-1}, T{-1}, T{-1}});
  CHECK(devcol::to_host(devcol::inclusive_scan(col, devcol::scan_op::max)) ==
        model<T>{-inf_v<T>, T{1}, std::nullopt, T{1}, T{1}, T{3}});
  CHECK(devcol::to_host(devcol::exclusive_scan(col, devcol::scan_op::min)) ==
        model<T>{inf_v<T>, inf_v<T>, std::nullopt, T{1}, T{-1}, T{-1}});
  auto const sums = devcol::to_host(devcol::inclusive_scan(col, devcol::scan_op::sum));
  REQUIRE(sums.size() == 6);
  CHECK_FALSE(sums[2].has_value());
  for (std::size_t i : {0, 1, 3, 4, 5}) { CHECK(std::isnan(sums[i].value())); }
  // Without nulls, a leading number: the running min skips a NaN in the middle.
  auto const plain = devcol::make_column<T>({T{2}, nan_v<T>, T{1}});
  CHECK(devcol::to_host(devcol::inclusive_scan(plain, devcol::scan_op::min)) == model<T>{T{2}, T{2}, T{1}});
}

TEMPLATE_TEST_CASE("a running sum of floats is infinite or NaN exactly where the sum in row order is",
                   "[ops][scan][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  // -big, big, big, -big: in row order the sums are -big, 0, big, 0 (pyarrow's cumulative_sum), but
  // a prefix of the last three taken first overflows (big + big = inf). Then big, big, -big after a
  // sum of 0: inf from there on, in row order, where a prefix of the last two is finite. Placed
  // across a 64-row block and at 2^15, 2^16 and 2^17 rows (tile boundaries, over threads), with
  // nulls between, as the host backend splits the rows.
  T const big = std::numeric_limits<T>::max() / 4 * 3;
  std::size_t const n = 200'003;
  model<T> rows(n, T{0});
  for (std::size_t i = 5; i < n; i += 7) { rows[i] = std::nullopt; }
  for (std::size_t at : {std::size_t{64}, std::size_t{1} << 15, std::size_t{1} << 16}) {
    rows[at - 1] = -big;
    rows[at] = big;
    rows[at + 1] = big;
    rows[at + 2] = -big;
  }
  std::size_t const last = std::size_t{1} << 17;
  rows[last - 1] = big;
  rows[last] = big;
  rows[last + 1] = -big;
  for (std::size_t offset : {0, 1}) {
    INFO("offset " << offset);
    model<T> all = rows;
    all.insert(all.begin(), offset, T{1});
    auto const col = devcol::make_column<T>(all).slice(offset, offset + n);
    auto const [inclusive, exclusive] = row_order_sums(rows);
    REQUIRE(std::isinf(*inclusive[last]));
    check_sum_scans(col, inclusive, exclusive);
  }
}

TEMPLATE_TEST_CASE("a running sum of floats that overflows in row order stays infinite where another order is finite",
                   "[ops][scan][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  // max - 2 ulp, then half an ulp (a tie, rounded up to even: max - ulp), then 1.5 ulp: infinite
  // in row order, and so every sum after it (pyarrow's cumulative_sum). Taken the other way,
  // (half + 1.5) ulp first, the sum is max, and a following -2 ulp brings it back to max - 2 ulp.
  // In one 64-row block, and across the blocks and tiles the host backend splits the rows into.
  T const base = std::nextafter(std::nextafter(std::numeric_limits<T>::max(), T{0}), T{0});
  int const ulp_exponent = std::numeric_limits<T>::max_exponent - std::numeric_limits<T>::digits;
  T const half_ulp = std::ldexp(T{1}, ulp_exponent - 1);
  T const one_and_half = std::ldexp(T{1}, ulp_exponent) + half_ulp;
  std::size_t const n = 200'003;
  for (std::size_t at : {std::size_t{1}, std::size_t{64}, std::size_t{100}, std::size_t{1} << 15,
                         std::size_t{1} << 16, std::size_t{1} << 17}) {
    INFO("at " << at);
    model<T> rows(n, T{0});
    rows[at - 1] = base;
    rows[at] = half_ulp;
    rows[at + 1] = one_and_half;
    rows[at + 2] = -(half_ulp + one_and_half);
    rows[at + 3] = std::nullopt;
    auto const col = devcol::make_column<T>(rows);
    auto const [inclusive, exclusive] = row_order_sums(rows);
    REQUIRE(std::isinf(*inclusive[at + 1]));
    check_sum_scans(col, inclusive, exclusive);
  }
}

TEMPLATE_TEST_CASE("argsort and sort of floats put NaN beside the nulls, for every order and null placement",
                   "[ops][sort][float]", float, double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  using devcol::null_order;
  using devcol::order;
  T const tiny = std::numeric_limits<T>::denorm_min();
  model<T> const rows{T{2}, nan_v<T>, std::nullopt, -T{0}, T{0}, T{-1}, negative_nan<T>(), std::nullopt,
                      -T{0}, inf_v<T>, -inf_v<T>, tiny};
  auto const col = devcol::make_column<T>(rows);
  struct expectation {
    order direction;
    null_order nulls;
    std::vector<std::int64_t> indices;  // pyarrow.compute.array_sort_indices(order=..., null_placement=...)
  };
  for (auto const& e : {expectation{order::ascending, null_order::last, {10, 5, 3, 4, 8, 11, 0, 9, 1, 6, 2, 7}},
                        expectation{order::ascending, null_order::first, {2, 7, 1, 6, 10, 5, 3, 4, 8, 11, 0, 9}},
                        expectation{order::descending, null_order::last, {9, 0, 11, 3, 4, 8, 5, 10, 1, 6, 2, 7}},
                        expectation{order::descending, null_order::first, {2, 7, 1, 6, 9, 0, 11, 3, 4, 8, 5, 10}}}) {
    INFO("descending " << (e.direction == order::descending) << ", nulls first " << (e.nulls == null_order::first));
    CHECK(devcol_test::host_values(devcol::argsort(col, e.direction, {}, e.nulls)) == e.indices);
    auto const sorted = devcol::sort(col, e.direction, {}, e.nulls);
    CHECK(devcol::is_sorted(sorted, e.direction, {}, e.nulls));
    CHECK_FALSE(devcol::is_sorted(col, e.direction, {}, e.nulls));
    auto const got = devcol::to_host(sorted);
    REQUIRE(got.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      auto const& want = rows[static_cast<std::size_t>(e.indices[i])];
      REQUIRE(got[i].has_value() == want.has_value());
      if (want) {  // bit for bit: -0.0 keeps its sign, NaN stays NaN
        CHECK(std::isnan(*got[i]) == std::isnan(*want));
        if (!std::isnan(*want)) { CHECK((*got[i] == *want && std::signbit(*got[i]) == std::signbit(*want))); }
      }
    }
    // The same without nulls (sort then sorts the values in place, not through argsort).
    model<T> valid_rows;
    for (auto const& v : rows) {
      if (v) { valid_rows.push_back(v); }
    }
    auto const no_nulls = devcol::make_column<T>(valid_rows);
    auto const order_of_valid = devcol_test::host_values(devcol::argsort(no_nulls, e.direction, {}, e.nulls));
    auto const sorted_valid = devcol::to_host(devcol::sort(no_nulls, e.direction, {}, e.nulls));
    for (std::size_t i = 0; i < valid_rows.size(); ++i) {
      T const want = *valid_rows[static_cast<std::size_t>(order_of_valid[i])];
      T const got_value = *sorted_valid[i];
      CHECK((std::isnan(want) ? std::isnan(got_value) : got_value == want && std::signbit(got_value) == std::signbit(want)));
    }
    bool const nan_last = e.nulls == null_order::last;
    for (std::size_t i = 0; i < 2; ++i) {  // the two NaN rows, in row order, at the end named by `nulls`
      CHECK(std::isnan(*sorted_valid[nan_last ? valid_rows.size() - 2 + i : i]));
      CHECK(order_of_valid[nan_last ? valid_rows.size() - 2 + i : i] == (i == 0 ? 1 : 5));
    }
  }
}

TEMPLATE_TEST_CASE("sort and argsort tie -0.0 and 0.0: they keep their row order", "[ops][sort][float]", float,
                   double) {
  devcol_test::leak_check leaks;
  using T = TestType;
  auto const col = devcol::make_column<T>({T{0}, -T{0}, T{1}, -T{0}, T{0}, T{-1}});
  std::vector<std::int64_t> const ascending{5, 0, 1, 3, 4, 2};
  std::vector<std::int64_t> const descending{2, 0, 1, 3, 4, 5};
  for (auto nulls : {devcol::null_order::last, devcol::null_order::first}) {
    CHECK(devcol_test::host_values(devcol::argsort(col, devcol::order::ascending, {}, nulls)) == ascending);
    CHECK(devcol_test::host_values(devcol::argsort(col, devcol::order::descending, {}, nulls)) == descending);
    auto const sorted = devcol_test::host_values(devcol::sort(col, devcol::order::ascending, {}, nulls));
    std::vector<bool> signs;
    for (T v : sorted) { signs.push_back(std::signbit(v)); }
    CHECK(signs == std::vector<bool>{true, false, true, true, false, false});  // -1, 0, -0, -0, 0, 1
  }
  CHECK(devcol::is_sorted(devcol::make_column<T>({-T{0}, T{0}, -T{0}})));
  CHECK(devcol::is_sorted(devcol::make_column<T>({T{0}, -T{0}, T{0}}), devcol::order::descending));
}

TEMPLATE_TEST_CASE("is_sorted of floats expects NaN beside the nulls", "[ops][sort][float]", float, double) {
  using T = TestType;
  using devcol::null_order;
  using devcol::order;
  auto const last = devcol::make_column<T>({-inf_v<T>, T{1}, inf_v<T>, nan_v<T>, negative_nan<T>(), std::nullopt});
  CHECK(devcol::is_sorted(last, order::ascending, {}, null_order::last));
  CHECK_FALSE(devcol::is_sorted(last, order::ascending, {}, null_order::first));
  CHECK_FALSE(devcol::is_sorted(last, order::descending, {}, null_order::last));
  auto const first = devcol::make_column<T>({std::nullopt, nan_v<T>, inf_v<T>, T{1}, -T{0}, T{0}});
  CHECK(devcol::is_sorted(first, order::descending, {}, null_order::first));
  CHECK_FALSE(devcol::is_sorted(first, order::descending, {}, null_order::last));
  CHECK_FALSE(devcol::is_sorted(devcol::make_column<T>({T{1}, nan_v<T>, T{2}})));
  CHECK_FALSE(devcol::is_sorted(devcol::make_column<T>({nan_v<T>, std::nullopt}), order::ascending, {}, null_order::first));
}

TEMPLATE_TEST_CASE("compare of floats is IEEE: NaN unequal to everything, -0.0 equal to 0.0", "[ops][compare][float]",
                   float, double) {
  using T = TestType;
  auto const col = devcol::make_column<T>({nan_v<T>, -T{0}, inf_v<T>, std::numeric_limits<T>::denorm_min()});
  CHECK(devcol::to_host(devcol::compare(col, devcol::cmp::equal, nan_v<T>)) == model<bool>{false, false, false, false});
  CHECK(devcol::to_host(devcol::compare(col, devcol::cmp::not_equal, nan_v<T>)) == model<bool>{true, true, true, true});
  CHECK(devcol::to_host(devcol::compare(col, devcol::cmp::equal, T{0})) == model<bool>{false, true, false, false});
  CHECK(devcol::to_host(devcol::compare(col, devcol::cmp::greater, T{0})) == model<bool>{false, false, true, true});
  CHECK(devcol::to_host(devcol::compare(col, devcol::cmp::less_equal, col)) == model<bool>{false, true, true, true});
}
