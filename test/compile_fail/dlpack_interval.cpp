// Must not compile: DLPack has no type for an interval (three fields per row), so to_dlpack of one
// is refused by the static_assert of interop/dlpack.hpp (test/compile_fail/CMakeLists.txt checks
// its message).
#include <devcol/column/column.hpp>
#include <devcol/interop/dlpack.hpp>

DLManagedTensorVersioned* export_intervals(devcol::column<devcol::interval_month_day_nano>& col) {
  return devcol::to_dlpack(col);
}
