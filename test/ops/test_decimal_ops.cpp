// Ops on decimal and fixed-size binary columns against host references: gather, filter,
// concatenate, compare, sort, null handling; sizes 0/1/65/1000, slices at offsets not a multiple
// of 8, random nulls, int128 values beyond 64 bits and negative ones.
#include "../support.hpp"

#include <devcol/column/decimal_column.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/column/factories.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/ops/compare.hpp>
#include <devcol/ops/concatenate.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>
#include <devcol/ops/null_mask.hpp>
#include <devcol/ops/sort.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using devcol::int128_t;

template <class T>
using rows_of = std::vector<std::optional<T>>;

/// Random rows: about a quarter null, values of both signs (int128: past 64 bits), some repeated.
template <class Rep>
rows_of<Rep> random_decimals(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 gen(seed);
  rows_of<Rep> rows(n);
  for (auto& r : rows) {
    if (gen() % 4 == 0) { continue; }
    auto const v = static_cast<std::int64_t>(gen() % 2001) - 1000;  // small range: ties for the stable sort
    if constexpr (sizeof(Rep) == 16) {
      r = (static_cast<int128_t>(v) << 66) + static_cast<int128_t>(gen() % 3);
    } else {
      r = static_cast<Rep>(v);
    }
  }
  return rows;
}

rows_of<std::string> random_binary(std::size_t n, std::size_t width, std::uint32_t seed) {
  std::mt19937 gen(seed);
  rows_of<std::string> rows(n);
  for (auto& r : rows) {
    if (gen() % 4 == 0) { continue; }
    std::string s(width, '\0');
    for (auto& c : s) { c = static_cast<char>(gen() & 0xFF); }
    r = s;
  }
  return rows;
}

template <class T>
rows_of<T> rows_in(rows_of<T> const& rows, std::size_t begin, std::size_t end) {
  return rows_of<T>(rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end));
}

/// The inputs of the ops: the whole column and, when long enough, rows [3, n - 2) (offset 3).
constexpr std::size_t op_sizes[] = {0, 1, 65, 1000};
constexpr std::size_t slice_begin = 3;

}  // namespace

TEMPLATE_TEST_CASE("gather, filter and null handling of decimals match host references", "[decimal][ops]",
                   std::int32_t, std::int64_t, int128_t) {
  for (std::size_t n : op_sizes) {
    for (bool sliced : {false, true}) {
      if (sliced && n < 8) { continue; }
      CAPTURE(n, sliced);
      auto const all = random_decimals<TestType>(n, static_cast<std::uint32_t>(n + 1));
      auto const whole = devcol::make_decimal_column<TestType>(all, 9, 2);
      auto const col = sliced ? whole.slice(slice_begin, n - 2) : whole;
      auto const model = sliced ? rows_in(all, slice_begin, n - 2) : all;
      std::size_t const m = model.size();

      std::vector<std::int64_t> idx;
      for (std::size_t i = 0; i < 2 * m; ++i) { idx.push_back(static_cast<std::int64_t>((i * 7919) % (m == 0 ? 1 : m))); }
      if (m == 0) { idx.clear(); }
      auto const gathered = devcol::gather(col, devcol::make_column<std::int64_t>(idx));
      rows_of<TestType> expected;
      for (auto i : idx) { expected.push_back(model[static_cast<std::size_t>(i)]); }
      CHECK(devcol::to_host(gathered) == expected);
      CHECK(gathered.type_name() == col.type_name());
      CHECK(gathered.resource_name() == col.resource_name());

      std::vector<std::optional<bool>> keep(m);
      for (std::size_t i = 0; i < m; ++i) { keep[i] = i % 5 == 4 ? std::nullopt : std::optional<bool>(i % 3 != 0); }
      auto const kept = devcol::filter(col, devcol::make_column<bool>(keep));
      rows_of<TestType> kept_model;
      for (std::size_t i = 0; i < m; ++i) {
        if (keep[i].value_or(false)) { kept_model.push_back(model[i]); }
      }
      CHECK(devcol::to_host(kept) == kept_model);
      CHECK(kept.scale() == 2);

      auto const nulls = devcol::to_host(devcol::is_null(col));
      auto const valid = devcol::to_host(devcol::is_valid(col));
      for (std::size_t i = 0; i < m; ++i) {
        CHECK(nulls[i] == !model[i].has_value());
        CHECK(valid[i] == model[i].has_value());
      }
      auto const filled = devcol::to_host(devcol::fill_null(col, TestType{-7}));
      for (std::size_t i = 0; i < m; ++i) { CHECK(filled[i] == model[i].value_or(TestType{-7})); }
    }
  }
}

