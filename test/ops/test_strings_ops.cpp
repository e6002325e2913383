// The strings ops (gather, filter, concatenate, compare, sort, null handling, length, hash) and the
// offsets machinery under them, against host references: sizes 0/1/63/64/65/1000, sliced inputs
// (offsets 3 and 70), random nulls, empty strings, 32- and 64-bit offsets.
#include "ops_support.hpp"

#include <algorithm>
#include <numeric>
#include <ranges>
#include <string>

namespace devcol_test::strings_ops {

using devcol_test::ops::model;
using devcol_test::ops::offsets;
using devcol_test::ops::sizes;
using strings = std::vector<std::optional<std::string>>;

#if DEVCOL_HOST_FAST_PATHS
/// Runs the test case once for each way a strings gather goes on one host thread (and the filter
/// and sort that share its body): one pass, and two passes, which the library takes where the
/// source's offsets fit in the cache (strings_gather_two_pass_below()); Catch's GENERATE reruns it.
#  define DEVCOL_TEST_EACH_STRINGS_GATHER_WAY()                                                         \
    devcol_test::scoped_knob const gather_way(devcol::detail::strings_gather_two_pass_below(),            \
                                              GENERATE(std::size_t{0}, ~std::size_t{0}));                 \
    INFO((devcol::detail::strings_gather_two_pass_below() == 0 ? "one pass" : "two passes"))
#else
#  define DEVCOL_TEST_EACH_STRINGS_GATHER_WAY() (void)0
#endif

/// A random string: 0-12 bytes, often empty, bytes over the whole unsigned range (ordering checks
/// that bytes compare as unsigned), drawn from few letters so that sorts meet ties and prefixes.
inline std::string random_string(std::mt19937_64& rng) {
  static constexpr char alphabet[] = {'a', 'b', 'c', '\0', static_cast<char>(0xC3), static_cast<char>(0xFF)};
  std::size_t const n = rng() % 4 == 0 ? 0 : rng() % 13;
  std::string s(n, ' ');
  for (auto& c : s) { c = alphabet[rng() % (rng() % 4 == 0 ? 6 : 3)]; }
  return s;
}

/// A strings column of `n` random rows (about a third null when `nulls`), taken as a slice at
/// `offset` of a larger column, and its host model.
template <class O>
std::pair<devcol::basic_strings_column<O>, strings> random_strings(std::size_t n, std::size_t offset, bool nulls,
                                                                     unsigned seed) {
  std::mt19937_64 rng(seed);
  strings all(offset + n + 5);
  for (auto& v : all) {
    if (!nulls || rng() % 3 != 0) { v = random_string(rng); }
  }
  auto whole = devcol::make_strings_column<O>(all);
  return {whole.slice(offset, offset + n),
          strings(all.begin() + static_cast<std::ptrdiff_t>(offset), all.begin() + static_cast<std::ptrdiff_t>(offset + n))};
}

inline std::size_t nulls_of(strings const& m) { return static_cast<std::size_t>(std::count(m.begin(), m.end(), std::nullopt)); }

/// Checks a strings column against its model: rows, validity, the null count, and that null rows
/// are stored empty (devcol's convention for what it writes).
template <class O, class P>
void check_equal(devcol::basic_strings_column<O, P> const& got, strings const& expected) {
  REQUIRE(got.size() == expected.size());
  CHECK(got.null_count() == nulls_of(expected));
  CHECK(devcol::to_host(got) == expected);
}

/// The model's total bytes: what a freshly written result's characters hold.
inline std::size_t bytes_of(strings const& m) {
  std::size_t n = 0;
  for (auto const& s : m) { n += s ? s->size() : 0; }
  return n;
}

inline bool cmp_host(devcol::cmp op, std::string const& a, std::string const& b) {
  int const c = std::string_view(a).compare(b);  // char_traits<char>::compare is unsigned, as memcmp
  switch (op) {
    case devcol::cmp::equal: return c == 0;
    case devcol::cmp::not_equal: return c != 0;
    case devcol::cmp::less: return c < 0;
    case devcol::cmp::less_equal: return c <= 0;
    case devcol::cmp::greater: return c > 0;
    case devcol::cmp::greater_equal: return c >= 0;
  }
  return false;
}

inline constexpr devcol::cmp all_cmps[] = {devcol::cmp::equal, devcol::cmp::not_equal, devcol::cmp::less,
                                           devcol::cmp::less_equal, devcol::cmp::greater, devcol::cmp::greater_equal};

// Device functors of the offsets test (at namespace scope: nvcc takes no local type into a kernel).
struct length_of {
  std::int64_t const* l;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const { return static_cast<std::size_t>(l[i]); }
};
struct starts_at {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t r) const { return 100 * r; }
};
struct huge {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t) const { return std::size_t{1} << 30; }
};
/// One row longer than 2^32 among short ones: its length wraps to a small 32-bit number if narrowed
/// alone, so the scan must carry the overflow, not the wrapped length.
struct one_past_32_bits {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const { return i == 1 ? (std::size_t{1} << 32) + 2 : 1; }
};

}  // namespace devcol_test::strings_ops

