// A short host program on fixed-width columns: three columns, gather, filter, sort and sum.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <optional>

int main() {
  devcol::stream s;
  auto values = devcol::make_column<std::int64_t>({5, std::nullopt, 3, 9}, s);
  auto rows = devcol::make_column<std::int32_t>({3, 0, 2}, s);
  auto keep = devcol::make_column<bool>({true, false, true, true}, s);
  auto picked = devcol::gather(values, rows, s);
  auto kept = devcol::filter(values, keep, s);
  auto sorted = devcol::sort(kept, devcol::order::ascending, s);
  auto total = devcol::sum(picked, s);
  return total.has_value() && sorted.size() == 3 ? 0 : 1;
}
