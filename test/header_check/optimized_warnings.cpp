// Compiled, not run: the host fast paths' ops at -O3 with every warning an error. Inlining at -O3
// shows GCC and clang paths that -O2 and the Debug test build do not (a streamed block read before
// GCC could prove it written; brace elision into a kernel's store mode), and a user who builds with
// -O3 -Werror must not meet them. The calls cover each fast path at each element width.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace {

template <class T>
void every_fast_path(devcol::stream_ref s) {
  auto a = devcol::make_column<T>({T(1), std::nullopt, T(3), T(4)}, s);
  auto b = devcol::make_column<T>({T(2), T(5), std::nullopt, T(1)}, s);
  auto const rows = devcol::make_column<std::int32_t>({3, 0, 2}, s);
  auto const keep = devcol::make_column<bool>({true, false, true, true}, s);
  (void)devcol::gather(a, rows, s);
  (void)devcol::filter(a, keep, s);
  (void)devcol::sort(a, devcol::order::ascending, s);
  (void)devcol::argsort(a, devcol::order::descending, s);
  (void)devcol::sum(a, s);
  (void)devcol::minmax(a, s);
  (void)devcol::inclusive_scan(a, devcol::scan_op::sum, s);
  (void)devcol::compare(a, devcol::cmp::less, b, s);
  (void)devcol::cast<double>(a, s);
  (void)devcol::concatenate(std::vector{a, b}, s);
  (void)devcol::fill_null(a, T(0), s);
}

void strings_fast_paths(devcol::stream_ref s) {
  auto const text = devcol::make_strings_column({"ab", std::nullopt, "", "a longer row than one piece of 32 bytes"});
  auto const rows = devcol::make_column<std::int64_t>({3, 0, 1, 2}, s);
  auto const keep = devcol::make_column<bool>({true, false, true, true}, s);
  (void)devcol::gather(text, rows, s);
  (void)devcol::filter(text, keep, s);
  (void)devcol::sort(text, devcol::order::ascending, s);
}

}  // namespace

void devcol_optimized_warnings(devcol::stream_ref s) {
  strings_fast_paths(s);
  every_fast_path<std::int8_t>(s);
  every_fast_path<std::uint16_t>(s);
  every_fast_path<std::int32_t>(s);
  every_fast_path<std::int64_t>(s);
  every_fast_path<float>(s);
  every_fast_path<double>(s);
}
