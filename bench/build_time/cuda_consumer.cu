// A CUDA consumer as users write one, compiled with plain nvcc: a dozen operations on fixed-width,
// strings and list columns, and a table through Arrow and back.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

int main() {
  devcol::stream s;
  auto a = devcol::make_column<std::int64_t>({4, std::nullopt, 1, 7}, s);
  auto f = devcol::make_column<double>({0.5, -1.0, 2.0, std::nullopt}, s);
  auto idx = devcol::make_column<std::int32_t>({3, 0, 1}, s);
  auto keep = devcol::make_column<bool>({true, false, true, true}, s);
  auto names = devcol::make_strings_column({"x", "yy", std::nullopt, "zzz"}, s);
  auto sorted = devcol::sort(a, devcol::order::ascending, s);
  auto order = devcol::argsort(f, devcol::order::descending, s);
  auto less = devcol::compare(a, devcol::cmp::less, std::int64_t{5}, s);
  auto as_double = devcol::cast<double>(a, s);
  auto picked = devcol::gather(f, idx, s);
  auto kept = devcol::filter(a, keep, s);
  auto running = devcol::inclusive_scan(a, devcol::scan_op::sum, s);
  auto total = devcol::sum(a, s);
  auto some_names = devcol::gather(names, idx, s);
  auto lengths = devcol::length(names, s);
  auto lists = devcol::make_list_column<std::int32_t>({0, 2, 4}, devcol::make_column<std::int64_t>({1, 2, 3, 4}, s),
                                                     {true, false}, s);
  auto list_rows = devcol::filter(lists, devcol::make_column<bool>({true, true}, s), s);
  devcol::table t;
  t.add("a", a).add("names", names);
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(t, &schema, &array, s);
  auto back = devcol::table_from_arrow(&schema, &array, s);
  return back.num_rows() == 4 && total.has_value() && sorted.size() + order.size() + less.size() +
                 as_double.size() + picked.size() + kept.size() + running.size() + some_names.size() +
                 lengths.size() + list_rows.size() != 0
             ? 0
             : 1;
}
