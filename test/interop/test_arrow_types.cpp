// The newer Arrow types (dates, times of day, halffloat, intervals), dictionary indices of every
// integer type, and field_info: what an Arrow field says beyond its column's type, kept through
// Arrow -> devcol -> Arrow. pyarrow checks the same differentially (peer/test_pyarrow_round_trip.py).
#include "interop_support.hpp"

#include <devcol/interop/detail/metadata.hpp>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::interop_types {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::error_of;
using devcol_test::interop::exported;
using devcol_test::interop::release_counter;

/// Row i of a column of the newer types (null when i % 7 == 3), as their Arrow storage reads.
template <class T>
std::optional<T> newer_value(std::size_t i) {
  if (i % 7 == 3) { return std::nullopt; }
  auto const k = static_cast<std::int32_t>(i) - 50;
  if constexpr (std::is_same_v<T, devcol::float16>) {
    return T{static_cast<std::uint16_t>(0x3C00 + i)};
  } else if constexpr (std::is_same_v<T, devcol::interval_months>) {
    return T{k * 5};
  } else if constexpr (std::is_same_v<T, devcol::interval_day_time>) {
    return T{k, k * 1000 + 7};
  } else if constexpr (std::is_same_v<T, devcol::interval_month_day_nano>) {
    return T{k, k % 31, static_cast<std::int64_t>(k) * 1000000007};
  } else {
    return T(typename T::duration(k * 37));
  }
}

template <class T>
std::vector<std::optional<T>> newer_rows(std::size_t first, std::size_t last) {
  std::vector<std::optional<T>> rows;
  for (std::size_t i = first; i < last; ++i) { rows.push_back(newer_value<T>(i)); }
  return rows;
}

TEMPLATE_TEST_CASE("a date, time, halffloat or interval column goes through Arrow zero-copy at an odd offset",
                   "[arrow][types]", devcol::date32, devcol::date64, devcol::time32_s, devcol::time32_ms,
                   devcol::time64_us, devcol::time64_ns, devcol::float16, devcol::interval_months,
                   devcol::interval_day_time, devcol::interval_month_day_nano) {
  using T = TestType;
  devcol_test::leak_check leaks;
  auto const col = devcol::make_column<T>(newer_rows<T>(0, 100)).slice(13, 83);
  exported e;
  devcol::to_arrow(col, &e.schema, &e.array);
  CHECK(std::string(e.schema.format) == devcol::arrow_format_v<T>);
  CHECK(e.array.array.offset == 13);
  CHECK(e.array.array.null_count == static_cast<std::int64_t>(col.null_count()));
  CHECK(e.array.array.buffers[1] == static_cast<void const*>(col.data(devcol::access::read) - 13));
  auto const back = devcol::from_arrow<T>(&e.schema, &e.array);
  CHECK(back.data(devcol::access::read) == col.data(devcol::access::read));  // borrowed, not copied
  CHECK(devcol::to_host(back) == newer_rows<T>(13, 83));
  // The row ops every fixed-width kind has; each result keeps the type.
  auto const gathered = devcol::gather(back, devcol::make_column<std::int32_t>({69, 0, std::nullopt, 4}));
  auto const all = newer_rows<T>(13, 83);
  CHECK(devcol::to_host(gathered) == std::vector<std::optional<T>>{all[69], all[0], std::nullopt, all[4]});
  auto const both = devcol::concatenate(std::vector{back.slice(0, 3), back.slice(60, 61)});
  CHECK(devcol::to_host(both) == std::vector<std::optional<T>>{all[0], all[1], all[2], all[60]});
  CHECK(devcol::to_host(devcol::is_null(back)).at(3) == std::optional<bool>(!all[3].has_value()));
}

TEST_CASE("dates and times of day compare and sort as their counts do", "[arrow][types]") {
  using devcol::date32;
  auto const d = devcol::make_column<date32>(
      {date32(date32::duration(3)), std::nullopt, date32(date32::duration(-2)), date32(date32::duration(0))});
  CHECK(devcol::to_host(devcol::sort(d)) == std::vector<std::optional<date32>>{date32(date32::duration(-2)),
                                                                              date32(date32::duration(0)),
                                                                              date32(date32::duration(3)), std::nullopt});
  CHECK(devcol::to_host(devcol::compare(d, devcol::cmp::less, date32(date32::duration(1)))) ==
        std::vector<std::optional<bool>>{false, std::nullopt, true, true});
  auto const t = devcol::make_column<devcol::time64_ns>({devcol::time64_ns(devcol::duration_ns(5))});
  CHECK(devcol::to_host(devcol::compare(t, devcol::cmp::equal, t)) == std::vector<std::optional<bool>>{true});
  CHECK(devcol::to_float(devcol::float16{0xC000}) == -2.0F);
  CHECK(devcol::to_float(devcol::float16{0x0001}) == 0x1p-24F);  // the smallest subnormal
}

