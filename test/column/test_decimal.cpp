// Decimal (32/64/128) and fixed-size binary columns: construction, names, host round trips,
// slices, copy-on-write rules 1-8 with pointer checks, spilling, printing.
#include "../support.hpp"

#include <devcol/column/decimal_column.hpp>
#include <devcol/column/factories.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/to_host.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using devcol::int128_t;

/// A value of `Rep` for row `i`: negative and positive, and beyond 64 bits for int128.
template <class Rep>
Rep decimal_value(std::size_t i) {
  auto const k = static_cast<std::int64_t>(i);
  if constexpr (sizeof(Rep) == 16) {
    int128_t const big = static_cast<int128_t>(k * 2654435761LL - 1'000'000'007LL) << 70;  // far past 2^64
    return i % 2 == 0 ? big + k : -big - k;
  } else {
    return static_cast<Rep>((k * 7919 % 200'003) - 100'000);
  }
}

/// `n` rows, every fifth null (and row 2) when `nulls`.
template <class Rep>
std::vector<std::optional<Rep>> decimal_model(std::size_t n, bool nulls) {
  std::vector<std::optional<Rep>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!nulls || (i % 5 != 3 && i != 2)) { rows[i] = decimal_value<Rep>(i); }
  }
  return rows;
}

/// `n` rows of `width` bytes (row i's bytes vary with i), every fourth null when `nulls`.
std::vector<std::optional<std::string>> binary_model(std::size_t n, std::size_t width, bool nulls) {
  std::vector<std::optional<std::string>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (nulls && i % 4 == 1) { continue; }
    std::string s(width, '\0');
    for (std::size_t b = 0; b < width; ++b) { s[b] = static_cast<char>((i * 31 + b * 7) & 0xFF); }
    rows[i] = s;
  }
  return rows;
}

}  // namespace

TEMPLATE_TEST_CASE("decimal columns name their Arrow format and type as pyarrow does", "[decimal]", std::int32_t,
                   std::int64_t, int128_t) {
  constexpr int max = devcol::max_decimal_precision_v<TestType>;
  devcol::decimal_column<TestType> col(0, max, 2);
  std::string const bits = std::to_string(sizeof(TestType) * 8);
  CHECK(col.type_name() == "decimal" + bits + "(" + std::to_string(max) + ", 2)");
  CHECK(col.arrow_format() == (sizeof(TestType) == 16 ? "d:38,2" : "d:" + std::to_string(max) + ",2," + bits));
  devcol::decimal_column<TestType> negative(0, 1, -3);
  CHECK(negative.scale() == -3);
  CHECK(negative.type_name() == "decimal" + bits + "(1, -3)");
}

TEST_CASE("decimal128 formats and type names match the examples of the issue", "[decimal]") {
  CHECK(devcol::decimal128_column(0, 38, 4).type_name() == "decimal128(38, 4)");
  CHECK(devcol::decimal128_column(0, 38, 4).arrow_format() == "d:38,4");
  CHECK(devcol::decimal32_column(0, 9, 2).type_name() == "decimal32(9, 2)");
  CHECK(devcol::decimal32_column(0, 9, 2).arrow_format() == "d:9,2,32");
  CHECK(devcol::decimal64_column(0, 18, 2).type_name() == "decimal64(18, 2)");
  CHECK(devcol::decimal64_column(0, 18, 2).arrow_format() == "d:18,2,64");
}

TEST_CASE("a decimal precision outside its width's range is a logic_error naming it", "[decimal]") {
  CHECK_THROWS_WITH(devcol::decimal32_column(0, 10, 0), Catch::Contains("precision 10") && Catch::Contains("[1, 9]"));
  CHECK_THROWS_WITH(devcol::decimal64_column(0, 19, 0), Catch::Contains("precision 19") && Catch::Contains("[1, 18]"));
  CHECK_THROWS_WITH(devcol::decimal128_column(0, 39, 0), Catch::Contains("precision 39") && Catch::Contains("[1, 38]"));
  CHECK_THROWS_AS(devcol::decimal128_column(0, 0, 0), devcol::logic_error);
  CHECK_THROWS_WITH(devcol::make_decimal_column<std::int32_t>(std::vector<std::int32_t>{1}, -1, 0),
                    Catch::Contains("precision -1"));
}

