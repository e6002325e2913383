// Arrow map ("+m"): a list column that is a map (list of a struct of keys and values), its ops (a map
// stays a map), zero-copy Arrow both ways with the keys-sorted flag kept, and bad input refused.
#include "interop_support.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::map {

using devcol_test::interop::arrow_error_of;
using devcol_test::interop::exported;
using lc = devcol::list_column;  // a map is a list column that says so

/// `rows` maps string -> int32: row r holds r % 3 entries ("k<r>_<j>" -> 100 r + j, value null when
/// j == 1), null when r % 7 == 3.
inline lc maps(std::size_t rows) {
  std::vector<std::int32_t> offsets{0};
  std::vector<std::optional<std::string>> keys;
  std::vector<std::optional<std::int32_t>> values;
  std::vector<bool> valid;
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t j = 0; j < r % 3; ++j) {
      keys.emplace_back("k" + std::to_string(r) + "_" + std::to_string(j));
      values.emplace_back(j == 1 ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(100 * r + j)));
    }
    offsets.push_back(static_cast<std::int32_t>(keys.size()));
    valid.push_back(r % 7 != 3);
  }
  auto entries = devcol::make_struct_column<>({{"key", devcol::any_column<>(devcol::make_strings_column(keys))},
                                              {"value", devcol::any_column<>(devcol::make_column<std::int32_t>(values))}});
  return devcol::make_list_column(offsets, devcol::any_column<>(std::move(entries)), valid).as_map();
}

}  // namespace devcol_test::map

using namespace devcol_test::map;  // NOLINT: test brevity
using devcol_test::interop::check_concatenate_of_slices;
using devcol_test::interop::check_filter_of_thirds;
using devcol_test::interop::host_text;

TEST_CASE("map: a list column of key-value structs, sliced at odd offsets, its type and format",
          "[map]") {
  devcol_test::leak_check leaks;
  auto const whole = maps(30);
  CHECK(whole.is_map());
  CHECK(whole.type_name() == "map<string, int32>");
  CHECK(whole.arrow_format() == "+m");
  CHECK(devcol::kind_of<lc> == devcol::kind::list);
  auto const col = whole.slice(13, 27);
  CHECK(col.is_map());
  CHECK(col.deep_copy().is_map());
  CHECK(col.alias().is_map());
  CHECK(host_text(col.deep_copy()) == host_text(col));
  CHECK(!std::move(lc(col)).as_map(false).is_map());
  // what a map is not
  auto ints = devcol::any_column<>(devcol::make_column<std::int32_t>({1, 2}));
  CHECK_THROWS_WITH(devcol::make_list_column(std::vector<std::int32_t>{0, 2}, ints).as_map(),
                    Catch::Contains("a map's child is a struct of 2 fields (keys and values), not int32"));
  auto null_keys = devcol::make_struct_column<>({{"key", devcol::any_column<>(devcol::make_column<std::int32_t>({1, std::nullopt}))},
                                                {"value", ints}});
  CHECK_THROWS_WITH(devcol::make_list_column(std::vector<std::int32_t>{0, 2}, devcol::any_column<>(null_keys)).as_map(),
                    Catch::Contains("a map's keys are never null; 1 of 2 key rows are"));
  auto pairs = devcol::make_struct_column<>({{"key", ints}, {"value", ints}});
  CHECK_THROWS_WITH(devcol::make_large_list_column(std::vector<std::int64_t>{0, 2}, devcol::any_column<>(pairs)).as_map(),
                    Catch::Contains("a map has 32-bit offsets"));
}

TEST_CASE("map: gather, filter, concatenate and null masks keep the map", "[map][ops]") {
  devcol_test::leak_check leaks;
  auto const col = maps(30).slice(13, 27);
  auto const rows = host_text(col);
  auto const g = devcol::gather(col, devcol::make_column<std::int32_t>({13, std::nullopt, 1, 0, 3}));
  CHECK(g.is_map());
  CHECK(host_text(g) == std::vector<std::string>{rows[13], "null", rows[1], rows[0], rows[3]});
  CHECK(check_filter_of_thirds(col, rows).is_map());
  CHECK(check_concatenate_of_slices(col, rows).is_map());
  auto const plain = std::move(lc(col)).as_map(false);
  CHECK_THROWS_WITH(devcol::concatenate(std::vector<lc>{col, plain}),
                    Catch::Contains("concatenate: a list<struct<key: string, value: int32>> column after a "
                                    "map<string, int32> column"));
  auto const nulls = devcol::to_host(devcol::is_null(col));
  for (std::size_t i = 0; i < rows.size(); ++i) { CHECK(*nulls[i] == (rows[i] == "null")); }
  devcol::any_column<> const any(col);
  CHECK(devcol::type_name(devcol::gather(any, devcol::make_column<std::int32_t>({2}))) == "map<string, int32>");
}

TEST_CASE("arrow map: devcol -> Arrow -> devcol at an odd offset, zero-copy, keys sorted kept, bad input refused",
          "[map][arrow]") {
  devcol_test::leak_check leaks;
  auto const col = maps(30).slice(13, 27);
  {
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    CHECK(std::string(e.schema.format) == "+m");
    REQUIRE(e.schema.n_children == 1);
    ArrowSchema const& entries = *e.schema.children[0];
    CHECK(std::string(entries.name) == "entries");
    CHECK(entries.flags == 0);
    CHECK(std::string(entries.children[0]->name) == "key");
    CHECK(entries.children[0]->flags == 0);
    CHECK(entries.children[1]->flags == ARROW_FLAG_NULLABLE);
    CHECK(e.array.array.offset == 13);
    auto const back = devcol::from_arrow<lc>(&e.schema, &e.array);
    CHECK(back.is_map());
    CHECK(back.offset() == 13);
    CHECK(back.is_borrowed());
    CHECK(host_text(back) == host_text(col));
  }
  {  // through a table: the keys-sorted flag is the field's, and comes back
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.schema.flags |= ARROW_FLAG_MAP_KEYS_SORTED;
    devcol::field_info info;
    auto const any = devcol::any_from_arrow(&e.schema, &e.array, {}, &info);
    CHECK(info.keys_sorted);
    REQUIRE(devcol::holds_alternative<lc>(any));
    CHECK(devcol::get<lc>(any).is_map());
    exported again;
    devcol::to_arrow(any, &again.schema, &again.array, {}, info);
    CHECK(std::string(again.schema.format) == "+m");
    CHECK((again.schema.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
  }
  {  // entries that are not a struct of two fields
    exported e;
    devcol::to_arrow(col, &e.schema, &e.array);
    e.schema.children[0]->n_children = 1;
    e.array.array.children[0]->n_children = 1;
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("array.children[0].n_children is 1, a map's entries struct has 2"));
  }
  {  // null keys
    auto keys = devcol::any_column<>(devcol::make_column<std::int32_t>({1, std::nullopt, 3}));
    auto entries = devcol::make_struct_column<>({{"key", keys}, {"value", keys}});
    auto plain = devcol::make_list_column(std::vector<std::int32_t>{0, 1, 3}, devcol::any_column<>(entries));
    exported e;
    devcol::to_arrow(plain, &e.schema, &e.array);
    e.schema.format = "+m";
    CHECK_THAT(arrow_error_of([&] { (void)devcol::any_from_arrow(&e.schema, &e.array); }),
               Catch::Contains("(the keys) holds 1 null rows of 3: a map's keys are never null"));
  }
}