using namespace devcol_test::strings_ops;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("offsets machinery: one scan to offsets, the child row map, the per-row copy", "[strings][ops][offsets]",
                   std::int32_t, std::int64_t) {
  using O = TestType;
  devcol_test::leak_check leaks;
  std::vector<std::int64_t> const lengths = {3, 0, 0, 5, 1, 0, 7};
  auto const len = devcol::make_column<std::int64_t>(std::views::all(lengths));
  devcol::column<O> out(lengths.size() + 1);
  std::size_t const total =
      devcol::detail::scan_lengths<O>(length_of{len.data(devcol::access::read)}, lengths.size(),
                                      out.data(devcol::access::write), "test", {});
  CHECK(total == 16);
  CHECK(devcol::to_host(out) == model<O>{0, 3, 3, 3, 8, 9, 9, 16});
  // Element e's row (empty rows skipped) and its source element in a child whose rows start at 100 r.
  auto const host = devcol::to_host(out);
  devcol::detail::child_source<O, starts_at> const map{out.data(devcol::access::read), lengths.size(), {}};
  std::size_t e = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    for (std::int64_t k = 0; k < lengths[r]; ++k, ++e) {
      CHECK(devcol::detail::row_of_element(out.data(devcol::access::read), lengths.size(), e) == r);
      CHECK(map(e) == 100 * r + static_cast<std::size_t>(k));
    }
  }
  // An offsets buffer at a slice: positions relative to its first offset.
  auto const tail = out.slice(3, out.size());
  CHECK(devcol::detail::row_of_element(tail.data(devcol::access::read), 4, 5) == 1);
  if constexpr (sizeof(O) == 4) {  // 32-bit offsets overflow past 2^31 - 1 elements: an error naming the limit
    devcol::column<O> big(4);
    CHECK_THROWS_WITH(devcol::detail::scan_lengths<O>(huge{}, 3, big.data(devcol::access::write), "gather", {}),
                      Catch::Contains("gather: the result's 3 rows hold more than 2147483647 elements"));
    CHECK_THROWS_WITH(devcol::detail::scan_lengths<O>(one_past_32_bits{}, 3, big.data(devcol::access::write), "gather", {}),
                      Catch::Contains("gather: the result's 3 rows hold more than 2147483647 elements"));
  } else {  // 64-bit offsets hold it
    devcol::column<O> big(4);
    CHECK(devcol::detail::scan_lengths<O>(one_past_32_bits{}, 3, big.data(devcol::access::write), "gather", {}) ==
          (std::size_t{1} << 32) + 4);
    CHECK(devcol::to_host(big) == model<O>{0, 1, (O{1} << 32) + 3, (O{1} << 32) + 4});
  }
}