TEMPLATE_TEST_CASE("sort, argsort, is_sorted and compare of decimals match host references", "[decimal][ops]",
                   std::int32_t, std::int64_t, int128_t) {
  for (std::size_t n : op_sizes) {
    CAPTURE(n);
    auto const all = random_decimals<TestType>(n + 3, static_cast<std::uint32_t>(7 * n + 3));
    auto const col = devcol::make_decimal_column<TestType>(all, 5, -1).slice(slice_begin, n + 3);
    auto const model = rows_in(all, slice_begin, n + 3);

    std::vector<std::int64_t> order(model.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
      auto const& x = model[static_cast<std::size_t>(a)];
      auto const& y = model[static_cast<std::size_t>(b)];
      if (!x || !y) { return x.has_value() && !y.has_value(); }  // nulls last
      return *x > *y;                                             // descending
    });
    auto const indices = devcol::argsort(col, devcol::order::descending);
    std::vector<std::optional<std::int64_t>> expected_indices(order.begin(), order.end());
    CHECK(devcol::to_host(indices) == expected_indices);
    auto const sorted = devcol::sort(col, devcol::order::descending);
    rows_of<TestType> sorted_model;
    for (auto i : order) { sorted_model.push_back(model[static_cast<std::size_t>(i)]); }
    CHECK(devcol::to_host(sorted) == sorted_model);
    CHECK(sorted.type_name() == "decimal" + std::to_string(sizeof(TestType) * 8) + "(5, -1)");
    CHECK(devcol::is_sorted(sorted, devcol::order::descending));

    TestType const pivot = model.empty() || !model[0] ? TestType{0} : *model[0];
    auto const less = devcol::to_host(devcol::compare(col, devcol::cmp::less, pivot));
    auto const equal = devcol::to_host(devcol::compare(col, devcol::cmp::equal, sorted.slice(0, col.size())));
    for (std::size_t i = 0; i < model.size(); ++i) {
      CHECK(less[i] == (model[i] ? std::optional<bool>(*model[i] < pivot) : std::nullopt));
      auto const& s = sorted_model[i];
      CHECK(equal[i] == (model[i] && s ? std::optional<bool>(*model[i] == *s) : std::nullopt));
    }
  }
}

TEST_CASE("decimal ops refuse inputs of different scale or precision, naming both types", "[decimal][ops]") {
  auto const a = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2}, 10, 2);
  auto const b = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2}, 10, 3);
  auto const c = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2}, 12, 2);
  CHECK_THROWS_WITH(devcol::compare(a, devcol::cmp::equal, b),
                    Catch::Contains("decimal64(10, 2)") && Catch::Contains("decimal64(10, 3)"));
  CHECK_NOTHROW(devcol::compare(a, devcol::cmp::equal, c));  // same scale: the values compare
  CHECK_THROWS_WITH(devcol::concatenate(std::vector{a, b}),
                    Catch::Contains("decimal64(10, 2)") && Catch::Contains("decimal64(10, 3)"));
  CHECK_THROWS_WITH(devcol::concatenate(std::vector{a, c}), Catch::Contains("decimal64(12, 2)"));
}

TEMPLATE_TEST_CASE("concatenating decimals keeps rows, nulls, precision and scale", "[decimal][ops]", std::int32_t,
                   std::int64_t, int128_t) {
  auto const x = random_decimals<TestType>(1000, 11);
  auto const y = random_decimals<TestType>(65, 12);
  auto const a = devcol::make_decimal_column<TestType>(x, 9, 4).slice(3, 997);
  auto const b = devcol::make_decimal_column<TestType>(y, 9, 4).slice(5, 65);
  auto const e = devcol::make_decimal_column<TestType>(rows_of<TestType>{}, 9, 4);
  auto const joined = devcol::concatenate(std::vector{a, e, b});
  auto expected = rows_in(x, 3, 997);
  auto const tail = rows_in(y, 5, 65);
  expected.insert(expected.end(), tail.begin(), tail.end());
  CHECK(devcol::to_host(joined) == expected);
  CHECK(joined.null_count() == a.null_count() + b.null_count());
  CHECK(joined.precision() == 9);
  CHECK(joined.scale() == 4);
  CHECK(devcol::concatenate(std::vector<devcol::decimal_column<TestType>>{}).empty());
}

