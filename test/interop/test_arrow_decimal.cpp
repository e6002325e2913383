// Arrow export and import of decimal (32/64/128) and fixed-size binary columns: round trips with
// nulls, empty columns and slices at offsets not a multiple of 8; zero-copy; the untrusted format
// strings "d:P,S[,W]" and "w:N"; the input released exactly once on every path.
#include "interop_support.hpp"

#include <devcol/column/decimal_column.hpp>
#include <devcol/column/factories.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/column/to_host.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using devcol_test::leak_check;
using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using devcol_test::interop::release_counter;
using Catch::Contains;
using devcol::int128_t;

static_assert(devcol::arrow_importable<devcol::decimal32_column>);
static_assert(devcol::arrow_importable<devcol::decimal128_column>);
static_assert(devcol::arrow_importable<devcol::fixed_size_binary_column<>>);
static_assert(!devcol::arrow_importable<std::int64_t>);
static_assert(!devcol::arrow_fixed_width<int128_t>, "Arrow has no int128: a bare column<int128_t> does not export");
static_assert(devcol::fixed_width<int128_t>);

namespace {

template <class Rep>
std::vector<std::optional<Rep>> decimal_rows(std::size_t n, bool nulls) {
  std::vector<std::optional<Rep>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (nulls && i % 3 == 1) { continue; }
    auto const k = static_cast<std::int64_t>(i) * 7 - 300;
    if constexpr (sizeof(Rep) == 16) {
      rows[i] = (static_cast<int128_t>(k) << 80) - static_cast<int128_t>(i);  // past 64 bits, both signs
    } else {
      rows[i] = static_cast<Rep>(k);
    }
  }
  return rows;
}

std::vector<std::optional<std::string>> binary_rows(std::size_t n, std::size_t width, bool nulls) {
  std::vector<std::optional<std::string>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (nulls && i % 3 == 1) { continue; }
    std::string s(width, '\0');
    for (std::size_t b = 0; b < width; ++b) { s[b] = static_cast<char>(i * 11 + b); }
    rows[i] = s;
  }
  return rows;
}

template <class T>
std::vector<std::optional<T>> rows_between(std::vector<std::optional<T>> const& rows, std::size_t begin, std::size_t end) {
  return {rows.begin() + static_cast<std::ptrdiff_t>(begin), rows.begin() + static_cast<std::ptrdiff_t>(end)};
}

/// A valid export of a decimal128(20, 3) column, whose format a case then spoils.
struct spoiled_decimal : exported {
  spoiled_decimal() {
    devcol::to_arrow(devcol::make_decimal_column<int128_t>(decimal_rows<int128_t>(10, true), 20, 3), &schema, &array);
    release_counter::watch(schema, array);
  }
  template <class K>
  void rejects(char const* format, std::string const& what) {
    schema.format = format;  // the export's own string stays owned by its node
    std::string const message = arrow_error_of([&] { (void)devcol::from_arrow<K>(&schema, &array); });
    CHECK_THAT(message, Contains(what));
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 1);
    CHECK(schema.release == nullptr);
    CHECK(array.array.release == nullptr);
  }
};

/// A valid export of a fixed_size_binary[4] column.
struct spoiled_binary : exported {
  spoiled_binary() {
    devcol::to_arrow(devcol::make_fixed_size_binary_column(binary_rows(10, 4, true), 4), &schema, &array);
    release_counter::watch(schema, array);
  }
  void rejects(char const* format, std::string const& what) {
    schema.format = format;
    std::string const message =
        arrow_error_of([&] { (void)devcol::from_arrow<devcol::fixed_size_binary_column<>>(&schema, &array); });
    CHECK_THAT(message, Contains(what));
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 1);
  }
};

}  // namespace

