// Nested columns (lists, structs, dictionaries), any_column and host_value: the column layer.
#include "../nested_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace devcol_test::nested {

using devcol::host_value;
using hv = host_value;
using devcol::host_list;
using devcol::host_struct;
using values = std::vector<host_value>;

using nested_samples::int_lists;
using nested_samples::rows_of;

}  // namespace devcol_test::nested

// The test cases live in the helpers' namespace: in the CUDA unity build every test source is one
// translation unit, and a using-directive would make these helpers clash with other files'.
namespace devcol_test::nested {

TEST_CASE("a list column holds lists of int64 with nulls, empty lists and null elements", "[nested][list]") {
  devcol_test::leak_check leaks;
  auto const col = devcol::make_list_column({0, 2, 2, 5}, devcol::make_column<std::int64_t>({1, 2, 3, std::nullopt, 5}),
                                            {true, true, false});
  CHECK(col.size() == 3);
  CHECK(col.null_count() == 1);
  CHECK(col.type_name() == "list<int64>");
  CHECK(col.arrow_format() == "+l");
  CHECK(devcol::to_host_values(col) == values{host_list({1, 2}), host_list({}), hv()});
  std::ostringstream out;
  out << col;
  CHECK(out.str() == "list<int64>[[1, 2], [], null]");

  for (std::size_t n : {0, 1, 65, 1000}) {
    auto const [lists, model] = int_lists(n);
    CHECK(devcol::to_host_values(lists) == model);
    std::size_t const b = n > 20 ? 13 : 0;  // not a multiple of 8
    std::size_t const e = n > 20 ? n - 3 : n;
    auto const part = lists.slice(b, e);
    CHECK(part.offset() == b);
    CHECK(devcol::to_host_values(part) == rows_of(model, b, e));
    auto const copy = part.deep_copy();
    CHECK(copy.offset() == 0);
    CHECK(devcol::to_host_values(copy) == rows_of(model, b, e));
    CHECK(copy.null_count() == part.null_count());
    if (n > 0) {  // the deep copy owns only its rows: its child holds only the rows the lists span
      auto const [first, last] = part.child_range();
      CHECK(devcol::size(copy.child()) == last - first);
    }
  }
  auto const large = devcol::make_large_list_column({0, 1, 3}, devcol::make_strings_column({"a", "bc", std::nullopt}));
  CHECK(large.type_name() == "large_list<string>");
  CHECK(large.arrow_format() == "+L");
  CHECK(devcol::to_host_values(large) == values{host_list({"a"}), host_list({"bc", hv()})});
}

TEST_CASE("list columns follow copy-on-write rules 1-4 and 7-8", "[nested][list][cow]") {
  devcol_test::leak_check leaks;
  auto const [original, model] = int_lists(65);
  std::size_t const live = leaks.live();
  devcol::list_column copy = original;  // rule 1: no allocation
  auto const part = original.slice(9, 40);
  CHECK(leaks.live() == live);
  CHECK(copy.offsets(devcol::access::read) == original.offsets(devcol::access::read));
  CHECK(part.offsets(devcol::access::read) == original.offsets(devcol::access::read) + 9);  // rule 8
  CHECK(original.is_shared());
  // Rule 3: a write to the copy's mask gives it its own rows; the original keeps its memory.
  auto const* before = original.null_mask(devcol::access::read);
  auto* mask = copy.null_mask(devcol::access::write);
  CHECK(mask != before);
  CHECK(copy.offset() == 0);
  CHECK(original.null_mask(devcol::access::read) == before);
  CHECK(devcol::to_host_values(copy) == model);
  // Rule 4: no other handle now, so a second write does not copy.
  CHECK(copy.null_mask(devcol::access::write) == mask);
  // Rule 7: deep_copy owns fresh memory.
  auto const fresh = original.deep_copy();
  CHECK(fresh.offsets(devcol::access::read) != original.offsets(devcol::access::read));
  CHECK(!fresh.is_shared());
}

TEST_CASE("a struct column has named children, its offset applies to them and slicing is O(1)", "[nested][struct]") {
  devcol_test::leak_check leaks;
  for (std::size_t n : {0, 1, 65, 1000}) {
    std::vector<std::optional<std::int64_t>> b;
    std::vector<std::optional<std::string>> a;
    std::vector<bool> valid;
    values model;
    for (std::size_t i = 0; i < n; ++i) {
      std::optional<std::string> s;
      if (i % 3 != 1) { s = std::string(i % 5, 'x') + std::to_string(i); }
      std::optional<std::int64_t> v;
      if (i % 4 != 2) { v = static_cast<std::int64_t>(i) - 7; }
      a.push_back(s);
      b.push_back(v);
      valid.push_back(i % 6 != 5);
      model.push_back(valid.back() ? host_struct({{"a", s}, {"b", v}}) : hv());
    }
    auto const col = devcol::make_struct_column({{"a", devcol::make_strings_column(a)},
                                                 {"b", devcol::make_column<std::int64_t>(b)}},
                                                valid);
    CHECK(col.type_name() == "struct<a: string, b: int64>");
    CHECK(col.arrow_format() == "+s");
    CHECK(col.num_children() == 2);
    CHECK(col.name(1) == "b");
    CHECK(devcol::to_host_values(col) == model);
    std::size_t const first = n > 20 ? 11 : 0;
    std::size_t const last = n > 20 ? n - 5 : n;
    std::size_t const live = leaks.live();
    auto const part = col.slice(first, last);
    CHECK(leaks.live() == live);  // the children untouched
    CHECK(part.offset() == first);
    CHECK(devcol::size(part.child(0)) == n);  // whole children, the offset moved
    CHECK(devcol::to_host_values(part) == rows_of(model, first, last));
    CHECK(devcol::to_host_values(part.field("b")) == [&] {
      values v;
      for (std::size_t i = first; i < last; ++i) { v.push_back(b[i]); }
      return v;
    }());
    auto const copy = part.deep_copy();
    CHECK(copy.offset() == 0);
    CHECK(devcol::size(copy.child(0)) == last - first);  // owns only its rows
    CHECK(devcol::to_host_values(copy) == rows_of(model, first, last));
  }
}

TEST_CASE("a dictionary column maps int32 indices to values of any kind", "[nested][dictionary]") {
  devcol_test::leak_check leaks;
  auto const col = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({1, 0, std::nullopt, 1, 2}),
                                                  devcol::make_strings_column({"a", "bb", std::nullopt}));
  CHECK(col.type_name() == "dictionary<values=string, indices=int32>");
  CHECK(col.arrow_format() == "i");
  CHECK(col.null_count() == 1);
  CHECK(devcol::to_host_values(col) == values{"bb", "a", hv(), "bb", hv()});
  auto const part = col.slice(3, 5);
  CHECK(devcol::to_host_values(part) == values{"bb", hv()});
  CHECK(devcol::size(part.values()) == 3);  // every value kept
  auto const copy = part.deep_copy();
  CHECK(copy.offset() == 0);
  CHECK(devcol::to_host_values(copy) == values{"bb", hv()});
  std::ostringstream out;
  out << col;
  CHECK(out.str() == R"(dictionary<values=string, indices=int32>["bb", "a", null, "bb", null])");
  CHECK_THROWS_WITH(devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 3}),
                                                   devcol::make_column<double>({1.0, 2.0})),
                    Catch::Contains("index 3 at row 1 is outside the 2 values"));
}

