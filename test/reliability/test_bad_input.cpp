// Bad input anywhere in the public API gets a devcol:: error whose message names the bad value,
// never undefined behaviour (these run under ASan + UBSan in CI), and changes nothing.
#include "../support.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace devcol_test::bad_input {

/// The message of the `Error` that `f` throws, or "no error".
template <class Error, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (Error const& e) {
    static_assert(std::is_base_of_v<devcol::error, Error>);
    return e.what();
  }
  return "no error";
}

using Catch::Contains;

/// Device-callable (a lambda would need nvcc's extended lambdas).
struct add_rows {
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t x, std::int64_t y) const noexcept { return x + y; }
};
using i64 = std::int64_t;
constexpr std::size_t minus_one = static_cast<std::size_t>(-1);  // what `-1` becomes as a size

TEST_CASE("bad input: out-of-range slices name the range and the size", "[reliability][bad_input]") {
  leak_check leaks;
  auto const c = devcol::make_column<i64>({1, std::nullopt, 3, 4, 5});
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)c.slice(2, 6); }), Contains("[2, 6)") && Contains("5 rows"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)c.slice(4, 3); }), Contains("[4, 3)"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)c.slice(minus_one, 2); }), Contains(std::to_string(minus_one)));
  std::vector<std::pair<std::size_t, std::size_t>> const ranges{{0, 2}, {3, 9}};
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)c.slice(ranges); }), Contains("[3, 9)"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)c.data_buffer().slice(8, 100000); }), Contains("100000"));
  CHECK(devcol::to_host(c) == std::vector<std::optional<i64>>{1, std::nullopt, 3, 4, 5});
}

TEST_CASE("bad input: binary ops and in-place ops on columns of different sizes name both sizes",
          "[reliability][bad_input]") {
  leak_check leaks;
  auto const a = devcol::make_column<i64>({1, 2, 3});
  auto b = devcol::make_column<i64>({1, 2});
  auto const keep = devcol::make_column<bool>({true, false});
  auto const idx = devcol::make_column<std::int32_t>({0, 1, 2});
  auto sizes = [](auto f) { return message_of<devcol::logic_error>(f); };
  CHECK_THAT(sizes([&] { (void)devcol::transform(a, b, add_rows{}); }), Contains("3") && Contains("2"));
  CHECK_THAT(sizes([&] { (void)devcol::compare(a, devcol::cmp::less, b); }), Contains("3 and 2"));
  CHECK_THAT(sizes([&] { (void)devcol::filter(a, keep); }), Contains("3 and 2"));
  CHECK_THAT(sizes([&] { devcol::copy_into(a, b); }), Contains("3 and 2"));
  CHECK_THAT(sizes([&] { (void)devcol::set_null_mask(a, keep); }), Contains("3 and 2"));
  CHECK_THAT(sizes([&] { devcol::scatter(b, idx, b); }), Contains("2 and 3"));
  CHECK(devcol::to_host(b) == std::vector<std::optional<i64>>{1, 2});
}

TEST_CASE("bad input: indices out of bounds, negative ones included, name the index and the row",
          "[reliability][bad_input]") {
  leak_check leaks;
  auto const c = devcol::make_column<i64>({1, 2, 3});
  auto const negative = devcol::make_column<std::int32_t>({0, -1});
  auto const past = devcol::make_column<std::int32_t>({3});
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)devcol::gather(c, negative); }),
             Contains("index -1 at row 1"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)devcol::gather(c, past); }), Contains("index 3"));
  auto target = c;
  CHECK_THAT(message_of<devcol::logic_error>([&] { devcol::scatter(devcol::make_column<i64>({9, 9}), negative, target); }),
             Contains("index -1"));
  CHECK(devcol::to_host(target) == devcol::to_host(c));
}

TEST_CASE("bad input: tables refuse columns of another size, unknown or repeated names and typed access of the wrong type",
          "[reliability][bad_input]") {
  leak_check leaks;
  devcol::table t;
  t.add("x", devcol::make_column<i64>({1, 2, 3}));
  CHECK_THAT(message_of<devcol::logic_error>([&] { t.add("y", devcol::make_column<double>({1.0})); }),
             Contains("'y' has 1 rows") && Contains("3"));
  t.add("x", devcol::make_column<i64>({4, 5, 6}));  // a repeated name, as an Arrow schema may have: lookups by it refuse
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)t.get<i64>("x"); }), Contains("2 columns are named 'x'"));
  t.drop(std::size_t{1});
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)t.get<double>("x"); }),
             Contains("'x'") && Contains("int64") && Contains("float64"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)t.get<i64>("nope"); }), Contains("'nope'"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)t.get<i64>(std::size_t{7}); }), Contains("index 7"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)t.select({"x", "nope"}); }), Contains("'nope'"));
  CHECK(t.num_columns() == 1);
}

