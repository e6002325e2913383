// Must not compile: reductions are of fixed-width columns only, so sum() of a strings column is
// refused by the static_assert of ops/reduce.hpp (test/compile_fail/CMakeLists.txt checks its message).
#include <devcol/column/strings_column.hpp>
#include <devcol/ops/reduce.hpp>

void sum_a_strings_column(devcol::strings_column const& col) { devcol::sum(col); }