TEST_CASE("any_column holds every kind, recursively: list<struct<a: string, b: int64>>", "[nested][any]") {
  devcol_test::leak_check leaks;
  auto const inner = devcol::make_struct_column(
      {{"a", devcol::make_strings_column({"x", std::nullopt, "", "zz"})},
       {"b", devcol::make_column<std::int64_t>({1, 2, std::nullopt, 4})}},
      {true, true, true, false});
  devcol::any_column<> col = devcol::make_list_column({0, 2, 2, 4, 4}, inner, {true, true, true, false});
  CHECK(devcol::type_name(col) == "list<struct<a: string, b: int64>>");
  CHECK(devcol::arrow_format(col) == "+l");
  CHECK(devcol::size(col) == 4);
  CHECK(devcol::null_count(col) == 1);
  values const model{host_list({host_struct({{"a", "x"}, {"b", 1}}), host_struct({{"a", hv()}, {"b", 2}})}),
                     host_list({}), host_list({host_struct({{"a", ""}, {"b", hv()}}), hv()}), hv()};
  CHECK(devcol::to_host_values(col) == model);
  auto const part = devcol::slice(col, 1, 3);
  CHECK(devcol::to_host_values(part) == rows_of(model, 1, 3));
  auto const copy = devcol::deep_copy(part);
  CHECK(devcol::to_host_values(copy) == rows_of(model, 1, 3));
  CHECK(devcol::size(devcol::get<devcol::list_column>(copy).child()) == 2);
  std::ostringstream out;
  out << col;
  CHECK(out.str() == R"(list<struct<a: string, b: int64>>[[{a: "x", b: 1}, {a: null, b: 2}], [], [{a: "", b: null}, null], null])");
  // A fixed-width column and a strings column through the same functions.
  devcol::any_column<> ints = devcol::make_column<std::uint8_t>({1, std::nullopt});
  CHECK(devcol::type_name(ints) == "uint8");
  CHECK(devcol::arrow_format(ints) == "C");
  CHECK(devcol::to_host_values(ints) == values{std::uint64_t{1}, hv()});
  CHECK(devcol::type_name(devcol::any_column<>(devcol::large_strings_column{})) == "large_string");
}