TEST_CASE("bad input: negative sizes converted to size_t are refused before anything is allocated",
          "[reliability][bad_input]") {
  leak_check leaks;
  std::string const value = std::to_string(minus_one);
  CHECK_THAT(message_of<devcol::logic_error>([] { devcol::column<std::int8_t> c(minus_one); }),
             Contains(value) && Contains("negative"));
  CHECK_THAT(message_of<devcol::logic_error>([] { devcol::column<i64> c(static_cast<std::size_t>(-5)); }),
             Contains(std::to_string(static_cast<std::size_t>(-5))));
  CHECK_THAT(message_of<devcol::logic_error>([] { (void)devcol::sequence<std::int32_t>(minus_one); }), Contains(value));
  CHECK_THAT(message_of<devcol::logic_error>([] { (void)devcol::full<std::int8_t>(minus_one, std::int8_t{1}); }),
             Contains(value));
  CHECK_THAT(message_of<devcol::logic_error>([] { (void)devcol::full<double>(minus_one, std::nullopt); }), Contains(value));
  // Rows of width 0 take no memory, but their mask does: its size wrapped to 0 bytes (no mask,
  // with SIZE_MAX nulls).
  CHECK_THAT(message_of<devcol::logic_error>([] {
               devcol::fixed_size_binary_column<> c(0, minus_one, {}, devcol::mask_state::all_null);
             }),
             Contains(value));
  CHECK(leaks.live() == 0);
}

TEST_CASE("bad input: adopting buffers with an offset and size whose sum wraps is refused",
          "[reliability][bad_input]") {
  leak_check leaks;
  devcol::column<i64>::buffer_type data(64);
  // Before the check, offset + size wrapped to 1 row and passed the size check.
  CHECK_THAT(message_of<devcol::logic_error>([&] { devcol::column<i64> c(data, {}, 2, 0, minus_one); }),
             Contains(std::to_string(minus_one)));
  CHECK_THAT(message_of<devcol::logic_error>([&] { devcol::column<i64> c(data, {}, 9, 0); }), Contains("64 bytes"));
}

