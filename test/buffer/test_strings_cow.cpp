// DESIGN.md rules 1-8 on a strings column, with pointer checks: the copy-on-write contract holds for
// variable-width columns as for fixed-width ones (three buffers: offsets, characters, mask).
#include "../support.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devcol_test::strings_cow {

namespace access = devcol::access;
using text_rows_t = std::vector<std::optional<std::string>>;

/// Writes `text` over the first bytes of row `row` through write access (same length: the offsets
/// stay): what an in-place edit of a strings column may do.
template <class C>
void overwrite_row(C& c, std::size_t row, std::string const& text) {
  char* chars = c.chars(access::write);
  std::int64_t start = 0;
  devcol::copy_bytes(&start, c.offsets(access::read) + row, sizeof(typename C::offset_type), {});
  devcol::copy_bytes(chars + start, text.data(), text.size(), {});
}

text_rows_t text_rows(std::initializer_list<char const*> values) {
  text_rows_t out;
  for (auto const* v : values) { out.push_back(v == nullptr ? std::nullopt : std::optional<std::string>(v)); }
  return out;
}

}  // namespace devcol_test::strings_cow

using namespace devcol_test::strings_cow;  // NOLINT: test brevity

TEMPLATE_TEST_CASE("strings rule 1: copies and slices share the buffers: no allocation, O(1)", "[strings][cow][rule1]",
                   devcol::strings_column, devcol::large_strings_column) {
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column<typename TestType::offset_type>({"ab", std::nullopt, "", "cde", "f"});
  std::size_t const live = leaks.live();
  TestType b = a;
  auto const s = a.slice(1, 4);
  CHECK(leaks.live() == live);
  CHECK(b.chars(access::read) == a.chars(access::read));
  CHECK(b.offsets(access::read) == a.offsets(access::read));
  CHECK(s.chars(access::read) == a.chars(access::read));      // offsets are absolute: chars never move
  CHECK(s.offsets(access::read) == a.offsets(access::read) + 1);
  CHECK(s.null_mask(access::read) == a.null_mask(access::read));
  CHECK(s.offset() == 1);
  CHECK(s.size() == 3);
  CHECK(s.null_count() == 1);
  CHECK(a.offsets_buffer().use_count() == 3);
  CHECK(a.chars_buffer().use_count() == 3);
  CHECK(a.mask_buffer().use_count() == 3);
  CHECK(devcol::to_host(s) == text_rows({nullptr, "", "cde"}));
}

TEST_CASE("strings rule 2: read access never copies", "[strings][cow][rule2]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column({"x", "yz"});
  auto b = a;
  std::size_t const live = leaks.live();
  auto const v = b.view();
  (void)b.null_mask(access::read);
  (void)devcol::to_host(b);
  CHECK(v.chars() == a.chars(access::read));
  CHECK(v.offsets() == a.offsets(access::read));
  CHECK(leaks.live() == live);
  CHECK(b.is_shared());
}

TEMPLATE_TEST_CASE("strings rule 3: a write to a shared handle copies the writer's own rows only", "[strings][cow][rule3]",
                   devcol::strings_column, devcol::large_strings_column) {
  using O = typename TestType::offset_type;
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column<O>({"zero", "one", std::nullopt, "three", "four", "five"});
  auto s = a.slice(1, 5);  // "one", null, "three", "four": bytes [4, 16) of a's 20
  auto const* chars = a.chars(access::read);
  auto const* offsets = a.offsets(access::read);
  std::size_t const live = leaks.live();
  overwrite_row(s, 0, "ONE");
  REQUIRE(leaks.live() == live + 3);  // offsets, characters and mask of the slice's rows
  CHECK(s.chars(access::read) != chars);
  CHECK(s.offset() == 0);
  CHECK(s.chars_buffer().size() == 12);                      // "one" + "" + "three" + "four"
  CHECK(s.offsets_buffer().size() == 5 * sizeof(O));         // rebased, four rows
  CHECK(s.mask_buffer().size() == devcol::bitmask_allocation_size(4));
  CHECK(devcol::to_host(s) == text_rows({"ONE", nullptr, "three", "four"}));
  // Every other handle still sees the old values, at the old pointers.
  CHECK(a.chars(access::read) == chars);
  CHECK(a.offsets(access::read) == offsets);
  CHECK(devcol::to_host(a) == text_rows({"zero", "one", nullptr, "three", "four", "five"}));
  CHECK_FALSE(s.is_shared());
}

TEST_CASE("strings rule 3: writing the mask of a shared column copies it first", "[strings][cow][rule3]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column({"a", std::nullopt, "c"});
  auto b = a;
  auto* mask = b.null_mask(access::write);
  CHECK(mask != a.null_mask(access::read));
  devcol::bitmask_word const all = 0b111;
  devcol::copy_bytes(mask, &all, sizeof(all), {});
  b.set_null_count(0);
  CHECK(devcol::to_host(b) == text_rows({"a", "", "c"}));
  CHECK(devcol::to_host(a) == text_rows({"a", nullptr, "c"}));
}