TEST_CASE("format_decimal writes decimals as pyarrow prints them", "[decimal]") {
  CHECK(devcol::format_decimal(std::int32_t{-1234}, 2) == "-12.34");
  CHECK(devcol::format_decimal(std::int32_t{5}, 2) == "0.05");
  CHECK(devcol::format_decimal(std::int32_t{-5}, 3) == "-0.005");
  CHECK(devcol::format_decimal(std::int64_t{0}, 2) == "0.00");
  CHECK(devcol::format_decimal(std::int64_t{12}, -2) == "1200");
  CHECK(devcol::format_decimal(std::int64_t{12}, 0) == "12");
  int128_t const big = static_cast<int128_t>(1) << 100;  // 1267650600228229401496703205376
  CHECK(devcol::format_decimal(big, 4) == "126765060022822940149670320.5376");
  CHECK(devcol::format_decimal(-big, 0) == "-1267650600228229401496703205376");
  int128_t const min = -(static_cast<int128_t>(1) << 126) * 2;  // INT128_MIN
  CHECK(devcol::format_decimal(min, 0) == "-170141183460469231731687303715884105728");
}

TEMPLATE_TEST_CASE("decimal columns round-trip host -> device -> host, whole and sliced", "[decimal]", std::int32_t,
                   std::int64_t, int128_t) {
  for (std::size_t n : {0U, 1U, 65U, 1000U}) {
    for (bool nulls : {false, true}) {
      CAPTURE(n, nulls);
      auto const model = decimal_model<TestType>(n, nulls);
      auto const col = devcol::make_decimal_column<TestType>(model, 7, 3);
      CHECK(col.precision() == 7);
      CHECK(col.scale() == 3);
      CHECK(devcol::to_host(col) == model);
      std::size_t expected_nulls = 0;
      for (auto const& v : model) { expected_nulls += v ? 0 : 1; }
      CHECK(col.null_count() == expected_nulls);
      if (n < 14) { continue; }
      auto const part = col.slice(3, n - 10);  // offset 3: not a multiple of 8
      CHECK(part.offset() == 3);
      CHECK(part.data(devcol::access::read) == col.data(devcol::access::read) + 3);
      CHECK(devcol::to_host(part) == std::vector<std::optional<TestType>>(model.begin() + 3, model.end() - 10));
      auto const sub = part.slice(5, 20);  // flat: offsets summed
      CHECK(sub.offset() == 8);
      CHECK(devcol::to_host(sub) == std::vector<std::optional<TestType>>(model.begin() + 8, model.begin() + 23));
      auto const owned = sub.deep_copy();  // rules 7 and 8: fresh memory, only its rows
      CHECK(owned.offset() == 0);
      CHECK(owned.data_buffer().size() == 15 * sizeof(TestType));
      CHECK(owned.precision() == 7);
      CHECK(devcol::to_host(owned) == devcol::to_host(sub));
    }
  }
}

TEST_CASE("decimal128 keeps values beyond 64 bits and negative ones bit-exactly", "[decimal]") {
  int128_t const big = (static_cast<int128_t>(0x0123456789ABCDEFLL) << 64) | 0xFEDCBA9876543210ULL;
  std::vector<std::optional<int128_t>> const model{big, -big, std::nullopt, int128_t{-1}, int128_t{0}};
  auto const col = devcol::make_decimal_column<int128_t>(model, 38, 0);
  CHECK(devcol::to_host(col) == model);
  // Arrow's decimal128 layout: 16-byte little-endian two's complement.
  unsigned char bytes[16];
  devcol::copy_bytes(bytes, col.data(devcol::access::read) + 1, 16, {});
  CHECK(bytes[0] == static_cast<unsigned char>(~0x10 + 1));  // low byte of -big: two's complement of 0x10
  CHECK(bytes[15] == 0xFE);                                    // high byte of -0x0123... is 0xFE
}

