// devcol::size and devcol::null_count answer for every column kind, as for any_column.
#include "../nested_support.hpp"
#include "../support.hpp"

#include <string>
#include <vector>

namespace devcol_test::kind_queries {

template <class C>
void check_size_and_nulls(C const& col, std::size_t rows, std::size_t nulls) {
  CHECK(devcol::size(col) == rows);
  CHECK(devcol::null_count(col) == nulls);
  devcol::any_column<> const erased{col};
  CHECK(devcol::size(erased) == rows);
  CHECK(devcol::null_count(erased) == nulls);
}

TEST_CASE("devcol::size and devcol::null_count work for every kind, not only any_column", "[column][kinds]") {
  check_size_and_nulls(devcol::make_column<std::int64_t>({1, std::nullopt, 3}), 3, 1);
  check_size_and_nulls(devcol::make_strings_column({"a", std::nullopt, std::nullopt, "d"}), 4, 2);
  check_size_and_nulls(devcol::make_decimal_column<std::int64_t>(std::vector<std::optional<std::int64_t>>{125, std::nullopt}, 9, 2), 2, 1);
  check_size_and_nulls(devcol::make_fixed_size_binary_column({"ab", "cd", std::nullopt}, 2), 3, 1);
  auto child = devcol::make_column<std::int32_t>({1, 2, 3});
  check_size_and_nulls(devcol::make_list_column<std::int32_t>({0, 1, 3, 3}, child, {true, true, false}), 3, 1);
  check_size_and_nulls(devcol::make_struct_column({{"x", child}}, {false, true, true}), 3, 1);
  check_size_and_nulls(devcol::make_dictionary_column(devcol::make_column<std::int32_t>({0, std::nullopt, 0, 0}),
                                                      devcol::make_strings_column({"only"})),
                       4, 1);
  // A slice answers for its own rows.
  auto const nullable = devcol::make_column<std::int64_t>({std::nullopt, 2, std::nullopt, 4});
  check_size_and_nulls(nullable.slice(1, 3), 2, 1);
}

}  // namespace devcol_test::kind_queries
