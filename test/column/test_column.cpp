// Columns: types and formats, factories, host round trips, views, null masks, printing, bad input.
#include "../support.hpp"

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <list>
#include <optional>
#include <random>
#include <ranges>
#include <span>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::columns {

using i64 = std::int64_t;

/// A random nullable column of `n` rows and its host model.
inline std::pair<devcol::column<std::int32_t>, std::vector<std::optional<std::int32_t>>> random_nullable(std::size_t n,
                                                                                                        unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::optional<std::int32_t>> model(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (rng() % 3 != 0) { model[i] = static_cast<std::int32_t>(rng() % 1000); }
  }
  return {devcol::make_column<std::int32_t>(model), model};
}

inline std::size_t nulls_in(std::vector<std::optional<std::int32_t>> const& model, std::size_t begin, std::size_t end) {
  return static_cast<std::size_t>(std::count(model.begin() + static_cast<std::ptrdiff_t>(begin),
                                             model.begin() + static_cast<std::ptrdiff_t>(end), std::nullopt));
}

}  // namespace devcol_test::columns

using devcol_test::columns::i64;

// Views are what kernels take by value.
static_assert(std::is_trivially_copyable_v<devcol::column_view<double>>);
static_assert(std::is_trivially_copyable_v<devcol::mutable_column_view<double>>);
static_assert(sizeof(devcol::column_view<double>) == 5 * sizeof(void*));
static_assert(std::is_convertible_v<devcol::mutable_column_view<int>, devcol::column_view<int>>);
// Arrow format strings.
static_assert(devcol::arrow_format_v<std::int8_t> == "c" && devcol::arrow_format_v<std::uint8_t> == "C");
static_assert(devcol::arrow_format_v<std::int16_t> == "s" && devcol::arrow_format_v<std::uint16_t> == "S");
static_assert(devcol::arrow_format_v<std::int32_t> == "i" && devcol::arrow_format_v<std::uint32_t> == "I");
static_assert(devcol::arrow_format_v<std::int64_t> == "l" && devcol::arrow_format_v<std::uint64_t> == "L");
static_assert(devcol::arrow_format_v<float> == "f" && devcol::arrow_format_v<double> == "g");
static_assert(devcol::arrow_format_v<bool> == "b" && devcol::type_traits<bool>::arrow_bit_packed);
static_assert(devcol::arrow_format_v<devcol::timestamp_ms> == "tsm:" && devcol::arrow_format_v<devcol::timestamp_ns> == "tsn:");
static_assert(devcol::arrow_format_v<devcol::duration_s> == "tDs" && devcol::arrow_format_v<devcol::duration_us> == "tDu");
static_assert(sizeof(bool) == 1, "bool columns store one byte per row, as libcudf's BOOL8");
static_assert(!devcol::fixed_width<std::string>);

TEST_CASE("the issue's API, as written", "[column][api]") {
  devcol_test::leak_check leaks;
  devcol::stream_ref s{};
  auto a = devcol::make_column<std::int64_t>({1, 2, 3, 4}, s);
  devcol::column<std::int64_t> b = a;
  auto c = a.deep_copy(s);
  auto d = a.slice(1, 3);
  CHECK(d.size() == 2);
  std::int64_t const* p = a.data(devcol::access::read);
  std::int64_t* q = b.data(devcol::access::write, s);
  CHECK(p != q);
  auto v = a.view();
  auto mv = b.mutable_view(s);
  CHECK(v.size() == 4);
  CHECK(mv.size() == 4);
  std::int64_t* raw = a.expose(s);
  CHECK(raw != p);  // the slice d still shares a's memory, so exposing gave a its own copy first
  CHECK(d.data(devcol::access::read) == p + 1);
  CHECK(a.is_exposed());
  bool const shared = c.is_shared();
  CHECK_FALSE(shared);
  auto n = devcol::make_column<double>({1.0, std::nullopt, 3.0}, s);
  CHECK(n.null_count() == 1);
  std::vector<std::optional<double>> h = devcol::to_host(n, s);
  CHECK(h == std::vector<std::optional<double>>{1.0, std::nullopt, 3.0});
}