TEMPLATE_TEST_CASE("arrow: decimals round-trip devcol -> Arrow -> devcol, sliced and not, zero-copy",
                   "[arrow][decimal][roundtrip]", std::int32_t, std::int64_t, int128_t) {
  leak_check leaks;
  constexpr int precision = devcol::max_decimal_precision_v<TestType>;
  for (std::size_t n : {0U, 1U, 65U, 1000U}) {
    for (bool nulls : {false, true}) {
      for (bool sliced : {false, true}) {
        if (sliced && n < 16) { continue; }
        CAPTURE(n, nulls, sliced);
        auto const rows = decimal_rows<TestType>(n, nulls);
        auto const whole = devcol::make_decimal_column<TestType>(rows, precision, -2);
        auto const col = sliced ? whole.slice(5, n - 3) : whole;  // offset 5
        auto const expected = sliced ? rows_between(rows, 5, n - 3) : rows;
        exported out;
        devcol::to_arrow(col, &out.schema, &out.array, {}, "price");
        CHECK(std::string(out.schema.format) == col.arrow_format());
        CHECK(std::string(out.schema.name) == "price");
        CHECK(out.array.array.offset == static_cast<std::int64_t>(col.offset()));
        CHECK(out.array.array.null_count == static_cast<std::int64_t>(col.null_count()));
        CHECK(out.array.array.n_buffers == 2);
        if (n != 0) { CHECK(out.array.array.buffers[1] == col.data_buffer().data(devcol::access::read)); }
        auto const back = devcol::from_arrow<devcol::decimal_column<TestType>>(&out.schema, &out.array);
        CHECK(out.schema.release == nullptr);
        CHECK(out.array.array.release == nullptr);  // taken
        CHECK(back.precision() == precision);
        CHECK(back.scale() == -2);
        CHECK(back.type_name() == col.type_name());
        CHECK(back.null_count() == col.null_count());
        CHECK(devcol::to_host(back) == expected);
        if (n != 0) { CHECK(back.data(devcol::access::read) == col.data(devcol::access::read)); }  // borrowed
      }
    }
  }
}

TEST_CASE("arrow: fixed-size binary round-trips devcol -> Arrow -> devcol, sliced and not, zero-copy",
          "[arrow][fixed_size_binary][roundtrip]") {
  leak_check leaks;
  for (std::size_t width : {1U, 7U, 16U}) {
    for (std::size_t n : {0U, 1U, 65U, 1000U}) {
      for (bool nulls : {false, true}) {
        for (bool sliced : {false, true}) {
          if (sliced && n < 16) { continue; }
          CAPTURE(width, n, nulls, sliced);
          auto const rows = binary_rows(n, width, nulls);
          auto const whole = devcol::make_fixed_size_binary_column(rows, width);
          auto const col = sliced ? whole.slice(3, n - 1) : whole;
          auto const expected = sliced ? rows_between(rows, 3, n - 1) : rows;
          exported out;
          devcol::to_arrow(col, &out.schema, &out.array);
          CHECK(std::string(out.schema.format) == "w:" + std::to_string(width));
          CHECK(out.array.array.offset == static_cast<std::int64_t>(col.offset()));
          auto const back = devcol::from_arrow<devcol::fixed_size_binary_column<>>(&out.schema, &out.array);
          CHECK(back.width() == width);
          CHECK(back.null_count() == col.null_count());
          CHECK(devcol::to_host(back) == expected);
          if (n != 0) { CHECK(back.data(devcol::access::read) == col.data(devcol::access::read)); }
        }
      }
    }
  }
}

TEST_CASE("arrow: an export holds its columns' memory, a write through devcol copies first", "[arrow][decimal]") {
  leak_check leaks;
  auto col = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2, 3}, 10, 1);
  auto bin = devcol::make_fixed_size_binary_column({"ab", "cd", "ef"}, 2);
  auto const* values = col.data(devcol::access::read);
  auto const* bytes = bin.data(devcol::access::read);
  exported a;
  exported b;
  devcol::to_arrow(col, &a.schema, &a.array);
  devcol::to_arrow(bin, &b.schema, &b.array);
  CHECK(col.is_shared());
  CHECK(bin.is_shared());
  CHECK(col.data(devcol::access::write) != values);  // rule 3: the export keeps the old values
  CHECK(bin.data(devcol::access::write) != bytes);
  CHECK(a.array.array.buffers[1] == values);
  CHECK(b.array.array.buffers[1] == bytes);
  a.array.array.release(&a.array.array);
  b.array.array.release(&b.array.array);
  CHECK(leaks.live() == 2);  // the originals went with the exports: only the two columns' own copies remain
}

