// Gather, scatter, filter, concatenate against host references.
#include "ops_support.hpp"

#include <limits>
#include <string>

using namespace devcol_test::ops;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("gather: values, nulls from source and indices, out-of-bounds policies", "[ops][gather]", std::int8_t,
                   std::int64_t, double, bool, devcol::timestamp_us) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      INFO("n " << n << ", offset " << off);
      auto [a, ma] = random_column<TestType>(n, off, true, static_cast<unsigned>(n + off));
      std::mt19937_64 rng(n * 31 + off);
      std::size_t const m = n + 17;
      model<std::int32_t> idx(m);
      for (auto& i : idx) {
        if (rng() % 5 != 0 && n != 0) { i = static_cast<std::int32_t>(rng() % n); }
      }
      auto indices = devcol::make_column<std::int32_t>(idx);
      model<TestType> expected(m);
      for (std::size_t r = 0; r < m; ++r) {
        if (idx[r]) { expected[r] = ma[static_cast<std::size_t>(*idx[r])]; }
      }
      check_equal(devcol::gather(a, indices), expected);
      // Out of bounds: nullified, or an error naming the index.
      auto bad = devcol::make_column<std::int64_t>({0, -1, static_cast<std::int64_t>(n)});
      auto nullified = devcol::gather(a, bad, {}, devcol::out_of_bounds::nullify);
      CHECK(nullified.null_count() == (n == 0 ? 3U : (ma[0] ? 2U : 3U)));
      CHECK_THROWS_WITH(devcol::gather(a, bad), Catch::Contains("out of bounds for " + std::to_string(n) + " rows"));
    }
  }
}

TEST_CASE("gather as the issue writes it, and without nulls allocates no mask", "[ops][gather]") {
  devcol_test::leak_check leaks;
  auto x = devcol::sequence<std::int64_t>(1000, 0, 1);
  auto indices = devcol::make_column<std::int32_t>({999, 0, 500});
  auto g = devcol::gather(x, indices);
  check_equal(g, model<std::int64_t>{999, 0, 500});
  CHECK_FALSE(g.nullable());
  CHECK_THROWS_WITH(devcol::gather(x, devcol::make_column<std::int32_t>({3, 1000})),
                    Catch::Contains("gather: index 1000 at row 1 is out of bounds for 1000 rows"));
}

TEMPLATE_TEST_CASE("gather, scatter and make_dictionary_column name the first index out of bounds, of each index type",
                   "[ops][gather][scatter][dictionary]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                   std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
  devcol_test::leak_check leaks;
  using I = TestType;
  // The type's extreme past the bounds: its lowest value where it has negatives, else its highest.
  I const bad = std::is_signed_v<I> ? std::numeric_limits<I>::min() : std::numeric_limits<I>::max();
  std::string const text = std::to_string(+bad);
  // Three rows before the slice (an offset off the byte boundary), then 1, a null slot holding the
  // bad bits (a null index is never checked), 0, bad, 2, bad.
  auto const valid = devcol::make_column<bool>({true, true, true, true, false, true, true, true, true});
  auto const whole = devcol::set_null_mask(devcol::make_column<I>({9, 9, 9, 1, bad, 0, bad, 2, bad}), valid);
  auto const indices = whole.slice(3, 9);
  auto const values = devcol::sequence<std::int64_t>(3, 10, 1);
  CHECK_THROWS_WITH(devcol::gather(values, indices),
                    Catch::Contains("gather: index " + text + " at row 3 is out of bounds for 3 rows"));
  check_equal(devcol::gather(values, indices, {}, devcol::out_of_bounds::nullify),
              model<std::int64_t>{11, std::nullopt, 10, std::nullopt, 12, std::nullopt});
  auto target = devcol::make_column<std::int64_t>({7, 7, 7});
  CHECK_THROWS_WITH(devcol::scatter(devcol::sequence<std::int64_t>(6, 0, 1), indices, target),
                    Catch::Contains("scatter: index " + text + " at row 3 is out of bounds for 3 rows"));
  check_equal(target, model<std::int64_t>{7, 7, 7});
  CHECK_THROWS_WITH(devcol::make_dictionary_column(indices, values),
                    Catch::Contains("make_dictionary_column: index " + text + " at row 3 is outside the 3 values"));
  // The rows before the first bad one pass every check.
  auto const good = indices.slice(0, 3);
  check_equal(devcol::gather(values, good), model<std::int64_t>{11, std::nullopt, 10});
  CHECK(devcol::size(devcol::make_dictionary_column(good, values)) == 3);
}

