// One int64 column in a table, exported with to_arrow and read back with table_from_arrow.
#include <devcol/devcol.hpp>

#include <cstdint>

int main() {
  devcol::stream s;
  devcol::table t;
  t.add("a", devcol::make_column<std::int64_t>({1, 2, 3}, s));
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(t, &schema, &array, s);
  auto back = devcol::table_from_arrow(&schema, &array, s);
  return back.num_rows() == 3 ? 0 : 1;
}