TEMPLATE_TEST_CASE("strings gather: rows, nulls from source and indices, out-of-bounds policies", "[strings][ops][gather]",
                   std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  DEVCOL_TEST_EACH_STRINGS_GATHER_WAY();
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_strings<TestType>(n, off, true, static_cast<unsigned>(n + off));
      std::mt19937_64 rng(n * 31 + off);
      std::size_t const m = n + 17;
      model<std::int32_t> idx(m);
      for (auto& i : idx) {
        if (rng() % 5 != 0 && n != 0) { i = static_cast<std::int32_t>(rng() % n); }
      }
      strings expected(m);
      for (std::size_t r = 0; r < m; ++r) {
        if (idx[r]) { expected[r] = ma[static_cast<std::size_t>(*idx[r])]; }
      }
      auto const g = devcol::gather(a, devcol::make_column<std::int32_t>(idx));
      check_equal(g, expected);
      CHECK(g.offset() == 0);
      CHECK(g.chars_size() == bytes_of(expected));  // nulls stored empty: no byte more
      CHECK(g.resource_name() == "leak_check");
      auto bad = devcol::make_column<std::int64_t>({0, -1, static_cast<std::int64_t>(n)});
      auto const nullified = devcol::gather(a, bad, {}, devcol::out_of_bounds::nullify);
      check_equal(nullified, strings{n != 0 ? ma[0] : std::nullopt, std::nullopt, std::nullopt});
      std::string const first_bad = n == 0 ? "index 0 at row 0" : "index -1 at row 1";
      CHECK_THROWS_WITH(devcol::gather(a, bad), Catch::Contains("gather: " + first_bad + " is out of bounds for " +
                                                                std::to_string(n) + " rows"));
    }
  }
}

TEST_CASE("strings gather without nulls allocates no mask, of an empty column without buffers", "[strings][ops][gather]") {
  devcol_test::leak_check leaks;
  DEVCOL_TEST_EACH_STRINGS_GATHER_WAY();
  auto const s = devcol::make_strings_column({"alpha", "", "gamma"});
  auto const g = devcol::gather(s, devcol::make_column<std::int64_t>({2, 2, 1, 0}));
  check_equal(g, strings{"gamma", "gamma", "", "alpha"});
  CHECK_FALSE(g.nullable());
  devcol::strings_column const none;  // no buffers at all
  auto const e = devcol::gather(none, devcol::make_column<std::int32_t>({}));
  CHECK(e.size() == 0);
  auto const nulls = devcol::gather(none, devcol::make_column<std::int32_t>({5}), {}, devcol::out_of_bounds::nullify);
  check_equal(nulls, strings{std::nullopt});
}

TEMPLATE_TEST_CASE("strings filter: kept rows in order, null flags drop", "[strings][ops][filter]", std::int32_t,
                   std::int64_t) {
  devcol_test::leak_check leaks;
  DEVCOL_TEST_EACH_STRINGS_GATHER_WAY();
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      for (bool nulls : {false, true}) {
        INFO("n " << n << ", offset " << off << ", nulls " << nulls);
        auto [a, ma] = random_strings<TestType>(n, off, nulls, static_cast<unsigned>(3 * n + off + nulls));
        std::mt19937_64 rng(n + 7 * off);
        model<bool> flags(n);
        for (auto& f : flags) {
          if (!nulls || rng() % 4 != 0) { f = rng() % 2 == 0; }
        }
        strings expected;
        for (std::size_t r = 0; r < n; ++r) {
          if (flags[r].value_or(false)) { expected.push_back(ma[r]); }
        }
        auto const f = devcol::filter(a, devcol::make_column<bool>(flags));
        check_equal(f, expected);
        CHECK(f.chars_size() == bytes_of(expected));
      }
    }
  }
  auto [a, ma] = random_strings<TestType>(10, 0, false, 1);
  CHECK_THROWS_WITH(devcol::filter(a, devcol::make_column<bool>({true})), Catch::Contains("filter: inputs have 10 and 1 rows"));
}

TEMPLATE_TEST_CASE("strings concatenate: slices, empties and nulls, span and vector", "[strings][ops][concatenate]",
                   std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  for (std::size_t off : offsets) {
    std::vector<devcol::basic_strings_column<TestType>> parts;
    strings expected;
    unsigned seed = 0;
    for (std::size_t n : sizes) {
      auto [c, m] = random_strings<TestType>(n, off, n % 2 == 1, ++seed + static_cast<unsigned>(off));
      parts.push_back(c);
      expected.insert(expected.end(), m.begin(), m.end());
    }
    parts.push_back(devcol::basic_strings_column<TestType>{});  // no buffers at all
    INFO("offset " << off);
    auto const all = devcol::concatenate(parts);
    check_equal(all, expected);
    CHECK(all.chars_size() == bytes_of(expected));
    auto const some = devcol::concatenate(std::span<devcol::basic_strings_column<TestType> const>(parts).subspan(1, 2));  // sizes 1 and 63, a span
    auto joined = devcol::to_host(parts[1]);
    auto const second = devcol::to_host(parts[2]);
    joined.insert(joined.end(), second.begin(), second.end());
    check_equal(some, joined);
  }
  CHECK(devcol::concatenate(std::vector<devcol::basic_strings_column<TestType>>{}).size() == 0);
  auto const empties = devcol::concatenate(std::vector{devcol::make_strings_column<TestType>({}),
                                                        devcol::make_strings_column<TestType>({""})});
  check_equal(empties, strings{""});
}

