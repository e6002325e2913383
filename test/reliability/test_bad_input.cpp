// Bad input anywhere in the public API gets a devcol:: error whose message names the bad value,
// never undefined behaviour (these run under ASan + UBSan in CI), and changes nothing.
#include "../support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
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

TEST_CASE("bad input: tables refuse columns of another size, unknown names and typed access of the wrong type",
          "[reliability][bad_input]") {
  leak_check leaks;
  devcol::table t;
  t.add("x", devcol::make_column<i64>({1, 2, 3}));
  CHECK_THAT(message_of<devcol::logic_error>([&] { t.add("y", devcol::make_column<double>({1.0})); }),
             Contains("'y' has 1 rows") && Contains("3"));
  CHECK_THAT(message_of<devcol::logic_error>([&] { t.add("x", devcol::make_column<i64>({1, 2, 3})); }), Contains("'x'"));
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

}  // namespace devcol_test::bad_input