TEST_CASE("bad input: every kind refuses adopting an offset and size whose sum wraps", "[reliability][bad_input]") {
  leak_check leaks;
  using buffer = devcol::buffer<devcol::default_policy>;
  buffer const bytes(64);
  devcol::any_column<> const child(devcol::make_column<i64>({1, 2, 3}));
  std::string const value = std::to_string(minus_one);
  // Offset -1 and size 1 sum to 0 rows: every kind's own buffer check passed, and the column then
  // read its offsets (or type ids, views, child rows) from one element before its buffer.
  auto const refused = [&](auto f) { return message_of<devcol::logic_error>(f); };
  CHECK_THAT(refused([&] { devcol::strings_column c(bytes, bytes, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] { devcol::binary_column c(bytes, bytes, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] { devcol::string_view_column c(bytes, {}, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] { devcol::list_column c(bytes, child, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] { devcol::large_list_view_column c(bytes, bytes, child, {}, 1, 0, minus_one); }),
             Contains(value));
  CHECK_THAT(refused([&] { devcol::fixed_size_list_column<> c(1, child, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] { devcol::struct_column<> c({"a"}, {child}, {}, 1, 0, minus_one); }), Contains(value));
  CHECK_THAT(refused([&] {
               devcol::union_column<devcol::default_policy> c(devcol::union_mode::sparse, {0}, {"a"}, {child}, bytes, {},
                                                              1, minus_one);
             }),
             Contains(value));
  CHECK_THAT(refused([&] {
               devcol::run_end_encoded_column<devcol::default_policy> c(
                   devcol::run_ends_column<>(devcol::make_column<i64>({3})), child, 1, minus_one);
             }),
             Contains(value));
  CHECK_THAT(refused([&] { devcol::fixed_size_binary_column<> c(1, bytes, {}, 1, 0, minus_one); }), Contains(value));
}

TEST_CASE("bad input: a concatenation of kinds that hold rows without memory refuses a row count that wraps",
          "[reliability][bad_input]") {
  leak_check leaks;
  std::size_t const half = (SIZE_MAX >> 1) + 1;  // two of them wrapped to 0 rows
  std::string const value = std::to_string(half);
  auto const refused = [](auto f) { return message_of<devcol::logic_error>(f); };
  devcol::null_column<> const nulls(half);
  CHECK_THAT(refused([&] { (void)devcol::concatenate(std::vector{nulls, nulls}); }), Contains(value));
  devcol::struct_column<> const fieldless({}, {}, {}, half, 0);
  CHECK_THAT(refused([&] { (void)devcol::concatenate(std::vector{fieldless, fieldless}); }), Contains(value));
  devcol::fixed_size_list_column<> const empty_lists(0, devcol::any_column<>(devcol::make_column<i64>({})), {}, half, 0);
  CHECK_THAT(refused([&] { (void)devcol::concatenate(std::vector{empty_lists, empty_lists}); }), Contains(value));
  std::vector<devcol::any_column<>> const any{devcol::any_column<>(nulls), devcol::any_column<>(nulls)};
  CHECK_THAT(refused([&] { (void)devcol::concatenate(any); }), Contains(value));
  // Three runs of INT64_MAX rows: their 2^64 + 2^63 - 3 rows wrapped to 2^63 - 3, which fit int64
  // run ends, and the second input's run end overflowed to -2.
  auto const runs = devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<i64>({INT64_MAX})),
                                                        devcol::any_column<>(devcol::make_column<i64>({7})));
  CHECK(runs.size() == static_cast<std::size_t>(INT64_MAX));
  std::vector<devcol::any_column<>> const three(3, devcol::any_column<>(runs));
  CHECK_THAT(refused([&] { (void)devcol::concatenate(three); }), Contains(std::to_string(INT64_MAX)));
  std::vector<devcol::any_column<>> const two(2, devcol::any_column<>(runs));
  CHECK_THAT(refused([&] { (void)devcol::concatenate(two); }), Contains("do not fit run ends of 64 bits"));
}

namespace {
/// A custom resource that breaks the contract: a pointer one byte past an aligned one, or null.
struct broken_resource {
  bool null_result = false;
  void* allocate(std::size_t bytes, std::size_t alignment = 64, devcol::stream_ref s = {}) {
    if (null_result) { return nullptr; }
    return static_cast<std::byte*>(inner.allocate(bytes + 1, alignment, s)) + 1;
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = 64, devcol::stream_ref s = {}) noexcept {
    inner.deallocate(static_cast<std::byte*>(p) - 1, bytes + 1, alignment, s);
  }
  friend bool operator==(broken_resource const&, broken_resource const&) noexcept { return true; }
  friend void get_property(broken_resource const&, mr::host_accessible) noexcept {}
  friend void get_property(broken_resource const&, mr::device_accessible) noexcept {}
  mr::tracking<device_memory> inner;
};
}  // namespace

TEST_CASE("bad input: a custom resource's misaligned or null allocation is refused, and nothing leaks",
          "[reliability][bad_input]") {
  auto handle = mr::make_resource_handle<broken_resource>("broken");
  auto& broken = *handle.target<broken_resource>();
  broken.inner.report_leaks_on_destruction(false);
  {
    mr::scoped_default use_it{handle};
    CHECK_THAT(message_of<devcol::logic_error>([] { devcol::column<i64> c(10); }),
               Contains("not aligned to 64") && Contains("80 bytes"));
    CHECK(broken.inner.outstanding_count() == 0);  // handed back
    broken.null_result = true;
    CHECK(message_of<devcol::out_of_memory>([] { devcol::column<i64> c(10); }) != "no error");
    devcol::column<i64> empty(0);  // null for 0 bytes is allowed
    CHECK(empty.empty());
  }
  CHECK(broken.inner.outstanding_count() == 0);
}

TEST_CASE("bad input: bit ranges that end before they begin are refused", "[reliability][bad_input]") {
  leak_check leaks;
  auto const c = devcol::make_column<i64>({1, std::nullopt, 3});
  CHECK_THAT(message_of<devcol::logic_error>([&] { (void)devcol::count_unset_bits(c.null_mask(devcol::access::read), 5, 2, {}); }),
             Contains("begin 5 is past end 2"));
}

TEST_CASE("bad input: an enumeration value that names no enumerator is refused by every op that takes one",
          "[reliability][bad_input]") {
  leak_check leaks;
  auto const c = devcol::make_column<i64>({3, std::nullopt, 1});
  auto const s = devcol::make_strings_column({"b", "a"});
  auto const idx = devcol::make_column<std::int32_t>({0, 5});
  auto const refused = [](auto f) { return message_of<devcol::logic_error>(f); };
  auto const not_one = [](std::string const& what) { return Contains(what + " is not one of its enumerators"); };
  CHECK_THAT(refused([&] { (void)devcol::inclusive_scan(c, static_cast<devcol::scan_op>(7)); }),
             Contains("inclusive_scan") && not_one("scan_op(7)"));
  CHECK_THAT(refused([&] { (void)devcol::exclusive_scan(c, static_cast<devcol::scan_op>(-1)); }),
             Contains("exclusive_scan") && not_one("scan_op(-1)"));
  for (auto const bad : {static_cast<devcol::order>(3), static_cast<devcol::order>(-2)}) {
    std::string const shown = "order(" + std::to_string(static_cast<int>(bad)) + ")";
    // Each message begins with the op the caller called, not one it calls.
    auto const by = [](std::string const& op) { return Catch::StartsWith("devcol: " + op + ": "); };
    CHECK_THAT(refused([&] { (void)devcol::sort(c, bad); }), by("sort") && not_one(shown));
    CHECK_THAT(refused([&] { (void)devcol::argsort(c, bad); }), by("argsort") && not_one(shown));
    CHECK_THAT(refused([&] { (void)devcol::is_sorted(c, bad); }), by("is_sorted") && not_one(shown));
    CHECK_THAT(refused([&] { (void)devcol::sort(s, bad); }), by("sort") && not_one(shown));
    CHECK_THAT(refused([&] { (void)devcol::argsort(s, bad); }), by("argsort") && not_one(shown));
    CHECK_THAT(refused([&] { (void)devcol::is_sorted(s, bad); }), by("is_sorted") && not_one(shown));
  }
  auto const nulls = static_cast<devcol::null_order>(2);
  CHECK_THAT(refused([&] { (void)devcol::sort(c, devcol::order::ascending, {}, nulls); }), not_one("null_order(2)"));
  CHECK_THAT(refused([&] { (void)devcol::sort(s, devcol::order::ascending, {}, nulls); }), not_one("null_order(2)"));
  // A mask state that names none would have allocated a mask of nulls with a null count of 0.
  CHECK_THAT(refused([] { devcol::column<i64> bad(4, {}, static_cast<devcol::mask_state>(7)); }),
             Contains("column") && not_one("mask_state(7)"));
  auto const op = static_cast<devcol::cmp>(9);
  CHECK_THAT(refused([&] { (void)devcol::compare(c, op, i64{1}); }), Contains("compare") && not_one("cmp(9)"));
  CHECK_THAT(refused([&] { (void)devcol::compare(c, op, c); }), not_one("cmp(9)"));
  CHECK_THAT(refused([&] { (void)devcol::compare(s, op, std::string_view("a")); }), not_one("cmp(9)"));
  CHECK_THAT(refused([&] { (void)devcol::compare(s, op, s); }), not_one("cmp(9)"));
  // gather with an out-of-bounds index under an unknown policy: refused before any row is read.
  auto const policy = static_cast<devcol::out_of_bounds>(5);
  CHECK_THAT(refused([&] { (void)devcol::gather(c, idx, {}, policy); }), Contains("gather") && not_one("out_of_bounds(5)"));
  CHECK_THAT(refused([&] { (void)devcol::gather(s, idx, {}, policy); }), not_one("out_of_bounds(5)"));
  auto const list = devcol::make_list_column(std::vector<std::int32_t>{0, 1, 1}, devcol::make_column<i64>({7}));
  CHECK_THAT(refused([&] { (void)devcol::gather(list, idx, {}, policy); }), not_one("out_of_bounds(5)"));
  auto const any = devcol::any_column<>(s);
  CHECK_THAT(refused([&] { (void)devcol::gather(any, idx, {}, policy); }), not_one("out_of_bounds(5)"));
  CHECK(devcol::to_host(c) == std::vector<std::optional<i64>>{3, std::nullopt, 1});
}

TEST_CASE("bad input: messages name the op and the kind that refused", "[reliability][bad_input]") {
  leak_check leaks;
  auto const a = devcol::make_column<i64>({1, 2, 3});
  auto const b = devcol::make_column<i64>({1, 2});
  auto const refused = [](auto f) { return message_of<devcol::logic_error>(f); };
  CHECK_THAT(refused([&] { (void)devcol::compare(a, devcol::cmp::less, b); }), Contains("compare") && !Contains("transform"));
  auto const dec = devcol::make_decimal_column<std::int64_t>(std::vector<std::int64_t>{1, 2, 3}, 10, 1);
  CHECK_THAT(refused([&] { (void)dec.slice(1, 4); }), Contains("decimal_column::slice") && Contains("[1, 4)"));
  auto const dict = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, std::nullopt, 0}),
                                                   devcol::any_column<>(devcol::make_strings_column({"x"})));
  CHECK_THAT(refused([&] { (void)dict.slice(2, 9); }), Contains("dictionary_column::slice") && Contains("[2, 9)"));
  // A null run end holds no value to read: the message counts the nulls, never shows the value.
  auto const ends = devcol::make_column<std::int32_t>({2, std::nullopt, 5});
  CHECK_THAT(refused([&] {
               (void)devcol::make_run_end_encoded_column(devcol::run_ends_column<>(ends),
                                                         devcol::any_column<>(devcol::make_column<i64>({1, 2, 3})));
             }),
             Contains("run ends may not be null (1 are)"));
}

