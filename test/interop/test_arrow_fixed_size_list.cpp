// Arrow fixed-size list ("+w:N"): fixed_size_list_column, its ops (the kind kept), slicing and
// Arrow offsets at odd rows, and zero-copy Arrow both ways.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::fixed_size_list {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using fsl = devcol::fixed_size_list_column<>;

/// `rows` lists of 3 int64 (row r: 10 r, 10 r + 1, 10 r + 2; element 1 null when r % 4 == 2), null
/// when r % 5 == 3.
inline fsl triples(std::size_t rows) {
  std::vector<std::optional<std::int64_t>> elements;
  std::vector<bool> valid;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (r % 4 == 2 && k == 1) {
        elements.emplace_back(std::nullopt);
      } else {
        elements.emplace_back(static_cast<std::int64_t>(10 * r + k));
      }
    }
    valid.push_back(r % 5 != 3);
  }
  return devcol::make_fixed_size_list_column(3, devcol::any_column<>(devcol::make_column<std::int64_t>(elements)), valid);
}

}  // namespace devcol_test::fixed_size_list

using namespace devcol_test::fixed_size_list;  // NOLINT: test brevity
using devcol_test::interop::check_concatenate_of_slices;
using devcol_test::interop::check_filter_of_thirds;
using devcol_test::interop::host_text;

TEST_CASE("fixed-size list: rows of one size, slices at odd offsets, the kind in the registry", "[fixed_size_list]") {
  devcol_test::leak_check leaks;
  STATIC_REQUIRE(devcol::kind_of<fsl> == devcol::kind::fixed_size_list);
  STATIC_REQUIRE(devcol::kind_traits<fsl>::nested);
  auto const whole = triples(20);
  CHECK(whole.type_name() == "fixed_size_list<int64>[3]");
  CHECK(whole.arrow_format() == "+w:3");
  auto const col = whole.slice(3, 17);
  CHECK(col.offset() == 3);
  CHECK(col.child_range() == std::pair<std::size_t, std::size_t>{9, 51});
  auto const rows = host_text(col);
  REQUIRE(rows.size() == 14);
  CHECK(rows[0] == "null");                // row 3
  CHECK(rows[1] == "[40, 41, 42]");        // row 4
  CHECK(rows[3] == "[60, null, 62]");      // row 6
  auto const copy = col.deep_copy();
  CHECK(copy.offset() == 0);
  CHECK(devcol::size(copy.child()) == 42);
  CHECK(host_text(copy) == rows);
  CHECK_THROWS_WITH(devcol::make_fixed_size_list_column(4, devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2, 3}))),
                    Catch::Contains("a child of 3 rows is not a whole number of lists of 4"));
  CHECK_THROWS_WITH(fsl(3, devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2, 3})), {}, 2, 0),
                    Catch::Contains("a child of 3 rows cannot hold the lists of size 3 of rows [0, 2)"));
}

TEST_CASE("fixed-size list: gather, filter, concatenate and null masks keep the kind and the list size",
          "[fixed_size_list][ops]") {
  devcol_test::leak_check leaks;
  auto const col = triples(20).slice(3, 17);
  auto const rows = host_text(col);
  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({13, std::nullopt, 1, 0, 3}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, fsl>);
  CHECK(g.list_size() == 3);
  CHECK(host_text(g) == std::vector<std::string>{rows[13], "null", rows[1], "null", rows[3]});
  CHECK_THROWS_WITH(devcol::gather(col, devcol::make_column<std::int32_t>({14})), Catch::Contains("index 14 at row 0"));
  CHECK(host_text(devcol::gather(col, devcol::make_column<std::int32_t>({14}), {}, devcol::out_of_bounds::nullify)) ==
        std::vector<std::string>{"null"});

  CHECK(check_filter_of_thirds(col, rows).list_size() == 3);
  CHECK(check_concatenate_of_slices(col, rows).list_size() == 3);
  auto const other = devcol::make_fixed_size_list_column(2, devcol::any_column<>(devcol::make_column<std::int64_t>({1, 2})));
  CHECK_THROWS_WITH(devcol::concatenate(std::vector<fsl>{col, other}),
                    Catch::Contains("fixed_size_list<int64>[2]") && Catch::Contains("fixed_size_list<int64>[3]"));

  auto const nulls = devcol::to_host(devcol::is_null(col));
  for (std::size_t i = 0; i < rows.size(); ++i) { CHECK(*nulls[i] == (rows[i] == "null")); }
  devcol::any_column<> const any(col);
  CHECK(devcol::type_name(devcol::gather(any, devcol::make_column<std::int32_t>({2}))) == "fixed_size_list<int64>[3]");
}

TEST_CASE("arrow fixed-size list: devcol -> Arrow -> devcol at an odd offset, zero-copy, and bad input refused",
          "[fixed_size_list][arrow]") {
  devcol_test::leak_check leaks;
  auto const col = triples(20).slice(3, 17);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "+w:3");
    CHECK(std::string(e.schema.children[0]->name) == "item");
    CHECK(e.array.array.n_buffers == 1);
    CHECK(e.array.array.offset == 3);
    CHECK(e.array.array.children[0]->length == 60);  // the whole child: the offset counts lists of it
    auto const back = devcol::from_arrow<fsl>(&e.schema, &e.array);
    CHECK(back.offset() == 3);
    CHECK(back.is_borrowed());
    CHECK(host_text(back) == host_text(col));
  }
  {
    exported e;
    devcol::to_arrow(devcol::any_column<>(col), &e.schema, &e.array);
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<fsl>(any));
    CHECK(host_text(devcol::get<fsl>(any)) == host_text(col));
  }
  {  // a child too short for the lists the offset and length name
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.array.array.length = 18;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.children[0].length is 60, fewer than the 21 lists of 3"));
  }
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.schema.format = "+w:x";
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("the list size 'x' is not a decimal integer"));
  }
}
