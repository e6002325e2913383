// Must not compile: lists have no comparison, so compare() of two list columns is refused by the
// static_assert of ops/compare.hpp (test/compile_fail/CMakeLists.txt checks its message).
#include <devcol/column/list_column.hpp>
#include <devcol/ops/compare.hpp>

void compare_list_columns(devcol::list_column const& a, devcol::list_column const& b) {
  devcol::compare(a, devcol::cmp::equal, b);
}