TEST_CASE("bad input: a fixed-size list or binary width past Arrow's int32 is refused where the column is made",
          "[reliability][bad_input]") {
  leak_check leaks;
  std::size_t const too_wide = std::size_t{1} << 40;
  auto const refused = [](auto f) { return message_of<devcol::logic_error>(f); };
  CHECK_THAT(refused([&] {
               (void)devcol::make_fixed_size_list_column(too_wide, devcol::any_column<>(devcol::make_column<i64>({})));
             }),
             Contains("list size of 1099511627776"));
  CHECK_THAT(refused([&] { (void)devcol::make_fixed_size_binary_column(std::vector<std::string>{}, too_wide); }),
             Contains("width of 1099511627776 bytes"));
  std::size_t const widest = 2147483647;  // INT32_MAX itself is Arrow's and is kept
  CHECK(devcol::make_fixed_size_binary_column(std::vector<std::string>{}, widest).width() == widest);
  CHECK_THAT(refused([&] { (void)devcol::make_fixed_size_binary_column(std::vector<std::string>{}, widest + 1); }),
             Contains("width of 2147483648 bytes"));
  // A null row is staged as `width` zero bytes: the width is checked first (std::length_error
  // before, for a width of -1; gigabytes of host memory for one just past Arrow's).
  std::vector<std::optional<std::string>> const one_null{std::nullopt};
  CHECK_THAT(refused([&] { (void)devcol::make_fixed_size_binary_column(one_null, minus_one); }),
             Contains("width of " + std::to_string(minus_one) + " bytes"));
}

