// Must not compile: the interval types are storage only, without an order, so min() of an interval
// column is refused by the static_assert of ops/reduce.hpp (test/compile_fail/CMakeLists.txt checks
// its message).
#include <devcol/column/column.hpp>
#include <devcol/ops/reduce.hpp>

void least_interval(devcol::column<devcol::interval_months> const& months) { (void)devcol::min(months); }
