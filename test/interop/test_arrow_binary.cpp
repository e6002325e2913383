// Arrow binary and large binary: the strings layout over bytes that need not be UTF-8, held by
// basic_strings_column with encoding::binary. The cases check what binary adds to the strings
// tests (whose op bodies it shares): the kind and type it keeps through every op and any_column,
// bytewise order with NUL and 0xFF bytes, length in bytes, and zero-copy Arrow both ways.
#include "interop_support.hpp"

#include <devcol/ops/strings.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace devcol_test::arrow_binary {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using blobs = std::vector<std::optional<std::string>>;

/// Row i: i % 5 bytes that are not UTF-8 (a NUL, 0xFF and 0xC3 among them), null when i % 4 == 1.
inline blobs blob_rows(std::size_t n) {
  blobs rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4 == 1) { continue; }
    std::string s;
    for (std::size_t k = 0; k < i % 5; ++k) {
      char const pick[] = {'\0', static_cast<char>(0xFF), static_cast<char>(0xC3), 'a'};
      s.push_back(pick[(i + k) % 4]);
    }
    rows[i] = s;
  }
  return rows;
}

inline blobs blob_slice(blobs const& m, std::size_t first, std::size_t last) {
  return {m.begin() + static_cast<std::ptrdiff_t>(first), m.begin() + static_cast<std::ptrdiff_t>(last)};
}

}  // namespace devcol_test::arrow_binary

using namespace devcol_test::arrow_binary;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("binary: a kind of its own that ops keep (gather, filter, concatenate, sort, fill_null)",
                   "[binary][ops]", std::int32_t, std::int64_t) {
  using O = TestType;
  using binary = devcol::basic_binary_column<O>;
  devcol_test::leak_check leaks;
  STATIC_REQUIRE(devcol::kind_of<binary> == devcol::kind::binary);
  STATIC_REQUIRE(devcol::kind_of<devcol::basic_strings_column<O>> == devcol::kind::strings);
  STATIC_REQUIRE(devcol::kind_traits<binary>::name == (sizeof(O) == 4 ? "binary" : "large_binary"));
  auto const m = blob_rows(40);
  auto const col = devcol::make_binary_column<O>(m).slice(3, 40);
  auto const rows = blob_slice(m, 3, 40);
  CHECK(devcol::type_name(col) == (sizeof(O) == 4 ? "binary" : "large_binary"));
  CHECK(devcol::arrow_format(col) == (sizeof(O) == 4 ? "z" : "Z"));

  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({4, std::nullopt, 0, 36}));
  STATIC_REQUIRE(std::is_same_v<decltype(g), binary const>);
  CHECK(devcol::to_host(g) == (blobs{rows[4], std::nullopt, rows[0], rows[36]}));

  std::vector<std::optional<bool>> keep(rows.size());
  blobs kept;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    keep[i] = i % 3 != 0;
    if (i % 3 != 0) { kept.push_back(rows[i]); }
  }
  auto const f = devcol::filter(col, devcol::make_column<bool>(keep));
  STATIC_REQUIRE(std::is_same_v<decltype(f), binary const>);
  CHECK(devcol::to_host(f) == kept);

  auto const c = devcol::concatenate(std::vector<binary>{col.slice(0, 5), col.slice(30, 37)});
  STATIC_REQUIRE(std::is_same_v<decltype(c), binary const>);
  blobs both = blob_slice(rows, 0, 5);
  both.insert(both.end(), rows.begin() + 30, rows.end());
  CHECK(devcol::to_host(c) == both);
  CHECK(c.null_count() == col.slice(0, 5).null_count() + col.slice(30, 37).null_count());

  // Bytewise, unsigned: NUL first, 0xC3 and 0xFF after 'a', a prefix before what it prefixes.
  auto const s = devcol::sort(col);
  STATIC_REQUIRE(std::is_same_v<decltype(s), binary const>);
  blobs expected = rows;
  std::stable_sort(expected.begin(), expected.end(), [](auto const& a, auto const& b) {
    if (!a || !b) { return a.has_value() && !b.has_value(); }
    return std::string_view(*a) < std::string_view(*b);
  });
  CHECK(devcol::to_host(s) == expected);
  CHECK(devcol::is_sorted(s));
  CHECK(devcol::is_sorted(devcol::sort(col, devcol::order::descending), devcol::order::descending));

  auto const filled = devcol::fill_null(col, std::string_view("\xFF\0", 2));
  STATIC_REQUIRE(std::is_same_v<decltype(filled), binary const>);
  CHECK(filled.null_count() == 0);
  CHECK(devcol::to_host(filled)[2] == (rows[2] ? rows[2] : std::string("\xFF\0", 2)));

  auto const nulls = devcol::to_host(devcol::is_null(col));
  auto const valid = devcol::to_host(devcol::is_valid(col));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(*nulls[i] == !rows[i].has_value());
    CHECK(*valid[i] == rows[i].has_value());
  }
}

