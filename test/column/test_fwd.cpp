// <devcol/column/fwd.hpp>: the functions fwd_user.hpp declares, defined here with the full
// headers, and called through fwd_only.cpp, which names the kinds from that header alone; and the
// header's defaults and aliases, which name the same types as the kinds' own headers.
#include "fwd_user.hpp"

#include "../support.hpp"

#include <devcol/devcol.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace devcol_test::fwd {

std::size_t rows_of(devcol::column<std::int64_t> const& col) { return col.size(); }
std::size_t rows_of(devcol::column<devcol::timestamp_ns> const& col) { return col.size(); }
std::size_t rows_of(devcol::strings_column const& col) { return col.size(); }
std::size_t rows_of(devcol::large_binary_column const& col) { return col.size(); }
std::size_t rows_of(devcol::decimal128_column const& col) { return col.size(); }
std::size_t rows_of(devcol::fixed_size_binary_column<> const& col) { return col.size(); }
std::size_t rows_of(devcol::null_column<> const& col) { return col.size(); }
std::size_t rows_of(devcol::string_view_column const& col) { return col.size(); }
std::size_t rows_of(devcol::list_column const& col) { return col.size(); }
std::size_t rows_of(devcol::struct_column<> const& col) { return col.size(); }
std::size_t rows_of(devcol::dictionary_column<> const& col) { return col.size(); }
std::size_t rows_of(devcol::fixed_size_list_column<> const& col) { return col.size(); }
std::size_t rows_of(devcol::run_end_encoded_column<devcol::default_policy> const& col) { return col.size(); }
std::size_t rows_of(devcol::large_list_view_column const& col) { return col.size(); }
std::size_t rows_of(devcol::union_column<devcol::default_policy> const& col) { return col.size(); }
std::size_t rows_of(devcol::any_column<> const& col) { return devcol::size(col); }
devcol::table with_column(devcol::table const& t, std::string const& name, devcol::any_column<> const& col) {
  devcol::table out = t;
  out.add_any(name, col);
  return out;
}

// The declarations' defaults and aliases are the ones the kinds are used with everywhere.
static_assert(std::is_same_v<devcol::column<double>, devcol::column<double, devcol::default_policy>>);
static_assert(std::is_same_v<devcol::strings_column,
                             devcol::basic_strings_column<std::int32_t, devcol::default_policy, devcol::encoding::utf8>>);
static_assert(std::is_same_v<devcol::large_binary_column,
                             devcol::basic_strings_column<std::int64_t, devcol::default_policy, devcol::encoding::binary>>);
static_assert(std::is_same_v<devcol::string_view_column,
                             devcol::basic_binary_view_column<devcol::default_policy, devcol::encoding::utf8>>);
static_assert(std::is_same_v<devcol::large_list_view_column, devcol::basic_list_view_column<std::int64_t, devcol::default_policy>>);
static_assert(std::is_same_v<devcol::run_end_encoded_column<>, devcol::run_end_encoded_column<devcol::default_policy>>);
static_assert(std::is_same_v<devcol::union_column<>, devcol::union_column<devcol::default_policy>>);
static_assert(std::is_same_v<devcol::table, devcol::basic_table<devcol::default_policy>>);
static_assert(std::is_same_v<devcol::decimal128_column, devcol::decimal_column<devcol::int128_t, devcol::default_policy>>);
static_assert(std::is_same_v<decltype(devcol::make_strings_column({"a"})), devcol::strings_column>);

TEST_CASE("A file that includes only devcol/column/fwd.hpp passes every kind on, and a table back",
          "[column][fwd]") {
  auto const int64s = devcol::make_column<std::int64_t>({1, std::nullopt, 3});
  auto const timestamps = devcol::make_column<devcol::timestamp_ns>({devcol::timestamp_ns{devcol::duration_ns{5}}});
  auto const strings = devcol::make_strings_column({"a", std::nullopt});
  auto const large_binary = devcol::make_binary_column<std::int64_t>({"x", "yz", std::nullopt, "w"});
  auto const decimals = devcol::make_decimal_column<devcol::int128_t>(
      std::vector<std::optional<devcol::int128_t>>{125, std::nullopt, 7, 8, 9}, 20, 2);
  auto const fixed_size_binary = devcol::make_fixed_size_binary_column({"ab", std::nullopt}, 2);
  devcol::null_column<> const nulls(7);
  auto const string_views = devcol::make_binary_view_column(std::vector<std::optional<std::string>>{"short", "a row longer than twelve bytes", std::nullopt});
  auto const ints = devcol::any_column<>(devcol::make_column<std::int32_t>({1, 2, 3, 4}));
  auto const lists = devcol::make_list_column<std::int32_t>({0, 1, 3, 3, 4}, ints);
  auto const structs = devcol::make_struct_column({{"x", ints}});
  auto const dictionary = devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, 0, std::nullopt}),
                                                         devcol::make_strings_column({"only"}));
  auto const fixed_size_lists = devcol::make_fixed_size_list_column(2, ints);
  auto const run_end_encoded =
      devcol::make_run_end_encoded_column(devcol::run_ends_column<>(devcol::make_column<std::int32_t>({2, 6})),
                                          devcol::any_column<>(devcol::make_column<std::int64_t>({10, 20})));
  auto const list_views = devcol::make_list_view_column<std::int64_t>({3, 0}, {1, 2}, ints);
  auto const unions = devcol::make_union_column(devcol::union_mode::sparse, {5}, {{"i", ints}}, {5, 5, 5, 5});

  every_kind const all{&int64s,  &timestamps, &strings,   &large_binary,     &decimals,         &fixed_size_binary,
                       &nulls,   &string_views, &lists,   &structs,          &dictionary,       &fixed_size_lists,
                       &run_end_encoded, &list_views, &unions};
  // 3 + 1 + 2 + 4 + 5 + 2 + 7 + 3 + 4 + 4 + 3 + 2 + 6 + 2 + 4 rows
  CHECK(total_rows(all) == 52);

  devcol::table const empty;
  devcol::table const one = with_column(empty, "lists", devcol::any_column<>(lists));
  CHECK(one.num_columns() == 1);
  CHECK(one.num_rows() == 4);
}

}  // namespace devcol_test::fwd