TEMPLATE_TEST_CASE("scatter in place: values and validity, null indices skipped", "[ops][scatter]", std::int32_t, double) {
  devcol_test::leak_check leaks;
  for (std::size_t off : offsets) {
    auto [target, mt] = random_column<TestType>(200, off, true, static_cast<unsigned>(off + 1));
    auto original = target;  // shares: scatter must copy first
    auto [source, ms] = random_column<TestType>(50, 0, true, static_cast<unsigned>(off + 2));
    model<std::int64_t> idx(50);
    for (std::size_t i = 0; i < 50; ++i) {
      if (i % 7 != 3) { idx[i] = static_cast<std::int64_t>((i * 37 + off) % 200); }  // distinct targets
    }
    auto expected = mt;
    for (std::size_t i = 0; i < 50; ++i) {
      if (idx[i]) { expected[static_cast<std::size_t>(*idx[i])] = ms[i]; }
    }
    devcol::scatter(source, devcol::make_column<std::int64_t>(idx), target);
    check_equal(target, expected);
    check_equal(original, mt);
  }
  // A column scattered into itself (or into an alias of itself) permutes it: the source is read
  // from a copy, not from rows already overwritten.
  for (std::size_t off : offsets) {
    auto [self, ms] = random_column<TestType>(300, off, true, static_cast<unsigned>(off + 3));
    model<std::int64_t> reverse(300);
    for (std::size_t i = 0; i < 300; ++i) { reverse[i] = static_cast<std::int64_t>(299 - i); }
    model<TestType> expected(ms.rbegin(), ms.rend());
    devcol::scatter(self, devcol::make_column<std::int64_t>(reverse), self);
    check_equal(self, expected);
    auto alias = self.alias();  // the same buffers, no copy-on-write between them
    devcol::scatter(alias, devcol::make_column<std::int64_t>(reverse), self);
    check_equal(self, ms);
  }
  auto t = devcol::make_column<std::int32_t>({1, 2, 3});
  CHECK_THROWS_WITH(devcol::scatter(devcol::make_column<std::int32_t>({9}), devcol::make_column<std::int32_t>({3}), t),
                    Catch::Contains("scatter: index 3 at row 0 is out of bounds for 3 rows"));
  check_equal(t, model<std::int32_t>{1, 2, 3});  // nothing was written
}

TEMPLATE_TEST_CASE("filter by a bool column: null flags drop rows, nulls in values stay", "[ops][filter]", std::uint8_t,
                   std::int64_t, float, devcol::duration_ns) {
  devcol_test::leak_check leaks;
  for (std::size_t n : sizes) {
    for (std::size_t off : offsets) {
      auto [a, ma] = random_column<TestType>(n, off, true, static_cast<unsigned>(2 * n + off));
      auto [keep, mk] = random_column<bool>(n, off + 5, true, static_cast<unsigned>(3 * n + off));
      model<TestType> expected;
      for (std::size_t i = 0; i < n; ++i) {
        if (mk[i] && *mk[i]) { expected.push_back(ma[i]); }
      }
      check_equal(devcol::filter(a, keep), expected);
    }
  }
}

TEST_CASE("filter as the issue writes it", "[ops][filter]") {
  devcol_test::leak_check leaks;
  auto x = devcol::sequence<std::int64_t>(1000, 0, 1);
  auto keep = devcol::compare(x, devcol::cmp::less, std::int64_t{10});
  auto f = devcol::filter(x, keep);
  CHECK(devcol_test::host_values(f) == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEMPLATE_TEST_CASE("concatenate: values and masks at any offsets, null counts add up", "[ops][concatenate]", std::int16_t,
                   double) {
  devcol_test::leak_check leaks;
  std::vector<devcol::column<TestType>> parts;
  model<TestType> expected;
  unsigned seed = 1;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{130}}) {
    for (std::size_t off : offsets) {
      auto [c, m] = random_column<TestType>(n, off, seed % 3 != 0, seed);
      ++seed;
      parts.push_back(c);
      expected.insert(expected.end(), m.begin(), m.end());
    }
  }
  check_equal(devcol::concatenate(parts), expected);
  auto [clean, mc] = random_column<TestType>(10, 0, false, 99);
  auto twice = devcol::concatenate(std::vector{clean, clean});
  CHECK_FALSE(twice.nullable());
  CHECK(twice.size() == 20);
  CHECK(devcol::concatenate(std::vector<devcol::column<TestType>>{}).empty());
}
