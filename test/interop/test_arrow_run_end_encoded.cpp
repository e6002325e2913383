// Arrow run-end encoded ("+r"): run_end_encoded_column, its ops (the kind kept), logical slices at
// odd offsets, zero-copy Arrow both ways, and malformed run ends refused.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::run_end_encoded {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using ree = devcol::run_end_encoded_column<>;

/// 40 rows in runs of 1 to 4 rows (run r is r % 4 + 1 long), value 10 r, null when r % 5 == 2,
/// with run ends of type `E`.
template <class E>
ree runs_of() {
  std::vector<E> ends;
  std::vector<std::optional<std::int64_t>> values;
  std::int64_t end = 0;
  for (std::size_t r = 0; end < 40; ++r) {
    end += static_cast<std::int64_t>(r % 4 + 1);
    if (end > 40) { end = 40; }
    ends.push_back(static_cast<E>(end));
    values.emplace_back(r % 5 == 2 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(10 * r)));
  }
  return devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<E>(ends)),
                                            devcol::any_column<>(devcol::make_column<std::int64_t>(values)));
}

}  // namespace devcol_test::run_end_encoded

using namespace devcol_test::run_end_encoded;  // NOLINT: test brevity
using devcol_test::interop::check_concatenate_of_slices;
using devcol_test::interop::check_filter_of_thirds;
using devcol_test::interop::check_null_masks_and_any_column;
using devcol_test::interop::host_text;

TEMPLATE_TEST_CASE("run-end encoded: logical rows, slices at odd offsets, deep copy, the kind in the registry",
                   "[run_end_encoded]", std::int16_t, std::int32_t, std::int64_t) {
  devcol_test::leak_check leaks;
  STATIC_REQUIRE(devcol::kind_of<ree> == devcol::kind::run_end_encoded);
  STATIC_REQUIRE(devcol::kind_traits<ree>::nested);
  auto const whole = runs_of<TestType>();
  CHECK(whole.size() == 40);
  CHECK(whole.null_count() == 0);  // Arrow's: the parent has no validity
  CHECK(whole.arrow_format() == "+r");
  CHECK(whole.type_name() == "run_end_encoded<run_ends: " + std::string(devcol::type_name_v<TestType>) +
                                 ", values: int64>");
  auto const rows = host_text(whole);
  // runs: [0,1) 0, [1,3) 10, [3,6) null, [6,10) 30, [10,11) 40, [11,13) 50, [13,16) 60, [16,20) null
  CHECK(rows[0] == "0");
  CHECK(rows[2] == "10");
  CHECK(rows[5] == "null");
  CHECK(rows[13] == "60");
  CHECK(rows[19] == "null");
  auto const col = whole.slice(13, 37);
  CHECK(col.offset() == 13);
  CHECK(col.run_count() == whole.run_count());  // the children stay whole
  CHECK(host_text(col) == std::vector<std::string>(rows.begin() + 13, rows.begin() + 37));
  CHECK(col.run_range() == std::pair<std::size_t, std::size_t>{6, col.run_count()});
  auto const copy = col.deep_copy();
  CHECK(copy.offset() == 0);
  CHECK(copy.run_count() == col.run_count() - 6);
  CHECK(host_text(copy) == host_text(col));
  auto const none = col.slice(4, 4);
  CHECK(host_text(none.deep_copy()).empty());

  auto const ints = [](std::vector<TestType> v) { return devcol::run_ends_column<>(devcol::make_column<TestType>(v)); };
  auto const three = devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2, 3}));
  CHECK_THROWS_WITH(devcol::make_run_end_encoded_column(ints({2, 2, 5}), three),
                    Catch::Contains("run end 0 is 2, not below run end 1 (2)"));
  CHECK_THROWS_WITH(devcol::make_run_end_encoded_column(ints({0, 2, 5}), three),
                    Catch::Contains("the first run end is 0, not positive"));
  CHECK_THROWS_WITH(devcol::make_run_end_encoded_column(ints({1, 2, 5, 6}), three),
                    Catch::Contains("3 values for 4 runs"));
}

TEST_CASE("run-end encoded: gather, filter, concatenate and null masks keep the kind", "[run_end_encoded][ops]") {
  devcol_test::leak_check leaks;
  auto const col = runs_of<std::int32_t>().slice(13, 37);
  auto const rows = host_text(col);
  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({23, std::nullopt, 0, 1, 2, 2, 3, 7}));
  STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(g)>, ree>);
  CHECK(host_text(g) == std::vector<std::string>{rows[23], "null", rows[0], rows[1], rows[2], rows[2], rows[3], rows[7]});
  CHECK(g.run_count() <= 8);
  CHECK(g.run_count() == 5);  // rows 0, 1, 2, 2 are one run of the source (run 60), row 3 starts the next
  CHECK(std::holds_alternative<devcol::column<std::int32_t>>(g.run_ends()));
  CHECK_THROWS_WITH(devcol::gather(col, devcol::make_column<std::int32_t>({24})), Catch::Contains("index 24 at row 0"));
  CHECK(host_text(devcol::gather(col, devcol::make_column<std::int32_t>({24}), {}, devcol::out_of_bounds::nullify)) ==
        std::vector<std::string>{"null"});
  CHECK(devcol::gather(col, devcol::make_column<std::int32_t>(std::vector<std::int32_t>{})).size() == 0);

  check_filter_of_thirds(col, rows);
  CHECK(check_concatenate_of_slices(col, rows).offset() == 0);
  CHECK_THROWS_WITH(devcol::concatenate(std::vector<ree>{col, runs_of<std::int16_t>()}),
                    Catch::Contains("run_ends: int16") && Catch::Contains("run_ends: int32"));

  check_null_masks_and_any_column(col, rows);
}

