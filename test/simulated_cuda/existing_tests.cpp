// The host suite's sources that exercise streams, events, resources, buffers, copy-on-write,
// columns, a few ops and interop, built once more for the CUDA backend over the simulated runtime
// (one unity translation unit, as the CUDA builds of the tests are): each case is then also a
// check of its stream order.
#include "../core/test_core.cpp"
#include "../memory/test_resources.cpp"
#include "../memory/test_pool.cpp"
#include "../memory/test_default_resource.cpp"
#include "../buffer/test_copy_on_write.cpp"
#include "../buffer/test_strings_cow.cpp"
#include "../column/test_column.cpp"
#include "../column/test_strings.cpp"
#include "../ops/test_elementwise.cpp"
#include "../ops/test_selection.cpp"
#include "../interop/test_arrow.cpp"
#include "../interop/test_arrow_run_end_encoded.cpp"
#include "../interop/test_arrow_stream.cpp"
#include "../interop/test_dlpack.cpp"
