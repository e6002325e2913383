// Must not compile: a struct column has no order, so sort() of one is refused by the static_assert
// of ops/sort.hpp (test/compile_fail/CMakeLists.txt checks its message).
#include <devcol/column/struct_column.hpp>
#include <devcol/ops/sort.hpp>

void sort_a_struct_column(devcol::struct_column<> const& col) { devcol::sort(col); }
