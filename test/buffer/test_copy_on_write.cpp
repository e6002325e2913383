// DESIGN.md rules 1-13: copy-on-write and exposure, one test case per rule, with pointer checks.
#include "../support.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace devcol_test::cow {

using i64 = std::int64_t;
namespace access = devcol::access;

template <class C>
void const* address(C const& c) {
  return c.data(access::read);
}

struct legacy : devcol::default_policy {
  using sharing = devcol::shared_views;
};
struct runtime : devcol::default_policy {
  using sharing = devcol::runtime_sharing;
};
struct untracked : devcol::default_policy {
  using exposure = devcol::untracked_exposure;
};

}  // namespace devcol_test::cow

using namespace devcol_test::cow;  // NOLINT: test brevity
using devcol_test::assign;
using devcol_test::host_values;

TEST_CASE("rule 1: copy construction and slice share the owner: no allocation, O(1)", "[cow][rule1]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3, 4, 5, 6});
  std::size_t const live = leaks.live();
  devcol::column<i64> b = a;
  auto const s = a.slice(2, 5);
  CHECK(leaks.live() == live);  // nothing allocated
  CHECK(address(b) == address(a));
  CHECK(s.data(access::read) == a.data(access::read) + 2);
  CHECK(s.size() == 3);
  CHECK(a.is_shared());
  CHECK(s.data_buffer().shares_memory_with(a.data_buffer()));
  CHECK(a.data_buffer().use_count() == 3);
}

TEST_CASE("rule 2: read access never copies, shared or exposed", "[cow][rule2]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3});
  auto b = a;
  std::size_t const live = leaks.live();
  CHECK(b.data(access::read) == a.data(access::read));
  (void)b.view();
  (void)b.null_mask(access::read);
  CHECK(leaks.live() == live);
  CHECK(b.data(access::read) == a.data(access::read));
  auto exposed = devcol::make_column<i64>({4, 5});
  auto const* before = exposed.expose();
  std::size_t const live_exposed = leaks.live();
  CHECK(exposed.data(access::read) == before);
  CHECK(exposed.view().data() == before);
  CHECK(leaks.live() == live_exposed);
}

TEST_CASE("rule 3: a write to a shared handle gives the writer its own copy of its own range", "[cow][rule3]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3, 4});
  auto b = a;
  auto const* original = address(a);
  i64* q = b.data(access::write);
  CHECK(q != original);
  CHECK(address(a) == original);
  assign(b, 0, {10, 20});
  CHECK(host_values(a) == std::vector<i64>{1, 2, 3, 4});  // every other handle sees the old values
  CHECK(host_values(b) == std::vector<i64>{10, 20, 3, 4});
  CHECK_FALSE(a.is_shared());
  CHECK_FALSE(b.is_shared());
}