TEMPLATE_TEST_CASE("binary: compare bytewise, length in bytes, hash as strings hash the same bytes", "[binary][ops]",
                   std::int32_t, std::int64_t) {
  using O = TestType;
  devcol_test::leak_check leaks;
  std::string const nul("\0", 1);
  auto const a = devcol::make_binary_column<O>({"a", nul, "\xFF", std::nullopt, "", "ab"});
  auto const b = devcol::make_binary_column<O>({"\xC3", "", "a", "x", "", "a"});
  using flags = std::vector<std::optional<bool>>;
  CHECK(devcol::to_host(devcol::compare(a, devcol::cmp::less, b)) ==
        (flags{true, false, false, std::nullopt, false, false}));
  CHECK(devcol::to_host(devcol::compare(a, devcol::cmp::greater, std::string_view("a"))) ==
        (flags{false, false, true, std::nullopt, false, true}));
  CHECK(devcol::to_host(devcol::compare(a, devcol::cmp::equal, std::string_view(nul))) ==
        (flags{false, true, false, std::nullopt, false, false}));
  auto const len = devcol::length(a);
  STATIC_REQUIRE(std::is_same_v<decltype(len), devcol::column<O> const>);
  CHECK(devcol::to_host(len) == (std::vector<std::optional<O>>{1, 1, 1, std::nullopt, 0, 2}));
  auto const text = devcol::make_strings_column<O>({"a", nul, "\xFF", std::nullopt, "", "ab"});
  CHECK(devcol::to_host(devcol::hash(a, 7)) == devcol::to_host(devcol::hash(text, 7)));
  CHECK(devcol::to_host(devcol::argsort(a)) == (std::vector<std::optional<std::int64_t>>{4, 1, 0, 5, 2, 3}));
}

TEST_CASE("binary: any_column, table, host values and printing name the binary types", "[binary][column]") {
  devcol_test::leak_check leaks;
  auto const b = devcol::make_binary_column({"ab", std::nullopt, std::string_view("\0\xFF", 2)});
  devcol::any_column<> const any(b);
  CHECK(devcol::type_name(any) == "binary");
  CHECK(devcol::arrow_format(any) == "z");
  CHECK(devcol::size(any) == 3);
  CHECK(devcol::null_count(any) == 1);
  auto const g = devcol::gather(any, devcol::make_column<std::int64_t>({2, 1}));
  REQUIRE(devcol::holds_alternative<devcol::binary_column>(g));
  CHECK(devcol::to_host(devcol::get<devcol::binary_column>(g)) == (blobs{std::string("\0\xFF", 2), std::nullopt}));
  CHECK(devcol::type_name(devcol::concatenate(std::vector<devcol::any_column<>>{any, g})) == "binary");
  CHECK(devcol::type_name(devcol::filter(any, devcol::make_column<bool>({true, false, true}))) == "binary");
  devcol::table tbl;
  tbl.add("b", b).add("lb", devcol::make_binary_column<std::int64_t>({"x", "", "yz"}));
  CHECK(tbl.get<devcol::large_binary_column>("lb").size() == 3);
  CHECK(devcol::type_name(tbl["b"]) == "binary");
  std::ostringstream shown;
  shown << b << ' ' << devcol::make_binary_column<std::int64_t>({"a"});
  CHECK(shown.str() == "binary[0x6162, null, 0x00ff] large_binary[0x61]");
  auto const copy = devcol::deep_copy(any, {});
  CHECK(devcol::type_name(copy) == "binary");
}