TEST_CASE("decimal columns follow copy-on-write rules 1-4 and 7 with pointers checked", "[decimal]") {
  auto s1 = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2, 3, 4}, 10, 2);
  auto const* original = s1.data(devcol::access::read);
  auto s2 = s1;  // rule 1: shares
  auto s3 = s2;
  CHECK(s2.data(devcol::access::read) == original);
  CHECK(s1.is_shared());
  std::int64_t* w2 = s2.data(devcol::access::write);  // rule 3: s2 copies only itself
  CHECK(w2 != original);
  devcol::copy_bytes(w2, std::vector<std::int64_t>{9}.data(), sizeof(std::int64_t), {});
  CHECK(devcol::to_host(s1)[0] == 1);
  CHECK(devcol::to_host(s2)[0] == 9);
  CHECK(s2.precision() == 10);  // precision and scale travel with the copy
  CHECK(s2.scale() == 2);
  std::int64_t* w1 = s1.data(devcol::access::write);  // s3 still shares with s1: s1 copies
  CHECK(w1 != original);
  CHECK(s3.data(devcol::access::read) == original);
  std::int64_t* w3 = s3.data(devcol::access::write);  // rule 4: s3 is alone, no copy
  CHECK(w3 == original);
  CHECK(s3.deep_copy().data(devcol::access::read) != original);  // rule 7
  auto const aliased = s3.alias();
  CHECK(aliased.data(devcol::access::read) == original);
  CHECK(aliased.type_name() == s3.type_name());
}

TEST_CASE("a spillable decimal column spills and comes back bit-exactly", "[decimal]") {
  auto const model = decimal_model<int128_t>(100, true);
  auto col = devcol::make_decimal_column<int128_t, devcol_test::spilling>(model, 30, 5);
  CHECK(col.spill() > 0);
  CHECK(col.is_spilled());
  col.unspill();
  CHECK_FALSE(col.is_spilled());
  CHECK(devcol::to_host(col) == model);
}

TEST_CASE("decimal columns print their rows as decimals", "[decimal]") {
  auto const col = devcol::make_decimal_column<std::int32_t>(
      std::vector<std::optional<std::int32_t>>{-1234, std::nullopt, 5}, 9, 2);
  std::ostringstream out;
  out << col;
  CHECK(out.str() == "decimal32(9, 2)[-12.34, null, 0.05]");
  devcol::column<int128_t> raw = devcol::make_column<int128_t>(std::vector<int128_t>{-(static_cast<int128_t>(1) << 70)});
  std::ostringstream raw_out;
  raw_out << raw;
  CHECK(raw_out.str() == "column<int128>[-1180591620717411303424]");
}

TEST_CASE("fixed-size binary columns round-trip host -> device -> host, whole and sliced", "[fixed_size_binary]") {
  for (std::size_t width : {1U, 3U, 16U}) {
    for (std::size_t n : {0U, 1U, 65U, 1000U}) {
      for (bool nulls : {false, true}) {
        CAPTURE(width, n, nulls);
        auto const model = binary_model(n, width, nulls);
        auto const col = devcol::make_fixed_size_binary_column(model, width);
        CHECK(col.width() == width);
        CHECK(col.size() == n);
        CHECK(devcol::to_host(col) == model);
        CHECK(col.has_nulls() == (nulls && n > 1));
        if (n < 14) { continue; }
        auto const part = col.slice(3, n - 10);
        CHECK(part.offset() == 3);
        CHECK(part.data(devcol::access::read) == col.data(devcol::access::read));  // rows move, the buffer stays
        CHECK(devcol::to_host(part) ==
              std::vector<std::optional<std::string>>(model.begin() + 3, model.end() - 10));
        auto const sub = part.slice(5, 20);
        CHECK(sub.offset() == 8);
        auto const owned = sub.deep_copy();
        CHECK(owned.offset() == 0);
        CHECK(owned.data_buffer().size() == 15 * width);
        CHECK(devcol::to_host(owned) ==
              std::vector<std::optional<std::string>>(model.begin() + 8, model.begin() + 23));
      }
    }
  }
}