TEST_CASE("strings rule 4: a write after every other handle died does not copy", "[strings][cow][rule4]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column({"abc", "de"});
  auto const* chars = a.chars(access::read);
  std::optional<devcol::strings_column> b = a;
  auto slice = a.slice(1, 2);
  b.reset();
  slice = devcol::strings_column{};
  std::size_t const live = leaks.live();
  CHECK(a.chars(access::write) == chars);
  CHECK(leaks.live() == live);
}

TEST_CASE("strings rule 5: the last handle frees each buffer once, through the resource that made it", "[strings][cow][rule5]") {
  devcol_test::leak_check leaks;
  auto const maker = devcol::mr::make_resource_handle<devcol_test::device_tracker>("maker");
  std::optional<devcol::strings_column> a;
  {
    devcol::mr::scoped_default use_maker{maker};
    a = devcol::make_strings_column({"p", std::nullopt, "qr"});
  }
  CHECK(a->resource_name() == "maker");
  auto const& made = *maker.target<devcol_test::device_tracker>();
  CHECK(made.outstanding_count() == 3);
  auto c = a->slice(2, 3);
  a.reset();
  CHECK(made.outstanding_count() == 3);  // c keeps all three alive
  CHECK(devcol::to_host(c) == text_rows({"qr"}));
  c = devcol::strings_column{};
  CHECK(made.outstanding_count() == 0);
  CHECK(made.unknown_deallocations() == 0);
  CHECK(leaks.tracker().unknown_deallocations() == 0);
}

TEST_CASE("strings rule 6: the cuDF copy chain s2 = s1, s3 = s2 holds, pointers checked", "[strings][cow][rule6]") {
  devcol_test::leak_check leaks;
  auto s1 = devcol::make_strings_column({"aa", "bb", "cc"});
  devcol::strings_column s2 = s1;
  devcol::strings_column s3 = s2;
  auto const* p = s1.chars(access::read);
  CHECK(s2.chars(access::read) == p);
  CHECK(s3.chars(access::read) == p);

  overwrite_row(s2, 0, "XX");  // copies s2 only
  auto const* p2 = s2.chars(access::read);
  CHECK(p2 != p);
  CHECK(s1.chars(access::read) == p);
  CHECK(s3.chars(access::read) == p);
  CHECK(devcol::to_host(s2) == text_rows({"XX", "bb", "cc"}));
  CHECK(devcol::to_host(s1) == text_rows({"aa", "bb", "cc"}));

  overwrite_row(s1, 1, "YY");  // copies s1, because s3 still shares
  CHECK(s1.chars(access::read) != p);
  CHECK(s1.chars(access::read) != p2);
  CHECK(s2.chars(access::read) == p2);
  CHECK(s3.chars(access::read) == p);  // s3 keeps the original pointer
  CHECK(devcol::to_host(s1) == text_rows({"aa", "YY", "cc"}));
  CHECK(devcol::to_host(s3) == text_rows({"aa", "bb", "cc"}));
}

TEST_CASE("strings rule 7: deep_copy always owns fresh memory", "[strings][cow][rule7]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_strings_column({"a", std::nullopt, "bcd"});
  std::size_t const live = leaks.live();
  auto c = a.deep_copy();
  CHECK(leaks.live() == live + 3);
  CHECK(c.chars(access::read) != a.chars(access::read));
  CHECK(c.offsets(access::read) != a.offsets(access::read));
  CHECK_FALSE(c.is_shared());
  CHECK(devcol::to_host(c) == devcol::to_host(a));
  CHECK(c.null_count() == 1);
  auto const* fresh = c.chars(access::read);
  CHECK(c.chars(access::write) == fresh);
}

TEMPLATE_TEST_CASE("strings rule 8: slices are flat, keep their owner alive, deep copies own only their rows",
                   "[strings][cow][rule8]", devcol::strings_column, devcol::large_strings_column) {
  using O = typename TestType::offset_type;
  devcol_test::leak_check leaks;
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 100; ++i) {
    values.push_back(i % 7 == 3 ? std::nullopt : std::optional<std::string>(std::string(static_cast<std::size_t>(i % 5), static_cast<char>('a' + i % 26))));
  }
  std::optional<TestType> a = devcol::make_strings_column<O>(values);
  auto s = a->slice(10, 90);
  auto ss = s.slice(3, 70);  // rows [13, 80) of a: offset 13, not a multiple of 8
  CHECK(ss.offset() == 13);
  CHECK(ss.offsets(access::read) == a->offsets(access::read) + 13);
  CHECK(ss.chars_buffer().shares_memory_with(a->chars_buffer()));
  a.reset();
  auto const expected = std::vector<std::optional<std::string>>(values.begin() + 13, values.begin() + 80);
  CHECK(devcol::to_host(ss) == expected);
  CHECK(ss.null_count() == devcol_test::count_nulls(expected));
  auto const [first, last] = ss.chars_range();
  std::size_t const live = leaks.live();
  auto owned = ss.deep_copy();
  REQUIRE(leaks.live() == live + 3);
  CHECK(owned.offset() == 0);
  CHECK(owned.chars_buffer().size() == last - first);
  CHECK(owned.offsets_buffer().size() == 68 * sizeof(O));
  CHECK(devcol::to_host(owned) == expected);
  CHECK(owned.chars_range() == std::pair<std::size_t, std::size_t>{0, last - first});
}