TEST_CASE("any_column asks for one kind as std::variant does: index, holds_alternative, get_if, get", "[nested][any]") {
  devcol_test::leak_check leaks;
  devcol::any_column<> empty;  // never empty-handed: an empty int8 column, as std::variant's first alternative
  CHECK(empty.index() == 0);
  CHECK(devcol::holds_alternative<devcol::column<std::int8_t>>(empty));
  CHECK(devcol::size(empty) == 0);
  static_assert(devcol::any_column_kind_count<> == 50);
  static_assert(std::is_same_v<devcol::any_column_kind_t<3>, devcol::column<std::int64_t>>);

  auto const ints = devcol::make_column<std::int64_t>({7, std::nullopt, 9});
  devcol::any_column<> col = ints;
  CHECK(col.index() == 3);
  CHECK(devcol::holds_alternative<devcol::column<std::int64_t>>(col));
  CHECK_FALSE(devcol::holds_alternative<devcol::column<double>>(col));
  CHECK(devcol::get_if<devcol::column<double>>(&col) == nullptr);
  CHECK(devcol::get_if<devcol::column<std::int64_t>>(static_cast<devcol::any_column<> const*>(nullptr)) == nullptr);
  REQUIRE(devcol::get_if<devcol::column<std::int64_t>>(&col) != nullptr);
  CHECK(devcol::get_if<devcol::column<std::int64_t>>(&col)->data(devcol::access::read) == ints.data(devcol::access::read));
  CHECK_THROWS_AS(devcol::get<devcol::strings_column>(col), devcol::logic_error);
  CHECK_THROWS_WITH(devcol::get<devcol::strings_column>(std::as_const(col)),
                    Catch::Contains("devcol::get: the column holds int64, not the string column asked for"));
  CHECK_THROWS_WITH(devcol::get<devcol::column<double>>(col),
                    Catch::Contains("devcol::get: the column holds int64, not the float64 column asked for"));

  // Assigning a kind replaces the one held; get() of a non-const column hands it out to change.
  col = devcol::make_strings_column({"a", std::nullopt});
  REQUIRE(devcol::holds_alternative<devcol::strings_column>(col));
  devcol::get<devcol::strings_column>(col) = devcol::make_strings_column({"xyz"});
  CHECK(devcol::to_host_values(col) == values{"xyz"});
  devcol::any_column<> moved = std::move(col);
  CHECK(devcol::to_host_values(moved) == values{"xyz"});
  col = moved;  // a moved-from any_column may be assigned
  CHECK(devcol::to_host_values(col) == values{"xyz"});
  col = std::as_const(col);  // self-assignment keeps the column
  CHECK(devcol::to_host_values(col) == values{"xyz"});

  // visit() of a non-const column passes each kind as C&.
  devcol::any_column<> grown = devcol::make_column<std::int32_t>({1, 2, 3});
  devcol::visit([](auto& c) { c = c.slice(1, c.size()); }, grown);
  CHECK(devcol::to_host_values(grown) == values{std::int64_t{2}, std::int64_t{3}});
}

