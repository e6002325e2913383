// Must not compile: a float16 is made from its bits or by from_float(). C++20's parenthesised
// aggregate initialisation would otherwise store 1.0f's integer value, 1, as the bits (a
// subnormal near 6e-8); column/types.hpp's static_assert refuses it (test/compile_fail/CMakeLists.txt
// checks its message).
#include <devcol/column/types.hpp>

devcol::float16 one() { return devcol::float16(1.0f); }