TEST_CASE("bad input: a name or time zone holding a NUL byte is refused at export, never cut short",
          "[reliability][bad_input]") {
  leak_check leaks;
  using namespace std::string_literals;
  auto const refused = [](auto f) { return message_of<devcol::logic_error>(f); };
  ArrowSchema schema{};
  ArrowDeviceArray array{};
  devcol::table t;
  t.add("a\0b"s, devcol::make_column<i64>({1, 2}));
  CHECK_THAT(refused([&] { devcol::to_arrow(t, &schema, &array); }),
             Contains("field name \"a\\0b\" holds a NUL byte at 1"));
  CHECK(schema.release == nullptr);  // nothing written
  CHECK(array.array.release == nullptr);
  auto const st = devcol::make_struct_column({{"x\0"s, devcol::make_column<i64>({1})}});
  CHECK_THAT(refused([&] { devcol::to_arrow(st, &schema, &array); }), Contains("field name \"x\\0\""));
  devcol::field_info info;
  info.time_zone = "UTC\0junk"s;
  auto const ts = devcol::make_column<devcol::timestamp_us>({devcol::timestamp_us{devcol::duration_us{1}}});
  CHECK_THAT(refused([&] { devcol::to_arrow(ts, &schema, &array, {}, info); }),
             Contains("time zone \"UTC\\0junk\" holds a NUL byte at 3"));
  CHECK(schema.release == nullptr);
  // A time zone goes only into a timestamp's format: on any other field it is dropped, NUL or not.
  devcol::to_arrow(devcol::make_column<i64>({1}), &schema, &array, {}, info);
  CHECK(std::string(schema.format) == "l");
  schema.release(&schema);
  array.array.release(&array.array);
  // A stream refuses at once what its consumer's get_schema would, its output left untouched.
  ArrowDeviceArrayStream stream{};
  CHECK_THAT(refused([&] { devcol::to_arrow_stream(std::vector<devcol::table>{t}, &stream); }),
             Contains("field name \"a\\0b\""));
  CHECK(stream.release == nullptr);
  info.time_zone = "UTC";
  devcol::to_arrow(ts, &schema, &array, {}, info);  // the same export without the NUL goes through
  CHECK(std::string(schema.format) == "tsu:UTC");
  schema.release(&schema);
  array.array.release(&array.array);
}

