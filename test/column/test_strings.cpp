// Strings columns: construction from host strings and back, views, slices, checks on adopted buffers.
#include "../support.hpp"

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace devcol_test::strings_basics {

namespace access = devcol::access;

/// Random host strings: lengths 0-12, one row in `null_every` null (0: none).
inline std::vector<std::optional<std::string>> sample_host_strings(std::size_t n, std::size_t null_every, unsigned seed) {
  std::vector<std::optional<std::string>> out;
  std::uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>(state >> 33);
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (null_every != 0 && next() % null_every == 0) {
      out.emplace_back(std::nullopt);
      continue;
    }
    std::string s(next() % 13, ' ');
    for (auto& c : s) { c = static_cast<char>('!' + next() % 94); }
    out.emplace_back(std::move(s));
  }
  return out;
}

}  // namespace devcol_test::strings_basics

using namespace devcol_test::strings_basics;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("strings columns round-trip host strings with nulls and empty strings", "[strings][column]",
                   std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  for (std::size_t n : {0, 1, 63, 64, 65, 1000}) {
    for (std::size_t null_every : {0, 3}) {
      auto const host = sample_host_strings(n, null_every, static_cast<unsigned>(n + null_every));
      auto const col = devcol::make_strings_column<TestType>(host);
      CAPTURE(n, null_every);
      CHECK(col.size() == n);
      CHECK(col.null_count() == devcol_test::count_nulls(host));
      CHECK(col.nullable() == (col.null_count() != 0));
      CHECK(devcol::to_host(col) == host);
      CHECK(col.offsets_buffer().size() == (n + 1) * sizeof(TestType));  // even 0 rows have offset {0}
    }
  }
}

TEST_CASE("strings column views give each row's bytes and validity", "[strings][column]") {
  devcol_test::leak_check leaks;
  auto const col = devcol::make_strings_column({"héllo", "", std::nullopt, "z"}).slice(1, 4);
  std::vector<std::int32_t> offsets(col.size() + 1);
  auto const view = col.view();
  devcol::copy_bytes(offsets.data(), view.offsets(), offsets.size() * sizeof(std::int32_t), {});
  CHECK(offsets == std::vector<std::int32_t>{6, 6, 6, 7});  // "héllo" is 6 bytes of UTF-8
  CHECK(view.mask_offset() == 1);
  CHECK(view.null_count() == 1);
  CHECK(view.chars() == col.chars(access::read));
#if !DEVCOL_BACKEND_CUDA  // host memory: read the rows here
  CHECK(view.is_valid(0));
  CHECK(view.is_null(1));
  CHECK(std::string_view(view[2]) == "z");
  CHECK(view.length(2) == 1);
  CHECK(view[0].empty());
#endif
}

TEST_CASE("devcol::string_view orders bytes as unsigned, then by length", "[strings][column]") {
  using sv = devcol::string_view;
  CHECK(sv("abc") == sv("abc"));
  CHECK(sv("abc") != sv("abd"));
  CHECK(sv("ab") < sv("abc"));
  CHECK(sv("") < sv("a"));
  CHECK(sv("\x7f") < sv("\x80"));  // unsigned bytes: 0x80 after 0x7f
  CHECK(sv("b") > sv("abc"));
  CHECK(sv("abc").compare(sv("abc")) == 0);
  CHECK(sv("a") <= sv("a"));
  CHECK(sv("b") >= sv("a"));
  CHECK(std::string_view(sv("xyz")) == "xyz");
}

TEST_CASE("strings slices count their nulls and copy nothing", "[strings][column]") {
  devcol_test::leak_check leaks;
  auto const host = sample_host_strings(300, 4, 7);
  auto const col = devcol::make_strings_column(host);
  std::size_t const live = leaks.live();
  for (std::size_t begin : {0, 3, 70, 299}) {
    for (std::size_t end : {begin, begin + 1, std::size_t{300}}) {
      if (end > 300) { continue; }
      auto const s = col.slice(begin, end);
      auto const expected = std::vector<std::optional<std::string>>(host.begin() + static_cast<std::ptrdiff_t>(begin),
                                                                    host.begin() + static_cast<std::ptrdiff_t>(end));
      CAPTURE(begin, end);
      CHECK(s.null_count() == devcol_test::count_nulls(expected));
      CHECK(devcol::to_host(s) == expected);
    }
  }
  CHECK(leaks.live() == live);
  CHECK_THROWS_AS(col.slice(5, 4), devcol::logic_error);
  CHECK_THROWS_WITH(col.slice(0, 301), Catch::Contains("[0, 301) is not within the 300 rows"));
}

TEST_CASE("an empty strings column has no buffers, and copies and slices stay empty", "[strings][column]") {
  devcol_test::leak_check leaks;
  devcol::strings_column empty;
  CHECK(empty.size() == 0);
  CHECK(empty.offsets(access::read) == nullptr);
  CHECK(empty.chars_range() == std::pair<std::size_t, std::size_t>{0, 0});
  CHECK(empty.deep_copy().size() == 0);
  CHECK(empty.slice(0, 0).size() == 0);
  CHECK(devcol::to_host(empty).empty());
  auto moved_from = devcol::make_strings_column({"a"});
  auto taken = std::move(moved_from);
  CHECK(moved_from.size() == 0);  // NOLINT: moved-from state is specified
  CHECK(taken.size() == 1);
}

TEST_CASE("strings columns check the buffers they adopt", "[strings][column]") {
  devcol_test::leak_check leaks;
  devcol::buffer<> offsets(3 * sizeof(std::int32_t));
  devcol::buffer<> chars(8);
  // 3 offsets hold 2 rows, not 3
  CHECK_THROWS_WITH(devcol::strings_column(offsets, chars, {}, 3, 0),
                    Catch::Contains("offsets buffer of 12 bytes cannot hold the 4 offsets of rows [0, 3)"));
  CHECK_THROWS_WITH(devcol::strings_column(offsets, chars, {}, 1, 0, 2), Catch::Contains("rows [2, 3)"));
  CHECK_THROWS_WITH(devcol::strings_column(offsets.slice(2, 12), chars, {}, 1, 0),
                    Catch::Contains("not aligned for 4-byte offsets"));
  CHECK_THROWS_WITH(devcol::strings_column(offsets, chars, {}, 2, 1), Catch::Contains("null count 1 is impossible"));
  devcol::buffer<> small_mask(4);
  CHECK_THROWS_WITH(devcol::strings_column(offsets, chars, small_mask, 2, 0), Catch::Contains("a mask of 4 bytes"));
  CHECK_NOTHROW(devcol::strings_column(offsets, chars, {}, 2, 0));
}

TEST_CASE("32-bit offsets refuse more than 2^31 - 1 bytes, naming the total", "[strings][column][huge_allocation]") {
  // Two rows of 2^30 bytes each are 2^31 in all: one byte too many for int32 offsets. The check runs
  // before anything is allocated on the device.
  std::string const big(std::size_t{1} << 30, 'x');
  std::vector<std::string_view> rows{big, big};
  CHECK_THROWS_WITH(devcol::make_strings_column(rows), Catch::Contains("2147483648 bytes overflow 32-bit offsets"));
}

TEST_CASE("strings columns print their first rows", "[strings][column]") {
  devcol_test::leak_check leaks;
  std::ostringstream out;
  out << devcol::make_strings_column({"a", std::nullopt, ""}) << ' '
      << devcol::make_strings_column<std::int64_t>({"x"});
  CHECK(out.str() == R"(strings["a", null, ""] large_strings["x"])");
}