TEST_CASE("make_column and to_host round-trip every fixed-width type", "[column][factories]") {
  devcol_test::leak_check leaks;
  auto round_trip = [](auto values) {
    using T = typename decltype(values)::value_type::value_type;
    auto col = devcol::make_column<T>(values);
    CHECK(col.size() == values.size());
    CHECK(devcol::to_host(col) == values);
  };
  round_trip(std::vector<std::optional<std::int8_t>>{-128, std::nullopt, 127});
  round_trip(std::vector<std::optional<std::uint8_t>>{0, 255});
  round_trip(std::vector<std::optional<std::int16_t>>{-3, std::nullopt});
  round_trip(std::vector<std::optional<std::uint16_t>>{65535});
  round_trip(std::vector<std::optional<std::int32_t>>{1, 2, std::nullopt});
  round_trip(std::vector<std::optional<std::uint32_t>>{4000000000U});
  round_trip(std::vector<std::optional<std::int64_t>>{std::nullopt, -1});
  round_trip(std::vector<std::optional<std::uint64_t>>{~0ULL});
  round_trip(std::vector<std::optional<float>>{1.5F, std::nullopt});
  round_trip(std::vector<std::optional<double>>{2.25});
  round_trip(std::vector<std::optional<bool>>{true, false, std::nullopt, true});
  round_trip(std::vector<std::optional<devcol::timestamp_ms>>{devcol::timestamp_ms{devcol::duration_ms{1700000000000}},
                                                              std::nullopt});
  round_trip(std::vector<std::optional<devcol::duration_ns>>{devcol::duration_ns{-5}});
  round_trip(std::vector<std::optional<double>>{});
}

TEST_CASE("make_column without nulls allocates no mask", "[column][factories]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3});
  CHECK_FALSE(a.nullable());
  CHECK(a.null_mask(devcol::access::read) == nullptr);
  CHECK(leaks.live() == 1);
  auto from_range = devcol::make_column<double>(std::vector<int>{1, 2, 3});  // any convertible host range
  CHECK(devcol_test::host_values(from_range) == std::vector<double>{1, 2, 3});
}

TEST_CASE("make_column reads every kind of host range alike", "[column][factories]") {
  // Contiguous ranges of the value type go through one span body, the others through the generic
  // one: both must give the same rows, nulls and null count.
  devcol_test::leak_check leaks;
  std::vector<std::optional<i64>> expected(70);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (i != 0 && i != 63 && i != 64 && i != 69) { expected[i] = static_cast<i64>(i) * -3 + 7; }
  }
  std::vector<i64> plain(expected.size());
  for (std::size_t i = 0; i < plain.size(); ++i) { plain[i] = expected[i].value_or(0); }
  auto check_nullable = [&](devcol::column<i64> const& col) {
    CHECK(col.null_count() == 4);
    CHECK(devcol::to_host(col) == expected);
  };
  check_nullable(devcol::make_column<i64>(expected));
  check_nullable(devcol::make_column<i64>(std::span<std::optional<i64>>(expected)));
  check_nullable(devcol::make_column<i64>(std::list<std::optional<i64>>(expected.begin(), expected.end())));
  auto check_plain = [&](devcol::column<i64> const& col) {
    CHECK_FALSE(col.nullable());
    CHECK(devcol_test::host_values(col) == plain);
  };
  check_plain(devcol::make_column<i64>(plain));
  check_plain(devcol::make_column<i64>(std::span<i64 const>(plain)));
  check_plain(devcol::make_column<i64>(std::list<i64>(plain.begin(), plain.end())));
  check_plain(devcol::make_column<i64>(plain | std::views::transform([](i64 v) { return v; })));
  std::vector<int> narrow(plain.begin(), plain.end());
  check_plain(devcol::make_column<i64>(narrow));  // convertible, not the value type: the generic body
  // A single-pass range: counting its rows consumes it, so it must be read only once.
  std::stringstream text;
  for (i64 v : plain) { text << v << ' '; }
  check_plain(devcol::make_column<i64>(
      std::ranges::subrange{std::istream_iterator<i64>{text}, std::istream_iterator<i64>{}}));

  std::array<double, 3> const fixed{-0.0, 1.5, -2.5};
  auto from_array = devcol::make_column<double>(fixed);
  CHECK(devcol_test::host_values(from_array) == std::vector<double>{-0.0, 1.5, -2.5});
  CHECK(std::signbit(devcol_test::host_values(from_array)[0]));
  // vector<bool> is not contiguous (its elements are bits): the generic body reads it.
  std::vector<bool> const bits{true, false, true, true};
  CHECK(devcol_test::host_values(devcol::make_column<bool>(bits)) == std::vector<bool>{true, false, true, true});
  auto bools = devcol::make_column<bool>({true, std::nullopt, false});
  CHECK(devcol::to_host(bools) == std::vector<std::optional<bool>>{true, std::nullopt, false});
  CHECK(devcol::make_column<i64>(std::vector<i64>{}).empty());
  CHECK(devcol::make_column<i64>(std::vector<std::optional<i64>>{}).empty());
}

