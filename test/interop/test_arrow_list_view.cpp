// Arrow list view and large list view ("+vl", "+vL"): rows naming child rows in any order,
// overlapping, at odd offsets; ops that keep the view (a gathered view shares its child); zero-copy
// Arrow both ways; bad offsets and sizes refused naming the row.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::list_view {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;

/// `rows` views over a child of 10 int64 (10 k, k = 0..9; element 3 null): row r starts at
/// (7 r) % 10, holds r % 4 elements clipped to the child (overlapping, out of order), null when
/// r % 5 == 3.
template <class O>
devcol::basic_list_view_column<O> views(std::size_t rows) {
  std::vector<O> offsets, sizes;
  std::vector<bool> valid;
  for (std::size_t r = 0; r < rows; ++r) {
    auto const start = static_cast<O>((7 * r) % 10);
    offsets.push_back(start);
    sizes.push_back(static_cast<O>(std::min<std::size_t>(r % 4, 10 - static_cast<std::size_t>(start))));
    valid.push_back(r % 5 != 3);
  }
  std::vector<std::optional<std::int64_t>> child;
  for (std::int64_t k = 0; k < 10; ++k) { child.push_back(k == 3 ? std::nullopt : std::optional(10 * k)); }
  return devcol::make_list_view_column<O>(offsets, sizes, devcol::any_column<>(devcol::make_column<std::int64_t>(child)),
                                          valid);
}

/// The address of a view's child values (the child is an int64 column).
template <class C>
void const* child_data(C const& col) {
  return devcol::get<devcol::column<std::int64_t>>(col.child()).data_buffer().data(devcol::access::read);
}

}  // namespace devcol_test::list_view

using namespace devcol_test::list_view;  // NOLINT: test brevity
using devcol_test::interop::check_filter_of_thirds;
using devcol_test::interop::host_text;

TEMPLATE_TEST_CASE("list view: rows in any order and overlapping, sliced at odd offsets, the kind in the registry",
                   "[list_view]", std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  using lv = devcol::basic_list_view_column<TestType>;
  STATIC_REQUIRE(devcol::kind_of<lv> == devcol::kind::list_view);
  STATIC_REQUIRE(devcol::kind_traits<lv>::nested);
  auto const whole = views<TestType>(40);
  CHECK(whole.type_name() == (sizeof(TestType) == 4 ? "list_view<int64>" : "large_list_view<int64>"));
  CHECK(whole.arrow_format() == (sizeof(TestType) == 4 ? "+vl" : "+vL"));
  auto const col = whole.slice(13, 33);
  CHECK(col.offset() == 13);
  auto const rows = host_text(col);
  REQUIRE(rows.size() == 20);
  CHECK(rows[0] == "null");               // row 13
  CHECK(rows[1] == "[80, 90]");           // row 14: start 8, 2 elements
  CHECK(rows[2] == "[50, 60, 70]");       // row 15: start 5, 3 elements
  CHECK(rows[6] == "[null, 40, 50]");     // row 19: start 3, overlapping row 15
  CHECK(rows[3] == "[]");                 // row 16
  CHECK(rows[4] == "[90]");               // row 17: start 9, 1 element
  auto const copy = col.deep_copy();
  CHECK(copy.offset() == 0);
  CHECK(host_text(copy) == rows);
  CHECK_THROWS_WITH(devcol::make_list_view_column<TestType>({0, 4}, {1, 7},
                                                            devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2}))),
                    Catch::Contains("row 1 (offset 4, size 7) is not within the child's 2 rows"));
}

TEMPLATE_TEST_CASE("list view: gather and filter keep the view and share the child, concatenate moves offsets",
                   "[list_view][ops]", std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  using lv = devcol::basic_list_view_column<TestType>;
  auto const col = views<TestType>(40).slice(13, 33);
  auto const rows = host_text(col);
  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({19, std::nullopt, 2, 0, 2}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, lv>);
  CHECK(host_text(g) == std::vector<std::string>{rows[19], "null", rows[2], "null", rows[2]});
  CHECK(child_data(g) == child_data(col));  // a gathered view stays a view: no child copy
  CHECK_THROWS_WITH(devcol::gather(col, devcol::make_column<std::int32_t>({20})), Catch::Contains("index 20 at row 0"));
  CHECK(child_data(check_filter_of_thirds(col, rows)) == child_data(col));
  auto const c = devcol::concatenate(std::vector<lv>{col.slice(1, 4), g, col.slice(9, 14)});
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(c)>, lv>);
  std::vector<std::string> all(rows.begin() + 1, rows.begin() + 4);
  for (auto const& r : host_text(g)) { all.push_back(r); }
  all.insert(all.end(), rows.begin() + 9, rows.begin() + 14);
  CHECK(host_text(c) == all);
  CHECK(devcol::size(c.child()) == 30);
  auto const nulls = devcol::to_host(devcol::is_null(col));
  for (std::size_t i = 0; i < rows.size(); ++i) { CHECK(*nulls[i] == (rows[i] == "null")); }
  devcol::any_column<> const any(col);
  CHECK(devcol::arrow_format(devcol::gather(any, devcol::make_column<std::int32_t>({2}))) == col.arrow_format());
}

TEMPLATE_TEST_CASE("arrow list view: devcol -> Arrow -> devcol at an odd offset, zero-copy, and bad input refused",
                   "[list_view][arrow]", std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  using lv = devcol::basic_list_view_column<TestType>;
  auto const col = views<TestType>(40).slice(13, 33);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == (sizeof(TestType) == 4 ? "+vl" : "+vL"));
    CHECK(e.array.array.n_buffers == 3);
    CHECK(e.array.array.offset == 13);
    CHECK(e.array.array.buffers[1] == col.offsets_buffer().data(devcol::access::read));
    auto const back = devcol::from_arrow<lv>(&e.schema, &e.array);
    CHECK(back.offset() == 13);
    CHECK(back.is_borrowed());
    CHECK(host_text(back) == host_text(col));
  }
  {
    exported e;
    devcol::to_arrow(devcol::any_column<>(lv{}), &e.schema, &e.array);
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<lv>(any));
    CHECK(devcol::size(any) == 0);
  }
  {  // a valid row past the child: named with its values
    auto const bad = devcol::make_list_view_column<TestType>({0, 1}, {1, 1},
                                                             devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2})));
    exported e;
    devcol::to_arrow(bad, &e.schema, &e.array);
    const_cast<TestType*>(static_cast<TestType const*>(e.array.array.buffers[2]))[1] = 5;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array: row 1 (offset 1, size 5) is not within the child's 2 rows"));
  }
  {  // a null row past the child too: Arrow requires every row within it, and its validation reads them
    auto const bad = devcol::make_list_view_column<TestType>({0, 1, 0}, {1, 1, 2},
                                                             devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2})),
                                                             {true, false, true});
    exported e;
    devcol::to_arrow(bad.slice(1, 3), &e.schema, &e.array);
    const_cast<TestType*>(static_cast<TestType const*>(e.array.array.buffers[1]))[1] = 100000;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array: row 1 (offset 100000, size 1) is not within the child's 2 rows"));
    CHECK_THROWS_WITH(devcol::make_list_view_column<TestType>({0, 100000}, {1, 1},
                                                              devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2})),
                                                              {true, false}),
                      Catch::Contains("row 1 (offset 100000, size 1) is not within the child's 2 rows"));
  }
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.array.array.n_buffers = 2;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.n_buffers is 2, a"));
  }
}