TEMPLATE_TEST_CASE("strings compare: column against column and against a scalar, six ops, nulls give nulls",
                   "[strings][ops][compare]", std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_strings<TestType>(n, off, true, static_cast<unsigned>(n + off + 100));
      auto [b, mb] = random_strings<TestType>(n, off + 1, n % 2 == 0, static_cast<unsigned>(n + off + 200));
      auto [c, mc] = random_strings<TestType>(n, 0, false, static_cast<unsigned>(n + off + 300));
      for (devcol::cmp op : all_cmps) {
        model<bool> ab(n);
        model<bool> ac(n);
        model<bool> ca(n);
        model<bool> scalar(n);
        for (std::size_t r = 0; r < n; ++r) {
          if (ma[r] && mb[r]) { ab[r] = cmp_host(op, *ma[r], *mb[r]); }
          if (ma[r]) { ac[r] = cmp_host(op, *ma[r], *mc[r]); }
          if (ma[r]) { ca[r] = cmp_host(op, *mc[r], *ma[r]); }
          if (ma[r]) { scalar[r] = cmp_host(op, *ma[r], std::string("ab\xFF", 3)); }
        }
        devcol_test::ops::check_equal(devcol::compare(a, op, b), ab);  // nulls in both (n even)
        devcol_test::ops::check_equal(devcol::compare(a, op, c), ac);  // nulls on the left only
        devcol_test::ops::check_equal(devcol::compare(c, op, a), ca);  // nulls on the right only
        devcol_test::ops::check_equal(devcol::compare(a, op, std::string_view("ab\xFF", 3)), scalar);
      }
    }
  }
  auto const x = devcol::make_strings_column({"a", "ab", "", "b"});
  devcol_test::ops::check_equal(devcol::compare(x, devcol::cmp::less, ""), model<bool>{false, false, false, false});
  devcol_test::ops::check_equal(devcol::compare(x, devcol::cmp::less, "ab"), model<bool>{true, false, true, false});
  CHECK_THROWS_WITH(devcol::compare(x, devcol::cmp::equal, x.slice(0, 2)), Catch::Contains("compare: inputs have 4 and 2 rows"));
}