TEST_CASE("sequence and full", "[column][factories]") {
  devcol_test::leak_check leaks;
  auto seq = devcol::sequence<i64>(5, 10, 3);
  CHECK(devcol_test::host_values(seq) == std::vector<i64>{10, 13, 16, 19, 22});
  auto f = devcol::full<float>(4, 2.5F);
  CHECK(devcol_test::host_values(f) == std::vector<float>{2.5F, 2.5F, 2.5F, 2.5F});
  CHECK_FALSE(f.nullable());
  auto nulls = devcol::full<i64>(70, std::nullopt);
  CHECK(nulls.null_count() == 70);
  CHECK(devcol::to_host(nulls) == std::vector<std::optional<i64>>(70));
  CHECK(devcol::sequence<double>(0).empty());
  // Integers past the type's range wrap (two's complement), never undefined.
  CHECK(devcol_test::host_values(devcol::sequence<std::int32_t>(4, std::numeric_limits<std::int32_t>::max() - 1, 1)) ==
        std::vector<std::int32_t>{2147483646, 2147483647, -2147483647 - 1, -2147483647});
  CHECK(devcol_test::host_values(devcol::sequence<std::uint16_t>(3, 65535, 65535)) ==
        std::vector<std::uint16_t>{65535, 65534, 65533});
  CHECK(devcol_test::host_values(devcol::sequence<std::int8_t>(3, -128, -1)) == std::vector<std::int8_t>{-128, 127, 126});
  CHECK(devcol_test::host_values(devcol::sequence<double>(3, 0.5, 0.25)) == std::vector<double>{0.5, 0.75, 1.0});
}

TEST_CASE("mask_state: unallocated, all valid, all null", "[column][mask]") {
  devcol_test::leak_check leaks;
  devcol::column<i64> none(10);
  CHECK_FALSE(none.nullable());
  devcol::column<i64> valid(100, {}, devcol::mask_state::all_valid);
  CHECK(valid.nullable());
  CHECK(valid.null_count() == 0);
  CHECK(valid.mask_buffer().size() == 64);  // Arrow: padded to 64 bytes
  devcol::column<i64> null(100, {}, devcol::mask_state::all_null);
  CHECK(null.null_count() == 100);
  CHECK(null.slice(3, 70).null_count() == 67);
  CHECK(valid.slice(3, 70).null_count() == 0);
}