TEST_CASE("arrow: an imported decimal or fixed-size binary array is released once, when its last handle goes",
          "[arrow][decimal]") {
  leak_check leaks;
  exported out;
  devcol::to_arrow(devcol::make_decimal_column<int128_t>(decimal_rows<int128_t>(40, true), 38, 10), &out.schema,
                   &out.array);
  release_counter::watch(out.schema, out.array);
  {
    auto const col = devcol::from_arrow<devcol::decimal128_column>(&out.schema, &out.array);
    CHECK(release_counter::schemas == 1);
    auto const part = col.slice(3, 20);
    { auto const gone = col; }
    CHECK(release_counter::arrays == 0);
    CHECK(devcol::to_host(part) == rows_between(decimal_rows<int128_t>(40, true), 3, 20));
  }
  CHECK(release_counter::arrays == 1);
}

TEST_CASE("arrow: decimal formats are untrusted text: malformed ones are arrow_errors and release the input",
          "[arrow][decimal][validation]") {
  leak_check leaks;
  using d128 = devcol::decimal128_column;
  using d64 = devcol::decimal64_column;
  using d32 = devcol::decimal32_column;
  SECTION("decimal256 asked as decimal128") {
    spoiled_decimal().rejects<d128>("d:40,2,256", "is decimal256, not decimal128");
  }
  SECTION("a decimal256 precision past 76") {
    spoiled_decimal().rejects<devcol::decimal256_column>("d:77,2,256", "precision 77 is not within [1, 76] for decimal256");
  }
  SECTION("another bit width") { spoiled_decimal().rejects<d128>("d:10,2,48", "bit width 48 is not 32, 64, 128 or 256"); }
  SECTION("a width that is not the kind's") { spoiled_decimal().rejects<d64>("d:20,3", "is decimal128, not decimal64"); }
  SECTION("a width the kind does not match") { spoiled_decimal().rejects<d128>("d:9,3,32", "is decimal32, not decimal128"); }
  SECTION("precision above the width's range") {
    spoiled_decimal().rejects<d128>("d:39,3", "precision 39 is not within [1, 38]");
  }
  SECTION("precision above decimal32's range") {
    spoiled_decimal().rejects<d32>("d:10,3,32", "precision 10 is not within [1, 9] for decimal32");
  }
  SECTION("precision 0") { spoiled_decimal().rejects<d128>("d:0,3", "precision 0"); }
  SECTION("negative precision") { spoiled_decimal().rejects<d128>("d:-5,3", "precision -5"); }
  SECTION("no scale") { spoiled_decimal().rejects<d128>("d:20", "lacks a scale"); }
  SECTION("an empty scale") { spoiled_decimal().rejects<d128>("d:20,", "parameter 2 ('')"); }
  SECTION("letters") { spoiled_decimal().rejects<d128>("d:2x,3", "parameter 1 ('2x')"); }
  SECTION("a plus sign") { spoiled_decimal().rejects<d128>("d:+20,3", "parameter 1 ('+20')"); }
  SECTION("a space") { spoiled_decimal().rejects<d128>("d:20, 3", "parameter 2 (' 3')"); }
  SECTION("an int overflow") { spoiled_decimal().rejects<d128>("d:20,99999999999", "parameter 2 ('99999999999')"); }
  SECTION("too many parameters") { spoiled_decimal().rejects<d128>("d:20,3,128,1", "more than 3"); }
  SECTION("not a decimal at all") { spoiled_decimal().rejects<d128>("l", "format 'l' is not a decimal"); }
  SECTION("an empty format") { spoiled_decimal().rejects<d128>("", "format '' is not a decimal"); }
}