TEST_CASE("rule 3: a write to a slice copies only the slice's rows", "[cow][rule3]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto s = a.slice(3, 6);
  std::size_t const live = leaks.live();
  assign(s, 0, {30});
  REQUIRE(leaks.live() == live + 1);
  auto const records = leaks.tracker().outstanding();
  auto const fresh = std::ranges::find(records, static_cast<void*>(s.data(access::write)), &devcol::mr::allocation_record::pointer);
  REQUIRE(fresh != records.end());
  CHECK(fresh->bytes == 3 * sizeof(i64));  // the slice's rows, not the owner's 10
  CHECK(s.offset() == 0);
  CHECK(host_values(s) == std::vector<i64>{30, 4, 5});
  CHECK(host_values(a) == std::vector<i64>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("rule 4: a write after every other handle died does not copy", "[cow][rule4]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3});
  auto const* original = address(a);
  std::optional<devcol::column<i64>> b = a;
  auto slice = a.slice(1, 2);
  b.reset();
  slice = devcol::column<i64>{};
  std::size_t const live = leaks.live();
  CHECK(a.data(access::write) == original);
  CHECK(leaks.live() == live);
}

TEST_CASE("rule 5: the last handle frees the allocation once, through the resource that made it", "[cow][rule5]") {
  devcol_test::leak_check leaks;  // checks exactly-once at the end
  auto const maker = devcol::mr::make_resource_handle<devcol_test::device_tracker>("maker");
  std::optional<devcol::column<i64>> a;
  {
    devcol::mr::scoped_default use_maker{maker};
    a = devcol::make_column<i64>({1, 2, 3});
  }
  CHECK(a->resource_name() == "maker");
  auto const& made = *maker.target<devcol_test::device_tracker>();
  std::optional<devcol::column<i64>> b = *a;
  auto c = a->slice(0, 2);
  a.reset();
  b.reset();
  CHECK(made.outstanding_count() == 1);  // c keeps it alive
  c = devcol::column<i64>{};
  CHECK(made.outstanding_count() == 0);
  CHECK(made.unknown_deallocations() == 0);
  CHECK(leaks.tracker().unknown_deallocations() == 0);  // the current default never saw the free
}

TEST_CASE("rule 6: the cuDF copy chain s2 = s1, s3 = s2 holds, pointers checked", "[cow][rule6]") {
  devcol_test::leak_check leaks;
  auto s1 = devcol::make_column<i64>({1, 2, 3, 4});
  devcol::column<i64> s2 = s1;  // s1.copy(deep=False)
  devcol::column<i64> s3 = s2;  // s2.copy(deep=False)
  auto const* p = address(s1);
  CHECK(address(s2) == p);
  CHECK(address(s3) == p);

  assign(s2, 0, {10, 10});  // s2[0:2] = 10 copies s2 only
  CHECK(host_values(s2) == std::vector<i64>{10, 10, 3, 4});
  CHECK(host_values(s1) == std::vector<i64>{1, 2, 3, 4});
  CHECK(host_values(s3) == std::vector<i64>{1, 2, 3, 4});
  CHECK(address(s1) == p);
  CHECK(address(s3) == p);
  auto const* p2 = address(s2);
  CHECK(p2 != p);

  assign(s1, 0, {11, 11});  // s1[0:2] = 11 copies s1, because s3 still shares
  CHECK(host_values(s1) == std::vector<i64>{11, 11, 3, 4});
  CHECK(host_values(s2) == std::vector<i64>{10, 10, 3, 4});
  CHECK(host_values(s3) == std::vector<i64>{1, 2, 3, 4});
  CHECK(address(s2) == p2);
  CHECK(address(s3) == p);  // s3 keeps the original pointer
  CHECK(address(s1) != p);
  CHECK(address(s1) != p2);
}

TEST_CASE("rule 7: deep_copy always owns fresh memory", "[cow][rule7]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, std::nullopt, 4});
  std::size_t const live = leaks.live();
  auto c = a.deep_copy();
  CHECK(leaks.live() == live + 2);  // values and mask
  CHECK(address(c) != address(a));
  CHECK_FALSE(c.is_shared());
  CHECK_FALSE(a.is_shared());
  CHECK(devcol::to_host(c) == devcol::to_host(a));
  CHECK(c.null_count() == 1);
  auto const* fresh = address(c);
  CHECK(c.data(access::write) == fresh);  // its own: writing does not copy again
}

TEST_CASE("rule 8: slices are flat, keep their owner alive, and deep copies of slices own only their range", "[cow][rule8]") {
  devcol_test::leak_check leaks;
  std::optional<devcol::column<i64>> a = devcol::make_column<i64>({0, 1, 2, 3, 4, 5, 6, 7});
  auto s = a->slice(2, 7);   // rows 2..6
  auto ss = s.slice(1, 4);   // rows 3..5 of a
  CHECK(ss.offset() == 3);
  CHECK(ss.data_buffer().shares_memory_with(a->data_buffer()));
  CHECK(ss.data(access::read) == a->data(access::read) + 3);
  a.reset();  // the slice keeps the allocation alive
  CHECK(host_values(ss) == std::vector<i64>{3, 4, 5});
  std::size_t const live = leaks.live();
  auto owned = ss.deep_copy();
  REQUIRE(leaks.live() == live + 1);
  CHECK(owned.data_buffer().size() == 3 * sizeof(i64));
  CHECK(owned.offset() == 0);
  CHECK(host_values(owned) == std::vector<i64>{3, 4, 5});

  // The same at the buffer level: byte offsets add up, one owner.
  devcol::buffer<> bytes(64);
  auto const inner = bytes.slice(8, 48).slice(8, 16);
  CHECK(inner.offset() == 16);
  CHECK(inner.size() == 8);
  CHECK(inner.shares_memory_with(bytes));
  CHECK(static_cast<std::byte const*>(inner.data(access::read)) == static_cast<std::byte const*>(bytes.data(access::read)) + 16);
  CHECK_THROWS_WITH(bytes.slice(10, 65), Catch::Contains("[10, 65) is not within the 64 bytes"));
}

TEST_CASE("rule 9: under shared_views copies and slices are views: writes are seen by all", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64, legacy>({1, 2, 3, 4});
  auto b = a;
  auto s = a.slice(2, 4);
  assign(b, 0, {10});
  assign(s, 0, {30});
  CHECK(address(b) == address(a));
  CHECK(host_values(a) == std::vector<i64>{10, 2, 30, 4});
  CHECK(host_values(b) == std::vector<i64>{10, 2, 30, 4});
  devcol::column<float, legacy> l(1024);  // uninitialised, 1024 rows
  CHECK(l.size() == 1024);
  CHECK_FALSE(l.copy_on_write());
}

TEST_CASE("rule 9: under shared_views a change of validity through a shared column is refused", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  using opt = std::optional<i64>;
  using rows = std::vector<opt>;
  auto const host_rows = [](devcol::column<i64, legacy> const& c) { return devcol::to_host(c); };
  auto a = devcol::make_column<i64, legacy>({1, 2, 3});
  auto const with_nulls = devcol::make_column<i64, legacy>({opt{}, opt{7}});
  auto const plain = devcol::make_column<i64, legacy>({8, 9});
  auto const swap_rows = devcol::make_column<std::int32_t>({1, 0});
  {
    auto s = a.slice(0, 2);
    // Before, the slice took a mask of its own: a read [0, 7, 3] without nulls, s [null, 7].
    CHECK_THROWS_WITH(devcol::copy_into(with_nulls, s), Catch::Contains("copy_into: the target shares its buffers"));
    CHECK_THROWS_WITH(devcol::scatter(with_nulls, swap_rows, s), Catch::Contains("scatter: the target shares"));
    CHECK(host_rows(a) == rows{1, 2, 3});
    CHECK(host_rows(s) == rows{1, 2});
    CHECK_FALSE(s.nullable());
    devcol::copy_into(plain, s);  // values alone: seen through every view
    CHECK(host_rows(a) == rows{8, 9, 3});
    devcol::scatter(plain, swap_rows, s);
    CHECK(host_rows(a) == rows{9, 8, 3});
    CHECK(host_rows(s) == rows{9, 8});
  }
  // a holds its buffers alone again: the same write goes through, and a counts its null.
  auto s = a.slice(0, 2).deep_copy();
  devcol::copy_into(with_nulls, s);
  CHECK(host_rows(s) == rows{opt{}, 7});
  CHECK(s.null_count() == 1);
  auto head = devcol::make_column<i64, legacy>({opt{}, opt{2}, opt{3}});
  {
    auto copy = head;
    // fill would set the shared mask's bits to valid under the other column's count of 1.
    CHECK_THROWS_WITH(devcol::fill(copy, i64{5}), Catch::Contains("fill: the target shares its buffers"));
    CHECK(head.null_count() == 1);
    CHECK(host_rows(head) == rows{opt{}, 2, 3});
    auto view_of_a = a;
    devcol::fill(view_of_a, i64{4});  // no nulls: values alone, seen through every view
    CHECK(host_rows(a) == rows{4, 4, 4});
  }
  devcol::fill(head, i64{5});
  CHECK(host_rows(head) == rows{5, 5, 5});
  CHECK(head.null_count() == 0);
}

TEST_CASE("rule 9: under run-time sharing a buffer keeps the mode in force when it was created", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  std::optional<devcol::column<i64, runtime>> views;
  {
    devcol::scoped_copy_on_write off{false};
    views = devcol::make_column<i64, runtime>({1, 2, 3});
  }
  devcol::scoped_copy_on_write on{true};
  auto cow = devcol::make_column<i64, runtime>({1, 2, 3});
  CHECK_FALSE(views->copy_on_write());  // created under "off": stays a view
  CHECK(cow.copy_on_write());
  auto view_copy = *views;
  assign(view_copy, 0, {100});
  CHECK(host_values(*views) == std::vector<i64>{100, 2, 3});
  auto cow_copy = cow;
  assign(cow_copy, 0, {100});
  CHECK(host_values(cow) == std::vector<i64>{1, 2, 3});
  CHECK(devcol::options::copy_on_write());
}

TEST_CASE("rule 9: an operation's result that shares its input's memory keeps the input's mode", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  using opt = std::optional<i64>;
  auto const cow = devcol::make_column<i64, runtime>({opt{1}, opt{}, opt{3}});  // made under copy-on-write
  devcol::scoped_copy_on_write off{false};
  auto const no_mask = devcol::drop_null_mask(cow);
  auto const no_nulls = devcol::fill_null(no_mask, i64{0});
  for (auto const* result : {&no_mask, &no_nulls}) {
    CHECK(address(*result) == address(cow));  // shares the input's values
    CHECK(result->copy_on_write());           // and so its mode, not the option's
    auto copy = *result;
    assign(copy, 0, {100});
    CHECK(host_values(cow)[0] == 1);  // a write through a copy of the result never reaches the input
  }
  auto const filled = devcol::fill_null(cow, i64{0});  // new memory: made from nothing, the option's mode
  CHECK(address(filled) != address(cow));
  CHECK_FALSE(filled.copy_on_write());
}

TEST_CASE("rule 9: set_null_mask's new mask takes the mode of the values its result shares", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  std::optional<devcol::column<i64, runtime>> views;
  std::optional<devcol::column<bool, runtime>> flags;
  {
    devcol::scoped_copy_on_write off{false};
    views = devcol::make_column<i64, runtime>({1, 2, 3, 4});
    flags = devcol::make_column<bool, runtime>({true, false, true, true});
  }
  auto const masked = devcol::set_null_mask(*views, *flags);  // the option is on (the default) here
  CHECK(address(masked) == address(*views));
  CHECK_FALSE(masked.copy_on_write());
  CHECK_FALSE(masked.mask_buffer().copy_on_write());  // one column, one mode
  auto view = masked;  // a copy of a shared-views column is a view
  assign(view, 0, {100});
  CHECK(address(view) == address(masked));
  CHECK(host_values(masked)[0] == 100);  // the write is seen by all
  CHECK(host_values(*views)[0] == 100);

  auto const cow = devcol::make_column<i64, runtime>({1, 2, 3, 4});  // made under copy-on-write
  devcol::scoped_copy_on_write off{false};
  auto const cow_masked = devcol::set_null_mask(cow, *flags);
  CHECK(cow_masked.mask_buffer().copy_on_write());
  auto copy = cow_masked;
  (void)copy.null_mask(access::write);  // a write through a copy never reaches the original's mask
  CHECK(copy.mask_buffer().data(access::read) != cow_masked.mask_buffer().data(access::read));
}

TEST_CASE("rule 9: a copy written while the option is off keeps the copy-on-write mode it came from", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  auto original = devcol::make_column<i64, runtime>({1, 2, 3});  // made under copy-on-write
  auto copy = original;
  devcol::scoped_copy_on_write off{false};
  assign(copy, 0, {100});  // the write gives the copy memory of its own: in the copy's mode, not "off"
  CHECK(copy.copy_on_write());
  CHECK(host_values(original) == std::vector<i64>{1, 2, 3});
  auto later = copy;  // its copies and slices keep copy-on-write too
  auto slice = copy.slice(0, 2);
  assign(later, 1, {200});
  assign(slice, 0, {300});
  CHECK(host_values(copy) == std::vector<i64>{100, 2, 3});
  CHECK(host_values(later) == std::vector<i64>{100, 200, 3});
  CHECK(host_values(slice) == std::vector<i64>{300, 2});
  auto fresh = devcol::make_column<i64, runtime>({5, 6});  // made from nothing now: takes "off"
  CHECK_FALSE(fresh.copy_on_write());
  CHECK_FALSE(fresh.deep_copy().copy_on_write());
  // Strings: the write's copy keeps the mode too.
  devcol::scoped_copy_on_write on{true};
  auto words = devcol::make_strings_column<std::int32_t, runtime>(std::vector<std::string>{"a", "bc"});
  auto words_copy = words;
  devcol::scoped_copy_on_write off_again{false};
  (void)words_copy.chars(access::write);
  CHECK(words_copy.copy_on_write());
  CHECK_FALSE(words_copy.deep_copy().copy_on_write());  // deep_copy is made from nothing
}

TEST_CASE("rule 11: exposing unshares first, then marks the owner exposed for good", "[cow][rule11]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3});
  auto b = a;
  auto const* original = address(a);
  i64* raw = b.expose();
  CHECK(raw != original);  // b was shared: it got its own copy first
  CHECK(b.is_exposed());
  CHECK_FALSE(a.is_exposed());
  CHECK(address(a) == original);
  (void)b.data(access::read);
  CHECK(b.is_exposed());  // sticky
  auto c = devcol::make_column<i64>({7});
  (void)c.mutable_view();  // a mutable view is handed-out raw memory too
  CHECK(c.is_exposed());
  auto u = devcol::make_column<i64, untracked>({1});
  (void)u.expose();
  CHECK_FALSE(u.is_exposed());  // untracked: nothing recorded, nothing paid
}

TEST_CASE("rule 12: a shallow copy or slice of an exposed buffer is a deep copy", "[cow][rule12]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2, 3, 4});
  i64* raw = a.expose();
  std::size_t const live = leaks.live();
  devcol::column<i64> b = a;
  CHECK(address(b) != raw);
  CHECK_FALSE(b.data_buffer().shares_memory_with(a.data_buffer()));
  CHECK(leaks.live() == live + 1);
  auto s = a.slice(1, 3);
  CHECK(s.data(access::read) != raw + 1);
  CHECK(s.data_buffer().size() == 2 * sizeof(i64));  // only the slice's rows
  CHECK(host_values(s) == std::vector<i64>{2, 3});
  CHECK_FALSE(b.is_exposed());  // the copies are ordinary, unexposed columns
}

TEST_CASE("rule 13: a scoped read-only pointer does not expose", "[cow][rule13]") {
  devcol_test::leak_check leaks;
  auto a = devcol::make_column<i64>({1, 2});
  (void)a.data(access::read);
  (void)a.view();
  devcol::column_view<i64> const v = a;
  (void)v;
  CHECK_FALSE(a.is_exposed());
  auto b = a;
  CHECK(address(b) == address(a));  // so copies stay shallow
}

// Policies that are not chosen cost nothing: no member, no atomic.
static_assert(sizeof(devcol::buffer<>) == 3 * sizeof(void*));
static_assert(sizeof(devcol::detail::owner<devcol_test::cow::untracked>) <
              sizeof(devcol::detail::owner<devcol::default_policy>));
namespace devcol_test::cow {
struct lean : devcol::default_policy {
  using resource = devcol::mr::host_aligned;
  using exposure = devcol::untracked_exposure;
  using refcount = devcol::single_thread_refcount;
};
}  // namespace devcol_test::cow
// A stateless resource, no exposure flag, a plain count: the allocation (pointer, size, alignment,
// stream, and on CUDA the device it records, rule 21), one pointer for borrowed (imported) memory,
// and one count, nothing more.
static_assert(sizeof(devcol::detail::owner<devcol_test::cow::lean>) == (6 + DEVCOL_BACKEND_CUDA) * sizeof(void*));

TEST_CASE("copies are made by the resource that made the original, whatever the default is now", "[cow][resource]") {
  devcol_test::leak_check leaks;
  auto const maker = devcol::mr::make_resource_handle<devcol_test::device_tracker>("maker");
  std::optional<devcol::column<i64>> a;
  {
    devcol::mr::scoped_default use_maker{maker};
    a = devcol::make_column<i64>({1, std::nullopt, 3});
  }
  auto const& made = *maker.target<devcol_test::device_tracker>();
  REQUIRE(made.outstanding_count() == 2);  // values and mask
  auto b = *a;
  (void)b.data(access::write);  // the copy-on-write copy
  auto c = a->deep_copy();
  auto d = a->make_like<double>(5, {});
  CHECK(made.outstanding_count() == 7);  // a, b, c: values and mask each; d: values only
  CHECK(b.resource_name() == "maker");
  CHECK(leaks.live() == 0);  // nothing from the current default
  a.reset();
  b = {};
  c = {};
  d = {};
  CHECK(made.outstanding_count() == 0);
}

TEST_CASE("rule 9: copy_into and scatter give a target memory in its own mode, not the option's", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  using opt = std::optional<i64>;
  auto const with_nulls = devcol::make_column<i64, runtime>({opt{}, opt{7}, opt{8}});  // made under copy-on-write
  auto const rows = devcol::make_column<std::int32_t, runtime>({0, 1, 2});
  SECTION("a copy-on-write target that shares its memory, written while the option is off") {
    auto copy_target = devcol::make_column<i64, runtime>({1, 2, 3});
    auto scatter_target = copy_target;
    auto const original = copy_target;
    devcol::scoped_copy_on_write off{false};
    devcol::copy_into(with_nulls, copy_target);
    devcol::scatter(with_nulls, rows, scatter_target);
    for (auto* target : {&copy_target, &scatter_target}) {
      CHECK(target->copy_on_write());  // the memory the write gave it keeps its mode
      CHECK(target->mask_buffer().copy_on_write());
      auto later = *target;  // so its copies still copy on write
      assign(later, 1, {100});
      CHECK(host_values(*target) == std::vector<i64>{0, 7, 8});
    }
    CHECK(host_values(original) == std::vector<i64>{1, 2, 3});
  }
  SECTION("a shared-views target written while the option is on") {
    std::optional<devcol::column<i64, runtime>> copy_target;
    std::optional<devcol::column<i64, runtime>> scatter_target;
    {
      devcol::scoped_copy_on_write off{false};
      copy_target = devcol::make_column<i64, runtime>({1, 2, 3});
      scatter_target = devcol::make_column<i64, runtime>({1, 2, 3});
    }
    devcol::copy_into(with_nulls, *copy_target);  // each holds its buffers alone: validity may change
    devcol::scatter(with_nulls, rows, *scatter_target);
    for (auto* target : {&*copy_target, &*scatter_target}) {
      CHECK_FALSE(target->mask_buffer().copy_on_write());  // its new mask is a view like its values
      auto view = *target;
      assign(view, 1, {100});  // a copy of a shared-views column is a view: the write is seen by all
      CHECK(host_values(*target) == std::vector<i64>{0, 100, 8});
    }
  }
}

TEST_CASE("rule 9: a write to a nested column keeps its mode when a part of it has no mask", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  using child = devcol::any_column<runtime>;
  // Made under copy-on-write; none of these has a mask of its own but the struct, nor the sparse
  // union offsets.
  auto const list = devcol::make_list_column<std::int32_t, runtime>({0, 2, 3}, child{devcol::make_column<i64, runtime>({1, 2, 3})});
  auto const view_list = devcol::make_list_view_column<std::int32_t, runtime>({0, 2}, {2, 1}, child{devcol::make_column<i64, runtime>({1, 2, 3})});
  auto const pairs = devcol::make_fixed_size_list_column<runtime>(2, child{devcol::make_column<i64, runtime>({1, 2, 3, 4})});
  auto const inner = devcol::make_struct_column<runtime>({{"x", child{devcol::make_column<i64, runtime>({5, 6})}}});
  auto const either = devcol::make_union_column<runtime>(devcol::union_mode::sparse, {0},
                                                        {{"i", child{devcol::make_column<i64, runtime>({7, 8})}}}, {0, 0});
  auto const record = devcol::make_struct_column<runtime>(
      {{"pairs", child{pairs}}, {"inner", child{inner}}, {"either", child{either}}}, {true, false});
  auto copy = list;
  auto view_copy = view_list;
  auto record_copy = record;
  devcol::scoped_copy_on_write off{false};
  CHECK(copy.copy_on_write());  // made under copy-on-write, whatever the option says now
  CHECK(view_copy.copy_on_write());
  CHECK(pairs.copy_on_write());
  CHECK(inner.copy_on_write());
  CHECK(either.copy_on_write());
  CHECK(record_copy.copy_on_write());
  // Write access: each unshares, and the memory it gets keeps the column's mode.
  CHECK(copy.null_mask(access::write) == nullptr);
  CHECK(view_copy.null_mask(access::write) == nullptr);
  (void)record_copy.null_mask(access::write);
  CHECK_FALSE(copy.offsets_buffer().shares_memory_with(list.offsets_buffer()));
  CHECK(copy.offsets_buffer().copy_on_write());
  CHECK(devcol::get<devcol::column<i64, runtime>>(copy.child()).copy_on_write());
  CHECK(view_copy.offsets_buffer().copy_on_write());
  CHECK_FALSE(record_copy.mask_buffer().shares_memory_with(record.mask_buffer()));
  CHECK(record_copy.mask_buffer().copy_on_write());
  CHECK(record_copy.copy_on_write());
}

TEST_CASE("rule 11: a DLPack export of a column with a mask keeps sharing the values with the column", "[cow][rule11]") {
  devcol_test::leak_check leaks;
  devcol::column<i64> col(3, {}, devcol::mask_state::all_valid);  // a mask, no nulls: exportable
  devcol::fill(col, i64{1});
  DLManagedTensorVersioned* t = devcol::to_dlpack(col);
  CHECK(col.data(access::read) == t->dl_tensor.data);
  devcol::fill(col, i64{7});  // exposed memory: written in place, seen through the tensor
  CHECK(col.data(access::read) == t->dl_tensor.data);
  i64 first = 0;
  devcol::copy_bytes(&first, t->dl_tensor.data, sizeof first, {});
  CHECK(first == 7);
  DLManagedTensorVersioned* again = devcol::to_dlpack(col);  // a second export shares the same memory
  CHECK(again->dl_tensor.data == t->dl_tensor.data);
  again->deleter(again);
  t->deleter(t);
}

TEST_CASE("rule 9: a null child has no say in the mode of the copy its parent's write makes", "[cow][rule9]") {
  devcol_test::leak_check leaks;
  using child = devcol::any_column<runtime>;
  auto const record = devcol::make_struct_column<runtime>(
      {{"x", child{devcol::make_column<i64, runtime>({1, 2})}}, {"nothing", child{devcol::null_column<runtime>(2)}}},
      {true, false});  // made under copy-on-write
  auto const list = devcol::make_list_column<std::int32_t, runtime>({0, 1, 2}, child{devcol::null_column<runtime>(2)});
  auto record_copy = record;
  auto list_copy = list;
  devcol::scoped_copy_on_write off{false};
  CHECK(record_copy.copy_on_write());
  CHECK(list_copy.copy_on_write());
  (void)record_copy.null_mask(access::write);  // unshares, in the struct's mode
  (void)list_copy.null_mask(access::write);
  CHECK_FALSE(record_copy.mask_buffer().shares_memory_with(record.mask_buffer()));
  CHECK(record_copy.mask_buffer().copy_on_write());
  CHECK(devcol::get<devcol::column<i64, runtime>>(record_copy.child(0)).copy_on_write());
  CHECK_FALSE(list_copy.offsets_buffer().shares_memory_with(list.offsets_buffer()));
  CHECK(list_copy.offsets_buffer().copy_on_write());
  // Under a fixed policy a null column still answers with the policy's mode.
  CHECK_FALSE(devcol::make_struct_column<legacy>({{"nothing", devcol::any_column<legacy>{devcol::null_column<legacy>(1)}}})
                  .copy_on_write());
}