TEST_CASE("slice null counts are right for every (offset, length) up to 200 rows", "[column][mask]") {
  devcol_test::leak_check leaks;
  auto [col, model] = devcol_test::columns::random_nullable(200, 12345);
  REQUIRE(col.null_count() == devcol_test::columns::nulls_in(model, 0, 200));
  for (std::size_t begin = 0; begin <= 200; ++begin) {
    for (std::size_t end = begin; end <= 200; ++end) {
      auto const s = col.slice(begin, end);
      if (s.null_count() != devcol_test::columns::nulls_in(model, begin, end)) {
        FAIL("slice [" << begin << ", " << end << ") counted " << s.null_count() << " nulls, expected "
                       << devcol_test::columns::nulls_in(model, begin, end));
      }
    }
  }
  // Slices of slices: the offsets add, the counts stay right, the values too.
  auto const outer = col.slice(13, 190);
  auto const inner = outer.slice(7, 101);
  CHECK(inner.offset() == 20);
  CHECK(inner.null_count() == devcol_test::columns::nulls_in(model, 20, 114));
  CHECK(devcol::to_host(inner) == std::vector<std::optional<std::int32_t>>(model.begin() + 20, model.begin() + 114));
}

TEST_CASE("a multi-range slice counts every range's nulls in one launch", "[column][mask]") {
  devcol_test::leak_check leaks;
  auto [col, model] = devcol_test::columns::random_nullable(1000, 99);
  std::vector<std::pair<std::size_t, std::size_t>> const ranges{{0, 0}, {0, 1000}, {3, 67}, {64, 128}, {999, 1000},
                                                                 {5, 5}, {130, 133}, {1, 999}};
  auto const slices = col.slice(ranges);
  REQUIRE(slices.size() == ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    INFO("range [" << ranges[i].first << ", " << ranges[i].second << ")");
    CHECK(slices[i].null_count() == devcol_test::columns::nulls_in(model, ranges[i].first, ranges[i].second));
    CHECK(slices[i].offset() == ranges[i].first);
  }
  auto const none = devcol::make_column<i64>({1, 2, 3}).slice(std::vector<std::pair<std::size_t, std::size_t>>{{0, 2}});
  CHECK(none[0].null_count() == 0);
}

TEST_CASE("writing to a nullable slice at an offset that is not a multiple of 8 keeps its validity", "[column][mask]") {
  devcol_test::leak_check leaks;
  auto [col, model] = devcol_test::columns::random_nullable(150, 7);
  auto s = col.slice(13, 140);
  auto const expected = std::vector<std::optional<std::int32_t>>(model.begin() + 13, model.begin() + 140);
  (void)s.data(devcol::access::write);  // unshares: the mask bits are shifted to offset 0
  CHECK(s.offset() == 0);
  CHECK(s.null_count() == devcol_test::columns::nulls_in(model, 13, 140));
  CHECK(devcol::to_host(s) == expected);
  CHECK(devcol::to_host(col) == model);
}

TEST_CASE("bitmask_and and bitmask_or combine masks at different offsets", "[column][mask]") {
  devcol_test::leak_check leaks;
  auto [a, ma] = devcol_test::columns::random_nullable(300, 1);
  auto [b, mb] = devcol_test::columns::random_nullable(300, 2);
  std::size_t const bits = 200;
  std::size_t const bytes = devcol::bitmask_allocation_size(bits);
  devcol::buffer<> both(bytes);
  devcol::buffer<> either(bytes);
  devcol::bitmask_and(a.null_mask(devcol::access::read), 5, b.null_mask(devcol::access::read), 77, bits,
                      static_cast<devcol::bitmask_word*>(both.data(devcol::access::write)), bytes, {});
  devcol::bitmask_or(a.null_mask(devcol::access::read), 5, b.null_mask(devcol::access::read), 77, bits,
                     static_cast<devcol::bitmask_word*>(either.data(devcol::access::write)), bytes, {});
  std::vector<devcol::bitmask_word> host_and(bytes / 8);
  std::vector<devcol::bitmask_word> host_or(bytes / 8);
  devcol::copy_bytes(host_and.data(), both.data(devcol::access::read), bytes, {});
  devcol::copy_bytes(host_or.data(), either.data(devcol::access::read), bytes, {});
  devcol::stream_ref{}.synchronize();
  for (std::size_t i = 0; i < bits; ++i) {
    INFO("bit " << i);
    CHECK(devcol::bit_is_set(host_and.data(), i) == (ma[5 + i].has_value() && mb[77 + i].has_value()));
    CHECK(devcol::bit_is_set(host_or.data(), i) == (ma[5 + i].has_value() || mb[77 + i].has_value()));
  }
  for (std::size_t i = bits; i < bytes * 8; ++i) { CHECK_FALSE(devcol::bit_is_set(host_and.data(), i)); }  // padding zeroed
  std::size_t set = 0;
  for (std::size_t i = 0; i < bits; ++i) { set += devcol::bit_is_set(host_and.data(), i) ? 1 : 0; }
  CHECK(devcol::count_unset_bits(static_cast<devcol::bitmask_word const*>(both.data(devcol::access::read)), 0, bits, {}) == bits - set);
}

