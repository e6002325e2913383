// Arrow's null type (null_column: no buffers, every row null) and decimal256 (decimal_column over
// int256_t, sharing decimal128's code): the kinds, the ops that keep them, and Arrow both ways.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::null_decimal256 {

using devcol::int256_t;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;

/// Row i of a decimal256 test column: past 128 bits for some rows, both signs, null when i % 5 == 2.
inline std::optional<int256_t> d256_value(std::size_t i) {
  if (i % 5 == 2) { return std::nullopt; }
  auto const k = static_cast<std::uint64_t>(i);
  int256_t v = i % 3 == 0 ? int256_t::from_words(k, k * 7, i % 2 == 0 ? k : 0, 0) : int256_t(std::int64_t(k) - 50);
  if (i % 4 == 1) { v = int256_t::from_words(~k, ~(k * 3), ~std::uint64_t{0}, ~std::uint64_t{0}); }  // negative
  return v;
}

inline std::vector<std::optional<int256_t>> d256_rows(std::size_t n) {
  std::vector<std::optional<int256_t>> rows;
  for (std::size_t i = 0; i < n; ++i) { rows.push_back(d256_value(i)); }
  return rows;
}

}  // namespace devcol_test::null_decimal256

using namespace devcol_test::null_decimal256;  // NOLINT: test brevity

TEST_CASE("int256_t: two's-complement order, equality, widening and decimal text", "[decimal256][types]") {
  STATIC_REQUIRE(sizeof(int256_t) == 32);
  STATIC_REQUIRE(devcol::fixed_width<int256_t>);
  STATIC_REQUIRE(!devcol::arrow_fixed_width<int256_t>);
  int256_t const minus_one(-1);
  int256_t const big = int256_t::from_words(0, 0, 1, 0);  // 2^128
  int256_t const most_negative = int256_t::from_words(0, 0, 0, std::uint64_t{1} << 63);
  CHECK(minus_one < int256_t(0));
  CHECK(int256_t(0) < big);
  CHECK(most_negative < minus_one);
  CHECK(int256_t(devcol::int128_t(-5)) == int256_t(-5));
  CHECK(int256_t(std::uint64_t{~std::uint64_t{0}}) > int256_t(0));  // unsigned values widen without a sign
  CHECK(devcol::format_decimal(big, 0) == "340282366920938463463374607431768211456");
  CHECK(devcol::format_decimal(int256_t(-1234), 2) == "-12.34");
  CHECK(devcol::format_decimal(most_negative, 0) ==
        "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
}

TEST_CASE("decimal256: a kind of decimal whose ops keep the type (gather, filter, concatenate, sort, compare)",
          "[decimal256][ops]") {
  devcol_test::leak_check leaks;
  auto const rows = d256_rows(40);
  auto const col = devcol::make_decimal_column<int256_t>(rows, 76, 4).slice(3, 40);
  std::vector<std::optional<int256_t>> const model(rows.begin() + 3, rows.end());
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(col)>, devcol::decimal256_column>);
  STATIC_REQUIRE(devcol::kind_of<devcol::decimal256_column> == devcol::kind::decimal);
  CHECK(col.type_name() == "decimal256(76, 4)");
  CHECK(col.arrow_format() == "d:76,4,256");
  CHECK_THROWS_WITH(devcol::make_decimal_column<int256_t>(rows, 77, 0), Catch::Contains("precision 77 is not within [1, 76]"));

  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({5, std::nullopt, 0}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, devcol::decimal256_column>);
  CHECK(devcol::to_host(g) == (std::vector<std::optional<int256_t>>{model[5], std::nullopt, model[0]}));
  CHECK(g.precision() == 76);
  CHECK(g.scale() == 4);

  std::vector<std::optional<bool>> keep(col.size());
  std::vector<std::optional<int256_t>> kept;
  for (std::size_t i = 0; i < col.size(); ++i) {
    keep[i] = i % 3 != 1;
    if (i % 3 != 1) { kept.push_back(model[i]); }
  }
  auto const f = devcol::filter(col, devcol::make_column<bool>(keep));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(f)>, devcol::decimal256_column>);
  CHECK(devcol::to_host(f) == kept);
  auto const c = devcol::concatenate(std::vector{col.slice(0, 4), col.slice(30, 37)});
  CHECK(c.size() == 11);
  CHECK(devcol::to_host(c)[4] == model[30]);

  auto const sorted = devcol::sort(col);
  auto expected = model;
  std::stable_sort(expected.begin(), expected.end(), [](auto const& a, auto const& b) {
    if (!a || !b) { return a.has_value() && !b.has_value(); }
    return *a < *b;
  });
  CHECK(devcol::to_host(sorted) == expected);
  CHECK(devcol::is_sorted(sorted));
  CHECK(devcol::to_host(devcol::sort(col, devcol::order::descending)).front() == expected[col.size() - col.null_count() - 1]);

  auto const less = devcol::to_host(devcol::compare(col, devcol::cmp::less, sorted));
  for (std::size_t i = 0; i < col.size(); ++i) {
    if (model[i] && expected[i]) {
      CHECK(*less[i] == (*model[i] < *expected[i]));
    } else {
      CHECK(!less[i].has_value());
    }
  }
  auto const filled = devcol::fill_null(col, int256_t(7));
  CHECK(filled.null_count() == 0);
  std::ostringstream shown;
  shown << devcol::make_decimal_column<int256_t>(std::vector<std::optional<int256_t>>{int256_t(-1234), std::nullopt}, 10, 2);
  CHECK(shown.str() == "decimal256(10, 2)[-12.34, null]");
}

