// The body of the table/Arrow programs (table_arrow.cpp and table_arrow_headers.cpp), which differ
// only in what they include: one int64 column in a table, exported with to_arrow and read back
// with table_from_arrow.
#pragma once

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
