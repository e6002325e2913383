// The devcol_precompiled library (CMake option DEVCOL_PRECOMPILED): the explicit instantiations
// that the headers declare `extern template` where DEVCOL_PRECOMPILED=1 (core/config.hpp). Each
// header's list is the one source of what is instantiated here and skipped in consumers.
#define DEVCOL_PRECOMPILED_INSTANTIATE 1
#include <devcol/devcol.hpp>