TEST_CASE("arrow: decimal imports accept every width, negative scales and a null_count of -1",
          "[arrow][decimal][validation]") {
  leak_check leaks;
  exported a;
  devcol::to_arrow(devcol::make_decimal_column<std::int32_t>(decimal_rows<std::int32_t>(70, true), 9, -4), &a.schema,
                   &a.array);
  a.array.array.null_count = -1;
  auto const d32 = devcol::from_arrow<devcol::decimal32_column>(&a.schema, &a.array);
  CHECK(d32.null_count() == 23);
  CHECK(d32.scale() == -4);
  CHECK(d32.arrow_format() == "d:9,-4,32");
  exported b;
  devcol::to_arrow(devcol::make_decimal_column<int128_t>(decimal_rows<int128_t>(3, false), 1, 0), &b.schema, &b.array);
  b.schema.format = "d:1,0,128";  // the explicit width 128 is the same type
  CHECK(devcol::from_arrow<devcol::decimal128_column>(&b.schema, &b.array).precision() == 1);
}

TEST_CASE("arrow: fixed-size binary formats are untrusted text: malformed ones are arrow_errors and release the input",
          "[arrow][fixed_size_binary][validation]") {
  leak_check leaks;
  SECTION("negative") { spoiled_binary().rejects("w:-4", "byte width -4"); }
  SECTION("too wide") { spoiled_binary().rejects("w:4294967296", "byte width 4294967296"); }
  SECTION("empty") { spoiled_binary().rejects("w:", "the byte width '' is not a decimal integer"); }
  SECTION("letters") { spoiled_binary().rejects("w:4a", "the byte width '4a'"); }
  SECTION("not fixed-size binary") { spoiled_binary().rejects("z", "format 'z' is not a fixed-size binary"); }
  SECTION("three buffers") {
    spoiled_binary s;
    s.array.array.n_buffers = 3;
    s.rejects("w:4", "n_buffers is 3");
  }
}

TEST_CASE("arrow: a fixed-size binary of width 0, as Arrow allows, imports with or without a values buffer",
          "[arrow][fixed_size_binary]") {
  leak_check leaks;
  using rows_t = std::vector<std::optional<std::string>>;
  auto const col = devcol::make_fixed_size_binary_column(rows_t{"", std::nullopt, "", "", std::nullopt}, 0);
  CHECK(col.width() == 0);
  for (bool const null_values : {false, true}) {
    INFO("values buffer NULL: " << null_values);
    exported e;
    devcol::to_arrow(col.slice(1, 5), &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "w:0");
    if (null_values) { e.array.array.buffers[1] = nullptr; }  // what a producer may pass for no bytes
    auto const back = devcol::from_arrow<devcol::fixed_size_binary_column<>>(&e.schema, &e.array);
    CHECK(back.width() == 0);
    CHECK(back.null_count() == 2);
    CHECK(devcol::to_host(back) == rows_t{std::nullopt, "", "", std::nullopt});
    auto const picked = devcol::gather(back, devcol::make_column<std::int32_t>({3, 1, 0}));
    CHECK(devcol::to_host(picked) == rows_t{std::nullopt, "", std::nullopt});
    CHECK(devcol::to_host(devcol::concatenate(std::vector{back, picked})).size() == 7);
  }
}

TEST_CASE("arrow: an empty decimal or fixed-size binary column exports and imports", "[arrow][decimal]") {
  leak_check leaks;
  exported a;
  devcol::to_arrow(devcol::decimal64_column(0, 18, 2), &a.schema, &a.array);
  CHECK(a.array.array.length == 0);
  auto const d = devcol::from_arrow<devcol::decimal64_column>(&a.schema, &a.array);
  CHECK(d.empty());
  CHECK(d.type_name() == "decimal64(18, 2)");
  exported b;
  devcol::to_arrow(devcol::fixed_size_binary_column<>(), &b.schema, &b.array);
  CHECK(std::string(b.schema.format) == "w:0");  // width 0, as Arrow allows
  CHECK(devcol::from_arrow<devcol::fixed_size_binary_column<>>(&b.schema, &b.array).width() == 0);
  exported c;
  devcol::to_arrow(devcol::make_fixed_size_binary_column(std::vector<std::string>{}, 3), &c.schema, &c.array);
  auto const f = devcol::from_arrow<devcol::fixed_size_binary_column<>>(&c.schema, &c.array);
  CHECK(f.empty());
  CHECK(f.width() == 3);
}