TEST_CASE("copying an any_column copies the column: buffers shared in O(1), exposed ones copied (rule 12)",
          "[nested][any][cow]") {
  devcol_test::leak_check leaks;
  auto child = devcol::sequence<std::int64_t>(10);
  auto const list = devcol::make_list_column({0, 4, 10}, child);
  std::size_t const live = leaks.live();
  devcol::any_column<> a = list;
  devcol::any_column<> b = a;
  CHECK(leaks.live() == live);  // no device memory: the children's heap cells hold shared handles
  auto const& la = devcol::get<devcol::list_column>(a);
  auto const& lb = devcol::get<devcol::list_column>(b);
  CHECK(devcol::get<devcol::column<std::int64_t>>(la.child()).data(devcol::access::read) ==
        devcol::get<devcol::column<std::int64_t>>(lb.child()).data(devcol::access::read));
  // An exposed child is copied when the list is copied (alias(): the list holds the exposed memory itself).
  (void)child.expose();
  auto const exposed = devcol::make_list_column({0, 10}, child.alias());
  CHECK(exposed.is_exposed());
  devcol::list_column const copied = exposed;
  CHECK(devcol::get<devcol::column<std::int64_t>>(copied.child()).data(devcol::access::read) !=
        devcol::get<devcol::column<std::int64_t>>(exposed.child()).data(devcol::access::read));
}

TEST_CASE("nested factories refuse bad input, naming the value", "[nested][errors]") {
  devcol_test::leak_check leaks;
  auto const child = devcol::sequence<std::int64_t>(4);
  CHECK_THROWS_WITH(devcol::make_list_column({0, 3, 2}, child), Catch::Contains("offset 2 at 2 is less than offset 3"));
  CHECK_THROWS_WITH(devcol::make_list_column({-1, 3}, child), Catch::Contains("the first offset is -1"));
  CHECK_THROWS_WITH(devcol::make_list_column({0, 5}, child), Catch::Contains("the last offset 5 is past the child's 4 rows"));
  CHECK_THROWS_WITH(devcol::make_list_column({0, 1}, child, {true, false}), Catch::Contains("2 validity flags for 1 rows"));
  CHECK_THROWS_WITH(devcol::make_struct_column({{"a", child}, {"b", devcol::sequence<std::int32_t>(3)}}),
                    Catch::Contains("field 'b' has 3 rows, field 'a' 4"));
  CHECK_THROWS_WITH(devcol::make_list_column({0, 1}, child).slice(1, 3), Catch::Contains("[1, 3) is not within the 1 rows"));
  auto const st = devcol::make_struct_column({{"a", child}});
  CHECK_THROWS_WITH(st.child("zz"), Catch::Contains("no field named 'zz'"));
  CHECK_THROWS_WITH(st.child(3), Catch::Contains("field index 3 is out of range for 1 fields"));
  auto const repeated = devcol::make_struct_column({{"a", child}, {"b", child}, {"a", devcol::sequence<std::int64_t>(4, 10)}});
  CHECK_THROWS_WITH(repeated.child("a"), Catch::Contains("2 fields are named 'a': name one by its index"));
  CHECK_THROWS_WITH(repeated.field("a"), Catch::Contains("2 fields are named 'a': name one by its index"));
  CHECK(repeated.name(2) == "a");
  CHECK(devcol::to_host(devcol::get<devcol::column<std::int64_t>>(repeated.child(2))) ==
        std::vector<std::optional<std::int64_t>>{10, 11, 12, 13});
  CHECK(devcol::size(repeated.child("b")) == 4);
}