TEST_CASE("gather, filter, concatenate and null handling of fixed-size binary match host references",
          "[fixed_size_binary][ops]") {
  for (std::size_t width : {1U, 5U, 16U}) {
    for (std::size_t n : op_sizes) {
      for (bool sliced : {false, true}) {
        if (sliced && n < 8) { continue; }
        CAPTURE(width, n, sliced);
        auto const all = random_binary(n, width, static_cast<std::uint32_t>(n * 3 + width));
        auto const whole = devcol::make_fixed_size_binary_column(all, width);
        auto const col = sliced ? whole.slice(slice_begin, n - 2) : whole;
        auto const model = sliced ? rows_in(all, slice_begin, n - 2) : all;
        std::size_t const m = model.size();

        std::vector<std::optional<std::int32_t>> idx;
        for (std::size_t i = 0; i < m + 3; ++i) {
          idx.push_back(i % 9 == 8 || m == 0 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>((i * 31) % m)));
        }
        auto const gathered = devcol::gather(col, devcol::make_column<std::int32_t>(idx));
        rows_of<std::string> expected;
        for (auto const& i : idx) { expected.push_back(i ? model[static_cast<std::size_t>(*i)] : std::nullopt); }
        CHECK(devcol::to_host(gathered) == expected);
        CHECK(gathered.width() == width);

        std::vector<bool> keep(m);
        for (std::size_t i = 0; i < m; ++i) { keep[i] = (i * 13) % 7 < 3; }
        auto const kept = devcol::filter(col, devcol::make_column<bool>(keep));
        rows_of<std::string> kept_model;
        for (std::size_t i = 0; i < m; ++i) {
          if (keep[i]) { kept_model.push_back(model[i]); }
        }
        CHECK(devcol::to_host(kept) == kept_model);

        auto const joined = devcol::concatenate(std::vector{col, whole.slice(0, std::min<std::size_t>(n, 9)), col});
        rows_of<std::string> joined_model = model;
        auto const head = rows_in(all, 0, std::min<std::size_t>(n, 9));
        joined_model.insert(joined_model.end(), head.begin(), head.end());
        joined_model.insert(joined_model.end(), model.begin(), model.end());
        CHECK(devcol::to_host(joined) == joined_model);

        auto const nulls = devcol::to_host(devcol::is_null(col));
        auto const valid = devcol::to_host(devcol::is_valid(col));
        for (std::size_t i = 0; i < m; ++i) {
          CHECK(nulls[i] == !model[i].has_value());
          CHECK(valid[i] == model[i].has_value());
        }
      }
    }
  }
}

TEST_CASE("fixed-size binary ops refuse other widths and out-of-bounds indices", "[fixed_size_binary][ops]") {
  auto const a = devcol::make_fixed_size_binary_column({"ab", "cd"}, 2);
  auto const b = devcol::make_fixed_size_binary_column({"abc"}, 3);
  CHECK_THROWS_WITH(devcol::concatenate(std::vector{a, b}),
                    Catch::Contains("fixed_size_binary[2]") && Catch::Contains("fixed_size_binary[3]"));
  CHECK_THROWS_WITH(devcol::gather(a, devcol::make_column<std::int64_t>(std::vector<std::int64_t>{0, 2})),
                    Catch::Contains("index 2 at row 1"));
  auto const nullified = devcol::gather(a, devcol::make_column<std::int64_t>(std::vector<std::int64_t>{1, -1}),
                                        {}, devcol::out_of_bounds::nullify);
  CHECK(devcol::to_host(nullified) == rows_of<std::string>{"cd", std::nullopt});
}