TEMPLATE_TEST_CASE("strings sort, argsort, is_sorted: stable, both directions, nulls first or last",
                   "[strings][ops][sort]", std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  DEVCOL_TEST_EACH_STRINGS_GATHER_WAY();
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      for (auto direction : {devcol::order::ascending, devcol::order::descending}) {
        for (auto nulls : {devcol::null_order::last, devcol::null_order::first}) {
          INFO("n " << n << ", offset " << off << ", descending " << (direction == devcol::order::descending)
                    << ", nulls first " << (nulls == devcol::null_order::first));
          auto [a, ma] = random_strings<TestType>(n, off, true, static_cast<unsigned>(n * 3 + off));
          // The host reference: a stable sort of row numbers, nulls partitioned as asked.
          std::vector<std::int64_t> rows(n);
          std::iota(rows.begin(), rows.end(), 0);
          std::stable_sort(rows.begin(), rows.end(), [&](std::int64_t x, std::int64_t y) {
            auto const& p = ma[static_cast<std::size_t>(x)];
            auto const& q = ma[static_cast<std::size_t>(y)];
            if (!p || !q) { return nulls == devcol::null_order::first ? !p && q : p && !q; }
            return direction == devcol::order::ascending ? *p < *q : *q < *p;
          });
          model<std::int64_t> expected_rows(rows.begin(), rows.end());
          strings expected;
          for (auto r : rows) { expected.push_back(ma[static_cast<std::size_t>(r)]); }
          auto const indices = devcol::argsort(a, direction, {}, nulls);
          devcol_test::ops::check_equal(indices, expected_rows);
          auto const sorted = devcol::sort(a, direction, {}, nulls);
          check_equal(sorted, expected);
          CHECK(devcol::is_sorted(sorted, direction, {}, nulls));
          bool const unsorted_input = expected != ma;
          CHECK(devcol::is_sorted(a, direction, {}, nulls) == !unsorted_input);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("strings argsort: rows that tie on their first bytes, zero bytes, 32- and 64-bit row numbers",
                   "[strings][ops][sort]", std::int32_t, std::int64_t) {
  // The host fast path sorts by a key of each row's first 7 bytes and its length, then compares
  // whole the rows of 8 bytes or more that tie on it: rows that differ only past byte 7, rows whose
  // bytes are zeros where a shorter row ends (the key pads with zeros), prefixes of each other.
  devcol_test::leak_check leaks;
  std::string const z(1, '\0');
  strings rows = {"abcdefgZ", "abcdefgAA", "abcdefg", "abcdefgAA", "a", "a" + z, "a" + z + z, "", std::nullopt,
                  "abcdefg" + z, "abcdefg" + z + "x", "abcdefgA", std::string(7, '\xFF') + "\x01",
                  std::string(7, '\xFF'), std::string(9, '\xFF'), z, z + z, "abcdefgZ", std::nullopt, "abcdefgAB"};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {  // many rows sharing 7 bytes, tails of random lengths
    std::string tail(rng() % 12, ' ');
    for (auto& c : tail) { c = static_cast<char>("\0aZ\xFF"[rng() % 4]); }
    rows.push_back((i % 3 == 0 ? std::string("shared7") : std::string("sharedX")) + tail);
  }
  auto const col = devcol::make_strings_column<TestType>(rows);
#if DEVCOL_HOST_FAST_PATHS
  std::vector<std::size_t> const row_layouts = {devcol::detail::host::radix_narrow_rows_below, 0};
#else
  std::vector<std::size_t> const row_layouts = {0};  // one layout: only the host radix sort has two
#endif
  for (std::size_t const wide_from : row_layouts) {
#if DEVCOL_HOST_FAST_PATHS
    devcol_test::scoped_knob const layout(devcol::detail::host::radix_wide_rows_from(), wide_from);
#endif
    for (auto direction : {devcol::order::ascending, devcol::order::descending}) {
      for (auto nulls : {devcol::null_order::last, devcol::null_order::first}) {
        INFO("descending " << (direction == devcol::order::descending) << ", nulls first "
                           << (nulls == devcol::null_order::first) << ", 64-bit row numbers " << (wide_from == 0));
        std::vector<std::int64_t> order(rows.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
          auto const& p = rows[static_cast<std::size_t>(x)];
          auto const& q = rows[static_cast<std::size_t>(y)];
          if (!p || !q) { return nulls == devcol::null_order::first ? !p && q : p && !q; }
          auto const bytes = [](std::string const& t) { return std::basic_string<unsigned char>(t.begin(), t.end()); };
          return direction == devcol::order::ascending ? bytes(*p) < bytes(*q) : bytes(*q) < bytes(*p);
        });
        devcol_test::ops::check_equal(devcol::argsort(col, direction, {}, nulls),
                                      model<std::int64_t>(order.begin(), order.end()));
      }
    }
  }
}

TEMPLATE_TEST_CASE("strings argsort of columns without characters: empty rows, nulls, no rows", "[strings][ops][sort]",
                   std::int32_t, std::int64_t) {
  // No row has a byte, so the characters' buffer may have no address: the sort's keys must not
  // read it (UBSan reports a copy from a null pointer, even of no bytes).
  devcol_test::leak_check leaks;
  for (strings const& rows : {strings{"", "", ""}, strings{std::nullopt, "", std::nullopt, ""},
                              strings{std::nullopt, std::nullopt}, strings{}}) {
    auto const col = devcol::make_strings_column<TestType>(rows);
    INFO("rows " << rows.size());
    for (auto nulls : {devcol::null_order::last, devcol::null_order::first}) {
      std::vector<std::int64_t> order;
      for (int pass = 0; pass < 2; ++pass) {  // the valid rows, then the nulls (or the other way)
        bool const nulls_now = (pass == 0) == (nulls == devcol::null_order::first);
        for (std::size_t r = 0; r < rows.size(); ++r) {
          if (rows[r].has_value() != nulls_now) { order.push_back(static_cast<std::int64_t>(r)); }
        }
      }
      devcol_test::ops::check_equal(devcol::argsort(col, devcol::order::descending, {}, nulls),
                                    model<std::int64_t>(order.begin(), order.end()));
    }
  }
}

TEMPLATE_TEST_CASE("strings null handling: is_null, is_valid, fill_null", "[strings][ops][null]", std::int32_t,
                   std::int64_t) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_strings<TestType>(n, off, true, static_cast<unsigned>(n + off + 5));
      model<bool> null(n);
      model<bool> valid(n);
      strings filled(n);
      for (std::size_t r = 0; r < n; ++r) {
        null[r] = !ma[r].has_value();
        valid[r] = ma[r].has_value();
        filled[r] = ma[r].value_or("<none>");
      }
      devcol_test::ops::check_equal(devcol::is_null(a), null);
      devcol_test::ops::check_equal(devcol::is_valid(a), valid);
      auto const f = devcol::fill_null(a, "<none>");
      check_equal(f, filled);
      CHECK_FALSE(f.nullable());
      check_equal(devcol::fill_null(a, ""), [&] {
        strings e(n);
        for (std::size_t r = 0; r < n; ++r) { e[r] = ma[r].value_or(""); }
        return e;
      }());
    }
  }
  // Without nulls: the same buffers, shared (O(1)).
  auto const s = devcol::make_strings_column({"x", "yz"});
  auto const same = devcol::fill_null(s, "q");
  CHECK(same.chars_buffer().shares_memory_with(s.chars_buffer()));
  check_equal(same, strings{"x", "yz"});
}

