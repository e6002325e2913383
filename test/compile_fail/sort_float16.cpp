// Must not compile: float16 is storage only, without an order, so sort() of a float16 column is
// refused by the static_assert of ops/sort.hpp (test/compile_fail/CMakeLists.txt checks its message).
#include <devcol/column/column.hpp>
#include <devcol/ops/sort.hpp>

void sort_halves(devcol::column<devcol::float16> const& halves) { (void)devcol::sort(halves); }