TEST_CASE("fixed-size binary gather and filter move whole rows of any width, sliced, with nulls and bad indices",
          "[fixed_size_binary][ops]") {
  // Widths 1, 2, 4, 8 and 16 take the typed one-move copy (and filter goes through the integer of
  // that width), 3 and 17 the generic one; the slices start at odd rows, so a row's bytes start at
  // an odd multiple of the width from the buffer.
  for (std::size_t width : {1U, 2U, 3U, 4U, 8U, 16U, 17U}) {
    for (std::size_t begin : {0U, 1U, 5U}) {
      CAPTURE(width, begin);
      std::size_t const n = 67;
      auto const all = random_binary(n, width, static_cast<std::uint32_t>(width * 7 + begin));
      auto const col = devcol::make_fixed_size_binary_column(all, width).slice(begin, n - 1);
      auto const model = rows_in(all, begin, n - 1);
      auto const m = static_cast<std::int64_t>(model.size());

      // Every third index null, some past either end: nullify gives null rows for both kinds.
      std::vector<std::optional<std::int64_t>> idx;
      for (std::int64_t i = 0; i < m + 9; ++i) {
        idx.push_back(i % 3 == 2 ? std::nullopt : std::optional<std::int64_t>((i * 37) % (m + 6) - 3));
      }
      rows_of<std::string> expected;
      for (auto const& i : idx) { expected.push_back(i && *i >= 0 && *i < m ? model[static_cast<std::size_t>(*i)] : std::nullopt); }
      auto const indices = devcol::make_column<std::int64_t>(idx);
      auto const nullified = devcol::gather(col, indices, {}, devcol::out_of_bounds::nullify);
      CHECK(devcol::to_host(nullified) == expected);
      CHECK(nullified.width() == width);
      CHECK_THROWS_WITH(devcol::gather(col, indices), Catch::Contains("gather"));

      // In-bounds indices with throw_error: the same rows, no throw.
      std::vector<std::optional<std::int64_t>> good;
      rows_of<std::string> good_model;
      for (std::int64_t i = 0; i < m; ++i) {
        good.push_back(i % 4 == 1 ? std::nullopt : std::optional<std::int64_t>((i * 11) % m));
        good_model.push_back(good.back() ? model[static_cast<std::size_t>(*good.back())] : std::nullopt);
      }
      CHECK(devcol::to_host(devcol::gather(col, devcol::make_column<std::int64_t>(good))) == good_model);

      // Null flags drop their rows.
      std::vector<std::optional<bool>> keep;
      rows_of<std::string> kept_model;
      for (std::int64_t i = 0; i < m; ++i) {
        keep.push_back(i % 5 == 4 ? std::nullopt : std::optional<bool>(i % 3 != 0));
        if (keep.back().value_or(false)) { kept_model.push_back(model[static_cast<std::size_t>(i)]); }
      }
      CHECK(devcol::to_host(devcol::filter(col, devcol::make_column<bool>(keep))) == kept_model);
    }
  }
  // Rows of 8 and 16 bytes borrowed one byte past an aligned address (as an Arrow producer may hand
  // them over): the typed paths must not be taken, and the generic ones give the same rows.
  for (std::size_t width : {8U, 16U}) {
    CAPTURE(width);
    std::size_t const n = 33;
    auto const all = random_binary(n, width, static_cast<std::uint32_t>(width));
    auto const aligned = devcol::make_fixed_size_binary_column(all, width);
    devcol::stream s;
    auto const bytes = std::make_shared<devcol::column<std::uint8_t>>(n * width + 1, s);
    std::uint8_t* const shifted = bytes->data(devcol::access::write, s) + 1;
    devcol::copy_bytes(shifted, aligned.data(devcol::access::read), n * width, s);
    s.synchronize();
    using buffer_type = devcol::fixed_size_binary_column<>::buffer_type;
    devcol::fixed_size_binary_column<> const odd(width, buffer_type::borrow(shifted, n * width, bytes),
                                                 aligned.mask_buffer().alias(), n, aligned.null_count());
    REQUIRE(reinterpret_cast<std::uintptr_t>(odd.data(devcol::access::read)) % 2 == 1);
    std::vector<bool> keep(n);
    rows_of<std::string> kept_model;
    for (std::size_t i = 0; i < n; ++i) {
      keep[i] = i % 3 != 1;
      if (keep[i]) { kept_model.push_back(all[i]); }
    }
    CHECK(devcol::to_host(devcol::filter(odd, devcol::make_column<bool>(keep))) == kept_model);
  }
  auto const empty = devcol::make_fixed_size_binary_column(rows_of<std::string>{}, 3);
  CHECK(devcol::gather(empty, devcol::make_column<std::int64_t>(std::vector<std::int64_t>{})).empty());
  CHECK(devcol::to_host(devcol::gather(empty, devcol::make_column<std::int64_t>(std::vector<std::int64_t>{0}), {},
                                       devcol::out_of_bounds::nullify)) == rows_of<std::string>{std::nullopt});
}

TEST_CASE("int32 columns with negative and positive keys sort in order (Thrust's host radix encoder is wrong for int32)",
          "[ops][sort]") {
  std::vector<std::int32_t> values;
  for (int i = 0; i < 1000; ++i) { values.push_back((i * 7919) % 201 - 100); }
  auto expected = values;
  std::stable_sort(expected.begin(), expected.end());
  auto const sorted = devcol::sort(devcol::make_column<std::int32_t>(values));
  CHECK(devcol::to_host(sorted) == std::vector<std::optional<std::int32_t>>(expected.begin(), expected.end()));
  CHECK(devcol::is_sorted(sorted));
}