TEST_CASE("a moved-from column is empty, views see rows, validity and offsets", "[column]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({5, std::nullopt, 7, 8});
  auto b = std::move(a);
  CHECK(a.size() == 0);  // NOLINT(bugprone-use-after-move): specified empty
  CHECK(a.null_count() == 0);
  CHECK_FALSE(a.nullable());
  auto const v = b.slice(1, 4).view();
  CHECK(v.size() == 3);
  CHECK(v.null_count() == 1);
  CHECK(v.mask_offset() == 1);
  CHECK(v.is_null(0));
  CHECK(v.is_valid(1));
#if DEVCOL_BACKEND_HOST
  CHECK(v[1] == 7);  // host backend: device memory is host memory, a view reads it directly
#endif
}

TEST_CASE("bad input raises devcol::logic_error naming the values, and leaves the column intact", "[column][errors]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3});
  CHECK_THROWS_WITH(a.slice(2, 5), Catch::Contains("[2, 5) is not within the 3 rows"));
  CHECK_THROWS_WITH(a.slice(3, 2), Catch::Contains("[3, 2)"));
  CHECK_THROWS_AS(a.slice(std::vector<std::pair<std::size_t, std::size_t>>{{0, 1}, {1, 4}}), devcol::logic_error);
  CHECK_THROWS_WITH((devcol::column<i64>(a.data_buffer(), {}, 4, 0)),
                    Catch::Contains("data buffer of 24 bytes cannot hold rows [0, 4)"));
  CHECK_THROWS_WITH((devcol::column<i64>(a.data_buffer(), {}, 3, 1)), Catch::Contains("null count 1 is impossible"));
  CHECK_THROWS_AS(devcol::column<i64>(SIZE_MAX / 4), devcol::logic_error);
  CHECK(devcol_test::host_values(a) == std::vector<i64>{1, 2, 3});
}

TEST_CASE("printing shows the type, the values and the nulls", "[column][print]") {
  devcol_test::leak_check leaks;
  std::ostringstream out;
  out << devcol::make_column<i64>({1, std::nullopt, 3});
  CHECK(out.str() == "column<int64>[1, null, 3]");
  out.str("");
  out << devcol::sequence<std::int8_t>(30);
  CHECK(out.str() == "column<int8>[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, ... (30 rows)]");
  out.str("");
  out << devcol::make_column<bool>({true, false}) << ' '
      << devcol::make_column<devcol::timestamp_s>({devcol::timestamp_s{devcol::duration_s{60}}});
  CHECK(out.str() == "column<bool>[true, false] column<timestamp[s]>[60]");
}

TEST_CASE("a buffer tells the name of the resource that made it", "[column][resource]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1});
  CHECK(a.resource_name() == "leak_check");
  struct pooled : devcol::default_policy {
    using resource = devcol::mr::statistics<devcol::mr::pool<devcol_test::device_memory>>;
  };
  auto b = devcol::make_column<i64, pooled>({1, 2});
  CHECK(b.resource_name().find("devcol::mr::statistics<devcol::mr::pool<") == 0);
  CHECK(devcol::mr::shared_instance<pooled::resource>().report().bytes.current >= 16);
}