TEST_CASE("float16::from_float rounds to nearest, ties to even, as IEEE 754 converts", "[arrow][types][float16]") {
  using devcol::float16;
  auto const half = [](float x) { return float16::from_float(x).bits; };
  CHECK(half(1.0F) == 0x3C00);
  CHECK(half(-2.0F) == 0xC000);
  CHECK(half(0.0F) == 0x0000);
  CHECK(half(-0.0F) == 0x8000);
  CHECK(half(65504.0F) == 0x7BFF);    // the largest finite half
  CHECK(half(65519.996F) == 0x7BFF);  // just under the midpoint to 65536
  CHECK(half(65520.0F) == 0x7C00);    // the midpoint, ties to even: infinity
  CHECK(half(1e30F) == 0x7C00);
  CHECK(half(-std::numeric_limits<float>::infinity()) == 0xFC00);
  CHECK(half(0x1p-24F) == 0x0001);                              // the smallest subnormal
  CHECK(half(0x1p-25F) == 0x0000);                              // half of it, ties to even: zero
  CHECK(half(std::nextafter(0x1p-25F, 1.0F)) == 0x0001);        // just past half: up
  CHECK(half(0x1.8p-24F) == 0x0002);                            // 1.5 ulp, ties to even: 2
  CHECK(half(0x1.ffcp-15F) == 0x0400);                          // rounds up into the smallest normal
  CHECK(half(std::numeric_limits<float>::denorm_min()) == 0x0000);
  float16 const nan = float16::from_float(-std::numeric_limits<float>::quiet_NaN());
  CHECK((nan.bits & 0x7C00) == 0x7C00);
  CHECK((nan.bits & 0x3FF) != 0);
  CHECK((nan.bits & 0x8000) != 0);
  CHECK(std::isnan(devcol::to_float(float16::from_float(std::numeric_limits<float>::signaling_NaN()))));
  // Every half that is a number comes back from its float exactly; every midpoint between two
  // neighbours goes to the even one, and a float either side of it to that side.
  int failures = 0;
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    float16 const h(static_cast<std::uint16_t>(b));
    float const x = devcol::to_float(h);
    if (std::isnan(x)) { continue; }
    failures += half(x) != h.bits;
    if ((b & 0x7FFF) >= 0x7BFF) { continue; }  // the largest finite half and infinity have no next
    float const next = devcol::to_float(float16(static_cast<std::uint16_t>(b + 1)));
    float const mid = x + (next - x) / 2;  // exact: a half's neighbours differ in 11 bits at most
    std::uint16_t const even = (b & 1U) == 0 ? static_cast<std::uint16_t>(b) : static_cast<std::uint16_t>(b + 1);
    failures += half(mid) != even;
    failures += half(std::nextafter(mid, x)) != b;
    failures += half(std::nextafter(mid, next)) != b + 1;
  }
  CHECK(failures == 0);
#if defined(__FLT16_MANT_DIG__) && !defined(__CUDACC__)
  // Against the compiler's own conversion (GCC's _Float16): one float in 251 across every bit pattern.
  int differ = 0;
  for (std::uint64_t b = 0; b <= 0xFFFFFFFFU; b += 251) {
    float const x = std::bit_cast<float>(static_cast<std::uint32_t>(b));
    if (std::isnan(x)) { continue; }
    auto const theirs = std::bit_cast<std::uint16_t>(static_cast<_Float16>(x));
    differ += half(x) != theirs;
  }
  CHECK(differ == 0);
#endif
}