TEST_CASE("arrow run-end encoded: devcol -> Arrow -> devcol at an odd offset, zero-copy", "[run_end_encoded][arrow]") {
  devcol_test::leak_check leaks;
  auto const col = runs_of<std::int64_t>().slice(13, 37);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "+r");
    REQUIRE(e.schema.n_children == 2);
    CHECK(std::string(e.schema.children[0]->name) == "run_ends");
    CHECK(std::string(e.schema.children[0]->format) == "l");
    CHECK((e.schema.children[0]->flags & ARROW_FLAG_NULLABLE) == 0);
    CHECK(std::string(e.schema.children[1]->name) == "values");
    CHECK(e.array.array.n_buffers == 0);
    CHECK(e.array.array.null_count == 0);
    CHECK(e.array.array.offset == 13);
    CHECK(e.array.array.length == 24);
    CHECK(e.array.array.children[0]->length == static_cast<std::int64_t>(col.run_count()));
    CHECK(e.array.array.children[0]->buffers[1] ==
          std::get<devcol::column<std::int64_t>>(col.run_ends()).data(devcol::access::read));  // zero-copy
    auto const back = devcol::from_arrow<ree>(&e.schema, &e.array);
    CHECK(back.offset() == 13);
    CHECK(back.is_borrowed());
    CHECK(host_text(back) == host_text(col));
  }
  {
    exported e;
    devcol::to_arrow(devcol::any_column<>(col), &e.schema, &e.array);
    auto const any = devcol::any_from_arrow(&e.schema, &e.array);
    REQUIRE(devcol::holds_alternative<ree>(any));
    CHECK(host_text(devcol::get<ree>(any)) == host_text(col));
  }
}

TEST_CASE("arrow run-end encoded: malformed arrays are refused naming the value", "[run_end_encoded][arrow]") {
  devcol_test::leak_check leaks;
  auto const values = devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2, 3}));
  auto const refused = [](ree const& col, auto&& spoil) {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    spoil(e);
    return arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); });
  };
  auto const unchecked = [&](std::vector<std::int32_t> ends, std::size_t rows) {  // the constructor trusts them
    return ree(devcol::run_ends_column<>(devcol::make_column<std::int32_t>(ends)), values, rows);
  };
  auto const nothing = [](exported&) {};
  CHECK_THAT(refused(unchecked({2, 2, 5}, 5), nothing),
             Catch::Contains("array.children[0]: run end 0 is 2, not below run end 1 (2)"));
  auto const four = devcol::any_column<>(devcol::make_column<std::int8_t>({1, 2, 3, 4}));
  ree const twice_bad(devcol::run_ends_column<>(devcol::make_column<std::int32_t>({1, 3, 3, 2})), four, 2);
  CHECK_THAT(refused(twice_bad, nothing),  // the first bad place, not a later one
             Catch::Contains("array.children[0]: run end 1 is 3, not below run end 2 (3)"));
  CHECK_THAT(refused(unchecked({0, 2, 5}, 5), nothing), Catch::Contains("array.children[0]: run end 0 is 0, not positive"));
  CHECK_THAT(refused(unchecked({-3, 2, 5}, 5), nothing), Catch::Contains("run end 0 is -3, not positive"));
  auto const good = unchecked({1, 2, 5}, 5);
  CHECK_THAT(refused(good, [](exported& e) { e.array.array.length = 6; }),
             Catch::Contains("the last run end is 5, short of the 6 rows that offset 0 and length 6 name"));
  CHECK_THAT(refused(good.slice(1, 5), [](exported& e) { e.array.array.length = 5; }),
             Catch::Contains("short of the 6 rows that offset 1 and length 5 name"));
  CHECK_THAT(refused(good, [](exported& e) { e.schema.children[0]->format = "c"; }),
             Catch::Contains("array.children[0].format 'c': run ends are int16 ('s'), int32 ('i') or int64 ('l')"));
  CHECK_THAT(refused(good, [](exported& e) { e.array.array.null_count = 2; }),
             Catch::Contains("array.null_count is 2, a run-end encoded array's is 0"));
  CHECK_THAT(refused(good, [](exported& e) { e.array.array.children[1]->length = 2; }),
             Catch::Contains("array.children[1].length is 2, fewer than the 3 runs"));
  CHECK_THAT(refused(good, [](exported& e) { e.array.array.children[0]->length = 0; }),
             Catch::Contains("array.children[0].length is 0 for rows [0, 5)"));
  CHECK_THAT(refused(good, [](exported& e) { e.array.array.n_buffers = 1; }),
             Catch::Contains("array.n_buffers is 1, a run-end encoded array has none"));
  CHECK_THROWS_WITH(ree(devcol::run_ends_column<>(devcol::make_column<std::int32_t>({1, std::nullopt})), values, 1),
                    Catch::Contains("run ends may not be null (1 are)"));
}