#if DEVCOL_BACKEND_CUDA && !defined(DEVCOL_SIMULATED_CUDA)  // a held host function cannot run in the double, where work runs at once
namespace devcol_test::columns {
/// A host function that holds its stream until `open` is set: what the stream queues after it waits.
inline void CUDART_CB hold_until_open(void* open) {
  while (!static_cast<std::atomic<bool>*>(open)->load()) {}
}
}  // namespace devcol_test::columns

TEST_CASE("rule 21: a deep copy made on another stream is read before the original's stream frees and reuses it",
          "[column][rule21][cuda]") {
  using namespace devcol_test::columns;
  devcol::stream a;  // the original's stream: it frees the memory
  devcol::stream b;  // the copy's
  std::size_t const n = 1 << 20;
  std::vector<std::optional<i64>> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 7 != 3) { values[i] = static_cast<i64>(i); }
  }
  std::vector<std::optional<std::string>> text(1000);
  for (std::size_t i = 0; i < text.size(); ++i) { text[i] = std::string(3, static_cast<char>('a' + i % 26)); }
  auto original = devcol::make_column<i64>(values, a);
  auto binary = devcol::make_fixed_size_binary_column(text, 3, a);
  a.synchronize();
  std::atomic<bool> open{false};
  DEVCOL_CUDA_TRY(cudaLaunchHostFunc(b.value(), &hold_until_open, &open));
  // Queued behind the held host function: none of these copies has read anything yet.
  auto copy = original.deep_copy(b);
  auto binary_copy = binary.deep_copy(b);
  original = devcol::column<i64>{};  // the last handles: frees on a
  binary = devcol::fixed_size_binary_column<>{};
  // Memory freed on a is reused first by a's next allocations: overwrite whatever they get.
  auto reuse = devcol::full<i64>(2 * n, i64{-1}, a);
  auto reuse_binary = devcol::full<std::uint8_t>(4096, std::uint8_t{0xFF}, a);
  open = true;
  b.synchronize();
  a.synchronize();
  CHECK(devcol::to_host(copy) == values);
  CHECK(devcol::to_host(binary_copy) == text);
}
#endif

TEST_CASE("every column view answers validity through one validity_view, at its Arrow offset", "[column][view]") {
  devcol_test::leak_check leaks;
  // Row validity 1, 0, 1, 1, 0, then sliced at 3 (a bit offset inside the first word).
  std::vector<std::optional<std::int32_t>> const ints{1, std::nullopt, 3, 4, std::nullopt};
  auto const values = devcol::make_column<std::int32_t>(ints).slice(3, 5);
  auto const strings = devcol::make_strings_column({"a", std::nullopt, "c", "d", std::nullopt}).slice(3, 5);
  auto const binary = devcol::make_fixed_size_binary_column({"aa", std::nullopt, "cc", "dd", std::nullopt}, 2).slice(3, 5);
  devcol::spill_lock const lock;
  devcol::validity_view const views[] = {values.view(), strings.view(), binary.view()};
  for (devcol::validity_view const& v : views) {
    CHECK(v.size() == 2);
    CHECK(v.null_count() == 1);
    CHECK(v.nullable());
    CHECK(v.mask_offset() == 3);
  }
  CHECK(devcol::to_host(values) == std::vector<std::optional<std::int32_t>>{4, std::nullopt});
  STATIC_REQUIRE(std::is_trivially_copyable_v<devcol::column_view<double>>);
  STATIC_REQUIRE(std::is_base_of_v<devcol::validity_view, devcol::strings_column_view<std::int64_t>>);
  STATIC_REQUIRE(std::is_base_of_v<devcol::validity_view, devcol::list_column_view<std::int32_t>>);
  STATIC_REQUIRE(std::is_base_of_v<devcol::validity_view, devcol::fixed_size_binary_column_view>);
  STATIC_REQUIRE(std::is_convertible_v<devcol::mutable_validity_view, devcol::validity_view>);
#if !DEVCOL_BACKEND_CUDA  // host memory: the bits can be read here
  for (devcol::validity_view const& v : views) {
    CHECK(v.is_valid(0));
    CHECK(v.is_null(1));
  }
#endif
}