TEST_CASE("float16::from_float of a double rounds once, not through a float", "[arrow][types][float16]") {
  using devcol::float16;
  // Just above the midpoint of 1.0 and the next half: 0x3C01. Through a float it would be the
  // midpoint itself, which ties to even: 0x3C00.
  CHECK(float16::from_float(1.0 + 0x1p-11 + 0x1p-40).bits == 0x3C01);
  CHECK(float16::from_float(-(1.0 + 0x1p-11 + 0x1p-40)).bits == 0xBC01);
  CHECK(float16::from_float(1.0 + 0x1p-11).bits == 0x3C00);  // the midpoint: ties to even
  CHECK(float16::from_float(65504.0).bits == 0x7BFF);
  CHECK(float16::from_float(65520.0).bits == 0x7C00);
  CHECK(float16::from_float(0x1p-25 + 0x1p-60).bits == 0x0001);  // a float would drop 2^-60: zero
  CHECK(float16::from_float(1e-300).bits == 0x0000);
  CHECK(float16::from_float(-1e300).bits == 0xFC00);
  float16 const nan = float16::from_float(-std::numeric_limits<double>::quiet_NaN());
  CHECK((nan.bits & 0xFC00) == 0xFC00);
  CHECK((nan.bits & 0x3FF) != 0);
  CHECK(float16::from_float(1).bits == 0x3C00);  // an integer still takes the float overload
  // Either side of every midpoint between two neighbours, closer than a float can tell apart.
  int failures = 0;
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    if ((b & 0x7FFF) >= 0x7BFF) { continue; }  // NaN, infinity and the largest finite half have no next
    double const x = devcol::to_float(float16(static_cast<std::uint16_t>(b)));
    double const next = devcol::to_float(float16(static_cast<std::uint16_t>(b + 1)));
    double const mid = x + (next - x) / 2;
    double const nudge = (next - x) * 0x1p-30;  // 2^-40 of the value: below a float's precision
    failures += float16::from_float(mid + nudge).bits != b + 1;
    failures += float16::from_float(mid - nudge).bits != b;
  }
  CHECK(failures == 0);
}

TEMPLATE_TEST_CASE("dictionary indices of every integer type import zero-copy and ops keep their type",
                   "[arrow][types][dictionary]", std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t) {
  using I = TestType;
  devcol_test::leak_check leaks;
  std::vector<std::optional<I>> indices;
  for (std::size_t i = 0; i < 40; ++i) {
    indices.push_back(i % 7 == 3 ? std::nullopt : std::optional<I>(static_cast<I>(i % 3)));
  }
  auto const dict =
      devcol::make_dictionary_column(devcol::make_column<I>(indices), devcol::make_strings_column({"x", "y", "z"}))
          .slice(13, 37);
  std::string const index_name(devcol::type_name_v<I>);
  CHECK(dict.type_name() == "dictionary<values=string, indices=" + index_name + ">");
  exported e;
  devcol::to_arrow(dict, &e.schema, &e.array);
  CHECK(std::string(e.schema.format) == devcol::arrow_format_v<I>);
  CHECK(e.array.array.offset == 13);
  void const* const exported_indices = e.array.array.buffers[1];
  auto const back = devcol::from_arrow<devcol::dictionary_column<>>(&e.schema, &e.array);
  auto const& typed = std::get<devcol::column<I>>(back.indices());
  CHECK(static_cast<void const*>(typed.data(devcol::access::read) - typed.offset()) == exported_indices);
  CHECK(devcol::to_host_values(devcol::any_column<>{back}) == devcol::to_host_values(devcol::any_column<>{dict}));
  auto const gathered = devcol::gather(back, devcol::make_column<std::int32_t>({1, std::nullopt, 0}));
  auto const filtered = devcol::filter(back, devcol::make_column<bool>(std::vector<std::optional<bool>>(24, true)));
  auto const joined = devcol::concatenate(std::vector{back, back.slice(0, 2)});
  for (auto const* c : {&gathered, &filtered, &joined}) {
    CHECK(c->index_type_name() == index_name);
    CHECK(std::holds_alternative<devcol::column<I>>(c->indices()));
  }
  CHECK(devcol::size(joined.values()) == 6);
  CHECK(devcol::to_host(devcol::is_null(devcol::any_column<>{gathered})) ==
        std::vector<std::optional<bool>>{false, true, false});
}

TEST_CASE("an unsigned dictionary index past the values is refused naming it, and concatenation checks the type",
          "[arrow][types][dictionary][errors]") {
  devcol_test::leak_check leaks;
  auto const values = devcol::make_strings_column({"a", "b", "c"});
  CHECK_THAT(error_of<devcol::logic_error>([&] {
               (void)devcol::make_dictionary_column(devcol::make_column<std::uint8_t>({0, 200}), values);
             }),
             Catch::Contains("index 200 at row 1"));
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::uint8_t>({0, 2}), values);
  std::vector<std::uint8_t> bad{0, 250};
  exported e;
  devcol::to_arrow(dict, &e.schema, &e.array);
  e.array.array.buffers[1] = bad.data();
  release_counter::watch(e.schema, e.array);
  CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
             Catch::Contains("index 250 at row 1 is outside the 3 dictionary values"));
  CHECK(release_counter::arrays == 1);
  // 100 inputs of 3 values each: 300 values overflow uint8 indices, named.
  std::vector<devcol::dictionary_column<>> many(100, dict);
  CHECK_THAT(error_of<devcol::logic_error>([&] { (void)devcol::concatenate(many); }),
             Catch::Contains("overflow uint8 indices"));
  auto const wide = devcol::make_dictionary_column(devcol::make_column<std::int64_t>({1}), values);
  CHECK_THAT(error_of<devcol::logic_error>([&] { (void)devcol::concatenate(std::vector{dict, wide}); }),
             Catch::Contains("indices=int64"));
}