TEST_CASE("a table holds every column kind, get<kind> by name names both types when wrong", "[nested][table]") {
  devcol_test::leak_check leaks;
  devcol::table t;
  t.add("id", devcol::sequence<std::int64_t>(3))
      .add("s", devcol::make_strings_column({"a", std::nullopt, "c"}))
      .add("l", devcol::make_list_column({0, 1, 1, 3}, devcol::make_column<double>({1.0, 2.0, 3.0})))
      .add("st", devcol::make_struct_column({{"x", devcol::sequence<std::int32_t>(3)}}))
      .add("d", devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 0, 1}),
                                               devcol::make_strings_column({"p", "q"})));
  CHECK(t.num_columns() == 5);
  CHECK(t.get<devcol::strings_column>("s").null_count() == 1);
  CHECK(t.get<devcol::list_column>(2).size() == 3);
  CHECK(t.get<devcol::struct_column<>>("st").name(0) == "x");
  CHECK(t.get<devcol::dictionary_column<>>("d").size() == 3);
  CHECK(t.get<std::int64_t>("id").size() == 3);
  CHECK(t.format("l") == "+l");
  CHECK(t.format("id") == "l");
  CHECK(t.type_name("l") == "list<float64>");
  CHECK_THROWS_WITH(t.get<devcol::strings_column>("l"), Catch::Contains("column 'l' holds list<float64>, not string"));
  CHECK_THROWS_WITH(t.get<double>("s"), Catch::Contains("column 's' holds string, not float64"));
  CHECK_THROWS_WITH(t.get<devcol::list_column>("id"), Catch::Contains("column 'id' holds int64, not list"));
  CHECK_THROWS_WITH(t.add("bad", devcol::make_list_column({0, 1}, devcol::sequence<std::int8_t>(1))),
                    Catch::Contains("column 'bad' has 1 rows, the table 3"));
}

}  // namespace devcol_test::nested

TEST_CASE("the kind registry names every kind of any_column, and devcol::visit reaches each", "[nested][kind]") {
  devcol_test::leak_check leaks;
  using devcol::kind;
  std::vector<std::pair<devcol::any_column<>, kind>> const columns{
      {devcol::make_column<std::int64_t>({1, std::nullopt}), kind::fixed_width},
      {devcol::make_strings_column({"a", std::nullopt}), kind::strings},
      {devcol::make_decimal_column<std::int64_t>(std::vector<std::optional<std::int64_t>>{12, std::nullopt}, 5, 2),
       kind::decimal},
      {devcol::make_fixed_size_binary_column({"ab", std::nullopt}, 2), kind::fixed_size_binary},
      {devcol::make_list_column({0, 1, 1}, devcol::make_column<std::int8_t>({7}), {true, false}), kind::list},
      {devcol::make_struct_column({{"x", devcol::make_column<double>({0.5, std::nullopt})}}), kind::structure},
      {devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, std::nullopt}),
                                      devcol::make_strings_column({"v"})),
       kind::dictionary},
  };
  for (auto const& [col, expected] : columns) {
    INFO(devcol::type_name(col));
    auto const [k, name, nested, rows] = devcol::visit(
        [](auto const& c) {
          using traits = devcol::kind_traits<std::decay_t<decltype(c)>>;
          return std::tuple{devcol::kind_of<decltype(c)>, std::string(traits::name), traits::nested, c.size()};
        },
        col);
    CHECK(k == expected);
    CHECK(rows == 2);
    CHECK(nested == (k == kind::list || k == kind::structure || k == kind::dictionary));
    // The registry's name is the family: the start of the full type name.
    CHECK(devcol::type_name(col).rfind(name, 0) == 0);
  }
  STATIC_REQUIRE(devcol::kind_traits<devcol::large_strings_column>::name == "large_string");
  STATIC_REQUIRE(devcol::kind_traits<devcol::column<double>>::name == "float64");
  STATIC_REQUIRE(devcol::of_kind<devcol::list_column const&, kind::list>);
  STATIC_REQUIRE(!devcol::of_kind<int, kind::fixed_width>);
}