TEST_CASE("arrow decimal256: devcol -> Arrow -> devcol at an odd offset, zero-copy, and refusals name the width",
          "[decimal256][arrow]") {
  devcol_test::leak_check leaks;
  auto const col = devcol::make_decimal_column<int256_t>(d256_rows(100), 60, -3).slice(13, 83);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "d:60,-3,256");
    CHECK(e.array.array.offset == 13);
    CHECK(e.array.array.buffers[1] == static_cast<void const*>(col.data(devcol::access::read) - 13));
    auto const back = devcol::from_arrow<devcol::decimal256_column>(&e.schema, &e.array);
    CHECK(back.data(devcol::access::read) == col.data(devcol::access::read));
    CHECK(back.precision() == 60);
    CHECK(back.scale() == -3);
    CHECK(devcol::to_host(back) == devcol::to_host(col));
  }
  {
    exported e;
    devcol::to_arrow(devcol::any_column<>(col), &e.schema, &e.array);
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<devcol::decimal256_column>(any));
    CHECK(devcol::type_name(any) == "decimal256(60, -3)");
  }
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<devcol::decimal128_column>(&e.schema, &e.array); }),
               Catch::Contains("is decimal256, not decimal128"));
  }
}

TEST_CASE("null column: every row null, no memory, ops keep the kind", "[null][ops]") {
  devcol_test::leak_check leaks;
  devcol::null_column<> const n(7);
  STATIC_REQUIRE(devcol::kind_of<devcol::null_column<>> == devcol::kind::null);
  CHECK(n.null_count() == 7);
  CHECK_FALSE(n.nullable());
  CHECK(n.slice(2, 6).size() == 4);
  CHECK_THROWS_WITH(n.slice(3, 9), Catch::Contains("null_column::slice") && Catch::Contains("9"));
  auto const g = devcol::gather(n, devcol::make_column<std::int64_t>({6, std::nullopt, 0}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, devcol::null_column<>>);
  CHECK(g.size() == 3);
  CHECK_THROWS_WITH(devcol::gather(n, devcol::make_column<std::int64_t>({7})), Catch::Contains("index 7 at row 0"));
  CHECK(devcol::gather(n, devcol::make_column<std::int64_t>({7}), {}, devcol::out_of_bounds::nullify).size() == 1);
  CHECK(devcol::filter(n, devcol::make_column<bool>({true, false, std::nullopt, true, true, false, true})).size() == 4);
  CHECK_THROWS_WITH(devcol::filter(n, devcol::make_column<bool>({true})), Catch::Contains("7") && Catch::Contains("1"));
  CHECK(devcol::concatenate(std::vector{n, n.slice(0, 2)}).size() == 9);
  CHECK(devcol::to_host(devcol::is_null(n)) == std::vector<std::optional<bool>>(7, true));
  CHECK(devcol::to_host(devcol::is_valid(n)) == std::vector<std::optional<bool>>(7, false));

  devcol::any_column<> const any(n);
  CHECK(devcol::type_name(any) == "null");
  CHECK(devcol::arrow_format(any) == "n");
  CHECK(devcol::null_count(any) == 7);
  CHECK(devcol::type_name(devcol::gather(any, devcol::make_column<std::int32_t>({1}))) == "null");
  CHECK(devcol::size(devcol::concatenate(std::vector{any, any})) == 14);
  CHECK(devcol::size(devcol::deep_copy(any, {})) == 7);
  CHECK(devcol::to_host_values(any).size() == 7);
  std::ostringstream shown;
  shown << devcol::null_column<>(2);
  CHECK(shown.str() == "null[null, null]");
}

TEST_CASE("arrow null: no buffers both ways, in a table and a stream, and a malformed one is refused", "[null][arrow]") {
  devcol_test::leak_check leaks;
  {
    exported e;
    devcol::to_arrow(devcol::null_column<>(5), &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "n");
    CHECK(e.array.array.n_buffers == 0);
    CHECK(e.array.array.length == 5);
    CHECK(e.array.array.null_count == 5);
    CHECK(devcol::from_arrow<devcol::null_column<>>(&e.schema, &e.array).size() == 5);
  }
  {
    exported e;
    devcol::to_arrow(devcol::null_column<>(5), &e.schema, &e.array);
    e.array.array.null_count = 3;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.null_count is 3 for a null array of 5 rows"));
  }
  devcol::table tbl;
  tbl.add("n", devcol::null_column<>(4)).add("x", devcol::make_column<std::int32_t>({1, 2, 3, 4}));
  devcol::table shorter;
  shorter.add("n", devcol::null_column<>(2)).add("x", devcol::make_column<std::int32_t>({5, 6}));
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector<devcol::table>{tbl, shorter}, &stream);
  auto const back = devcol::tables_from_arrow(&stream);
  REQUIRE(back.size() == 2);
  CHECK(back[0].get<devcol::null_column<>>("n").size() == 4);
  CHECK(back[1].get<devcol::null_column<>>("n").size() == 2);
}