TEST_CASE("fixed-size binary names its format and type, a row of the wrong length names the row", "[fixed_size_binary]") {
  auto const col = devcol::make_fixed_size_binary_column({"ab", std::nullopt, "cd"}, 2);
  CHECK(col.arrow_format() == "w:2");
  CHECK(col.type_name() == "fixed_size_binary[2]");
  CHECK(col.null_count() == 1);
  CHECK_THROWS_WITH(devcol::make_fixed_size_binary_column({"ab", "c"}, 2),
                    Catch::Contains("row 1 has 1 bytes") && Catch::Contains("width 2"));
  CHECK_THROWS_AS(devcol::make_fixed_size_binary_column(std::vector<std::string>{"abc"}, 2), devcol::logic_error);
  std::ostringstream out;
  out << col;
  CHECK(out.str() == "fixed_size_binary[2][0x6162, null, 0x6364]");
  auto const empty = devcol::make_fixed_size_binary_column(std::vector<std::string>{}, 4);
  CHECK(empty.size() == 0);
  CHECK(empty.type_name() == "fixed_size_binary[4]");
  auto const zero = devcol::make_fixed_size_binary_column({"", std::nullopt}, 0);
  CHECK(devcol::to_host(zero) == std::vector<std::optional<std::string>>{std::string(), std::nullopt});
}

TEST_CASE("fixed-size binary columns follow copy-on-write rules 1-4 and 7 with pointers checked", "[fixed_size_binary]") {
  auto s1 = devcol::make_fixed_size_binary_column({"aaaa", "bbbb", std::nullopt, "dddd"}, 4);
  std::byte const* original = s1.data(devcol::access::read);
  auto s2 = s1;
  auto s3 = s2;
  CHECK(s2.data(devcol::access::read) == original);
  CHECK(s1.is_shared());
  std::byte* w2 = s2.data(devcol::access::write);
  CHECK(w2 != original);
  devcol::copy_bytes(w2, "zzzz", 4, {});
  CHECK(*devcol::to_host(s1)[0] == "aaaa");
  CHECK(*devcol::to_host(s2)[0] == "zzzz");
  CHECK(devcol::to_host(s2)[2] == std::nullopt);  // the mask came along
  std::byte* w1 = s1.data(devcol::access::write);
  CHECK(w1 != original);
  CHECK(s3.data(devcol::access::read) == original);
  CHECK(s3.data(devcol::access::write) == original);  // rule 4
  // A sliced writer copies only its own rows, to offset 0.
  auto tail = s3.slice(1, 4);
  auto keep = s3;
  std::byte* wt = tail.data(devcol::access::write);
  CHECK(wt != original);
  CHECK(tail.offset() == 0);
  CHECK(tail.data_buffer().size() == 12);
  CHECK(devcol::to_host(tail) == std::vector<std::optional<std::string>>{"bbbb", std::nullopt, "dddd"});
  CHECK(keep.alias().data(devcol::access::read) == original);
}

TEST_CASE("a spillable fixed-size binary column spills and comes back bit-exactly", "[fixed_size_binary]") {
  auto const model = binary_model(100, 5, true);
  auto col = devcol::make_fixed_size_binary_column<devcol_test::spilling>(model, 5);
  CHECK(col.spill() > 0);
  CHECK(col.is_spilled());
  col.unspill();
  CHECK(devcol::to_host(col) == model);
}