TEST_CASE("a field_info travels with a column and a table through Arrow and back", "[arrow][types][field_info]") {
  devcol_test::leak_check leaks;
  devcol::field_info info;
  info.name = "when";
  info.nullable = false;
  info.time_zone = "America/New_York";
  info.metadata = {{"ARROW:extension:name", "devcol.test"}, {"ARROW:extension:metadata", ""}, {"k", "v\xC3\xA9"}};
  auto const ts = devcol::make_column<devcol::timestamp_us>({devcol::timestamp_us(devcol::duration_us(7))});
  SECTION("a lone column") {
    exported e;
    devcol::to_arrow(ts, &e.schema, &e.array, {}, info);
    CHECK(std::string(e.schema.format) == "tsu:America/New_York");
    CHECK(std::string(e.schema.name) == "when");
    CHECK(e.schema.flags == 0);
    devcol::field_info back;
    auto const col = devcol::any_from_arrow(&e.schema, &e.array, {}, &back);
    CHECK(back == info);
    CHECK(back.extension_name() == std::optional<std::string_view>("devcol.test"));
    CHECK(devcol::type_name(col) == "timestamp[us]");
  }
  SECTION("a table, with list child names, an ordered dictionary and the schema's metadata") {
    devcol::field_info list_info;
    list_info.children.push_back(devcol::field_info{});
    list_info.children[0].name = "element";
    list_info.children[0].nullable = false;
    devcol::field_info dict_info;
    dict_info.ordered = true;
    dict_info.time_zone = "UTC";  // does not fit a dictionary: left out
    devcol::table t;
    t.add("when", ts, info);
    t.add("list", devcol::make_list_column({0, 1}, devcol::make_column<std::int32_t>({4})),
          list_info);
    t.add("dict", devcol::make_dictionary_column(devcol::make_column<std::uint32_t>({0}),
                                                 devcol::make_strings_column({"a"})),
          dict_info);
    t.set_metadata({{"pandas", "{}"}});
    exported e;
    devcol::to_arrow(t, &e.schema, &e.array);
    CHECK(std::string(e.schema.children[1]->children[0]->name) == "element");
    CHECK(e.schema.children[2]->flags == (ARROW_FLAG_NULLABLE | ARROW_FLAG_DICTIONARY_ORDERED));
    CHECK(std::string(e.schema.children[2]->format) == "I");
    auto const back = devcol::table_from_arrow(&e.schema, &e.array);
    CHECK(back.field("when") == t.field("when"));
    CHECK(back.field("list").children.at(0).name == "element");
    CHECK_FALSE(back.field("list").children.at(0).nullable);
    CHECK(back.field("dict").ordered);
    CHECK(back.field("dict").time_zone.empty());
    CHECK(back.metadata() == t.metadata());
    CHECK(back.select({"dict"}).field("dict").ordered);
  }
}

TEST_CASE("malformed schema metadata is refused naming it, and the input released", "[arrow][types][errors]") {
  devcol_test::leak_check leaks;
  auto const col = devcol::make_column<std::int32_t>({1, 2});
  auto const rejects = [&](std::vector<std::int32_t> words, std::string const& what) {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.schema.metadata = reinterpret_cast<char const*>(words.data());
    release_counter::watch(e.schema, e.array);
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }), Catch::Contains(what));
    CHECK(release_counter::schemas == 1);
    CHECK(release_counter::arrays == 1);
  };
  rejects({-1}, "schema.metadata: -1 key/value pairs");
  rejects({1, -5}, "schema.metadata: a key's length -5");
  // A well-formed one decodes: one pair, "ab" -> "" (an empty value, as arrow.uuid's metadata).
  std::vector<char> good(4 + 4 + 2 + 4);
  std::int32_t const one = 1, two = 2, zero = 0;
  std::memcpy(good.data(), &one, 4);
  std::memcpy(good.data() + 4, &two, 4);
  std::memcpy(good.data() + 8, "ab", 2);
  std::memcpy(good.data() + 10, &zero, 4);
  CHECK(devcol::detail::decode_metadata(good.data(), "m") == std::vector<devcol::field_info::entry>{{"ab", ""}});
  CHECK(devcol::detail::encode_metadata({{"ab", ""}}) == std::string(good.begin(), good.end()));
}

}  // namespace devcol_test::interop_types