TEMPLATE_TEST_CASE("strings length and hash: bytes per row, xxHash64, nulls stay null", "[strings][ops][length][hash]",
                   std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_strings<TestType>(n, off, true, static_cast<unsigned>(n + off + 9));
      // In the offset type, as Arrow's binary_length: large strings' lengths are 64-bit.
      model<TestType> lengths(n);
      for (std::size_t r = 0; r < n; ++r) {
        if (ma[r]) { lengths[r] = static_cast<TestType>(ma[r]->size()); }
      }
      STATIC_REQUIRE(std::is_same_v<decltype(devcol::length(a)), devcol::column<TestType>>);
      devcol_test::ops::check_equal(devcol::length(a), lengths);
      // Equal bytes hash equal, whatever rows or slices they sit in; nulls are null.
      auto const h = devcol::to_host(devcol::hash(a));
      auto const again = devcol::to_host(devcol::hash(devcol::gather(a, devcol::sequence<std::int64_t>(n))));
      CHECK(h == again);
      for (std::size_t r = 0; r < n; ++r) {
        CHECK(h[r].has_value() == ma[r].has_value());
        for (std::size_t q = r + 1; q < std::min(n, r + 8); ++q) {
          if (ma[r] && ma[q]) { CHECK((*h[r] == *h[q]) == (*ma[r] == *ma[q])); }
        }
      }
    }
  }
  // xxHash64 reference values: the first four are the specification's published vectors; the two
  // after them (the 8-byte lanes, and one stripe and a byte) from a separate reference
  // implementation that gives those four. Every path: empty, 1-3 bytes, 4-7, 8-byte lanes, stripes.
  auto const known = devcol::make_strings_column<TestType>({"", "a", "abc", "Nobody inspects the spammish repetition",
                                                            "0123456789abcdef0123456789abcdef!", std::nullopt,
                                                            "0123456789abcdefXYZ"});
  auto const h0 = devcol::to_host(devcol::hash(known));
  CHECK(h0[0] == 0xEF46DB3751D8E999ULL);
  CHECK(h0[1] == 0xD24EC4F1A98C6E5BULL);
  CHECK(h0[2] == 0x44BC2CF5AD770999ULL);
  CHECK(h0[3] == 0xFBCEA83C8A378BF1ULL);
  CHECK(h0[4] == 0x8AFFF4DAAC4E677EULL);
  CHECK_FALSE(h0[5].has_value());
  CHECK(h0[6] == 0xE4A73A1706916BC9ULL);
  CHECK(devcol::to_host(devcol::hash(known, 1))[0] == 0xD5AFBA1336A3BE4BULL);  // seed 1
}