TEST_CASE("bad input: copy_into between overlapping shared views copies the rows as they were",
          "[reliability][bad_input]") {
  leak_check leaks;
  struct views : devcol::default_policy {
    using sharing = devcol::shared_views;
  };
  auto const rows = [](devcol::column<i64, views> const& c) {
    std::vector<std::optional<i64>> out;
    for (auto const& v : devcol::to_host(c)) { out.push_back(v); }
    return out;
  };
  auto a = devcol::make_column<i64, views>({1, 2, 3, 4, 5});
  auto head = a.slice(0, 4);
  auto tail = a.slice(1, 5);
  devcol::copy_into(head, tail);  // forward: rows 1..4 take rows 0..3 as they were
  CHECK(rows(a) == std::vector<std::optional<i64>>{1, 1, 2, 3, 4});
  auto b = devcol::make_column<i64, views>({1, 2, 3, 4, 5});
  auto first = b.slice(0, 4);
  devcol::copy_into(b.slice(1, 5), first);  // backward
  CHECK(rows(b) == std::vector<std::optional<i64>>{2, 3, 4, 5, 5});
}

TEST_CASE("bad input: a DLPack device type past DLDeviceType's enumerators is refused by value",
          "[reliability][bad_input]") {
  leak_check leaks;
  static int deletions = 0;
  deletions = 0;
  auto const values = devcol::make_column<i64>({1, 2});
  std::int64_t shape[1] = {2};
  DLManagedTensorVersioned t{};
  t.version = {1, 0};
  t.dl_tensor.data = const_cast<i64*>(values.data(devcol::access::read));
  std::int32_t const odd_device = 999;  // as a producer's C code may write it
  std::memcpy(&t.dl_tensor.device.device_type, &odd_device, sizeof odd_device);
  t.dl_tensor.ndim = 1;
  t.dl_tensor.dtype = {kDLInt, 64, 1};
  t.dl_tensor.shape = shape;
  t.deleter = [](DLManagedTensorVersioned*) { ++deletions; };
  CHECK_THAT(message_of<devcol::dlpack_error>([&] { (void)devcol::from_dlpack<i64>(&t); }), Contains("device type 999"));
  CHECK(deletions == 1);
}

TEST_CASE("bad input: a pool whose first or minimum chunk is within a granule of SIZE_MAX still allocates or throws",
          "[reliability][bad_input]") {
  for (auto const options : {devcol::mr::pool_options{SIZE_MAX, SIZE_MAX, 1 << 20},
                             devcol::mr::pool_options{0, SIZE_MAX, SIZE_MAX - 100}}) {
    devcol::mr::pool<devcol::mr::host_aligned> pool(options);
    void* p = pool.allocate(10, 64, devcol::stream_ref{});  // the chunk rounded in granules, not wrapped to 0
    REQUIRE(p != nullptr);
    CHECK(pool.used_bytes() == 256);
    pool.deallocate(p, 10, 64, devcol::stream_ref{});
  }
}

}  // namespace devcol_test::bad_input