TEMPLATE_TEST_CASE("arrow binary: devcol -> Arrow -> devcol at an odd offset, zero-copy, the type kept",
                   "[binary][arrow][roundtrip]", std::int32_t, std::int64_t) {
  using O = TestType;
  using binary = devcol::basic_binary_column<O>;
  devcol_test::leak_check leaks;
  auto const m = blob_rows(100);
  auto const col = devcol::make_binary_column<O>(m).slice(13, 83);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array, {}, "b");
    CHECK(std::string(e.schema.format) == (sizeof(O) == 4 ? "z" : "Z"));
    CHECK(e.array.array.offset == 13);
    CHECK(e.array.array.n_buffers == 3);
    CHECK(e.array.array.null_count == static_cast<std::int64_t>(col.null_count()));
    auto const back = devcol::from_arrow<binary>(&e.schema, &e.array);
    CHECK(back.offset() == 13);
    CHECK(back.chars(devcol::access::read) == col.chars(devcol::access::read));  // borrowed, not copied
    CHECK(back.is_borrowed());
    CHECK(devcol::to_host(back) == blob_slice(m, 13, 83));
    auto written = back;  // copy-on-write: a write to an import copies its own rows first
    char* const mine = written.chars(devcol::access::write);
    CHECK(mine != col.chars(devcol::access::read));
    CHECK(devcol::to_host(written) == blob_slice(m, 13, 83));
  }
  {
    exported e;
    devcol::to_arrow(devcol::any_column<>(col), &e.schema, &e.array);
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<binary>(any));
    CHECK(devcol::to_host(devcol::get<binary>(any)) == blob_slice(m, 13, 83));
  }
  {  // a binary array is not a strings column, nor the other offset width
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<devcol::basic_strings_column<O>>(&e.schema, &e.array); }),
               Catch::Contains(std::string(".format '") + (sizeof(O) == 4 ? "z" : "Z") + "' is not " +
                               (sizeof(O) == 4 ? "string ('u')" : "large_string ('U')")));
  }
  {
    exported e;
    devcol::to_arrow(devcol::make_strings_column<O>({"a"}), &e.schema, &e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::from_arrow<binary>(&e.schema, &e.array); }),
               Catch::Contains(sizeof(O) == 4 ? "is not binary ('z')" : "is not large_binary ('Z')"));
  }
}

TEMPLATE_TEST_CASE("arrow binary: an exposed binary column exports a snapshot, as strings do (rule 12)",
                   "[binary][arrow][review]", std::int32_t, std::int64_t) {
  using O = TestType;
  using binary = devcol::basic_binary_column<O>;
  devcol_test::leak_check leaks;
  auto const m = blob_rows(60);
  auto const made = devcol::make_binary_column<O>(m);
  auto bytes = made.chars_buffer();
  char const* const handed_out = static_cast<char const*>(bytes.expose());  // a third party may write these
  binary const col(made.offsets_buffer(), std::move(bytes), made.mask_buffer(), made.size(), made.null_count(), 0);
  REQUIRE(col.is_exposed());
  exported e;
  devcol::to_arrow(col.slice(7, 50), &e.schema, &e.array);
  CHECK(std::string(e.schema.format) == (sizeof(O) == 4 ? "z" : "Z"));
  CHECK(static_cast<char const*>(e.array.array.buffers[2]) != handed_out);  // the export's own bytes
  auto const back = devcol::from_arrow<binary>(&e.schema, &e.array);
  CHECK(devcol::to_host(back) == blob_slice(m, 7, 50));
}

TEST_CASE("arrow binary: a table with binary columns goes through an Arrow stream", "[binary][arrow][stream]") {
  devcol_test::leak_check leaks;
  devcol::table tbl;
  tbl.add("b", devcol::make_binary_column(blob_rows(30)).slice(5, 30))
      .add("lb", devcol::make_binary_column<std::int64_t>(blob_rows(25)));
  ArrowDeviceArrayStream stream{};
  devcol::to_arrow_stream(std::vector<devcol::table>{tbl, tbl}, &stream);
  auto const back = devcol::tables_from_arrow(&stream);
  REQUIRE(back.size() == 2);
  for (auto const& t : back) {
    CHECK(devcol::to_host(t.get<devcol::binary_column>("b")) == blob_slice(blob_rows(30), 5, 30));
    CHECK(devcol::to_host(t.get<devcol::large_binary_column>("lb")) == blob_rows(25));
  }
}
