// devcol and libcudf handing tables to each other through the Arrow C Device Data Interface, for
// fixed-width, strings, list and struct columns (CUDA and a GPU; needs the libcudf-cu13 wheel):
//   nvcc -std=c++20 -arch=sm_90 -Iinclude $(python3 examples/rapids_flags.py cudf) examples/cudf_handoff.cu -o cudf_handoff
//   ./cudf_handoff
// 1. devcol -> libcudf: devcol::to_arrow, taken by cudf::from_arrow_device as a zero-copy
//    cudf::table_view over devcol's memory, which libcudf then copies into a cudf::table;
// 2. libcudf -> devcol: cudf::to_arrow_device of that table, imported by devcol::table_from_arrow
//    (zero-copy: devcol borrows libcudf's memory and releases it once, when its last column goes).
// The table that comes back must print as the one that left. Exit 0 when every check holds.
#include <devcol/devcol.hpp>

#include <cudf/column/column_view.hpp>
#include <cudf/interop.hpp>
#include <cudf/table/table.hpp>
#include <cudf/table/table_view.hpp>

#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {
int failures = 0;
void expect(bool ok, std::string const& what) {
  std::cout << (ok ? "  ok: " : "  FAILED: ") << what << '\n';
  failures += ok ? 0 : 1;
}
template <class Column>
std::string printed(Column const& col) {
  std::ostringstream out;
  out << col;
  return out.str();
}
}  // namespace

int main() {
  devcol::stream s;
  ::cuda::stream_ref const cudf_stream = s.ref();  // libcudf takes CCCL's stream reference

  // A table of every kind the hand-off covers, nulls included.
  devcol::table trades;
  trades.add("id", devcol::sequence<std::int64_t>(5, 100, 1, s));
  trades.add("price", devcol::make_column<double>({10.5, std::nullopt, 9.75, 10.0, 12.25}, s));
  trades.add("venue", devcol::make_strings_column({"XNYS", "XNAS", std::nullopt, "", "BATS"}, s));
  trades.add("fills", devcol::make_list_column<std::int32_t>(
                          {0, 2, 2, 3, 3, 6}, devcol::make_column<std::int32_t>({1, 2, 3, 4, 5, 6}, s),
                          {true, true, true, false, true}, s));
  trades.add("quote", devcol::make_struct_column({{"bid", devcol::make_column<double>({1.0, 2.0, 3.0, 4.0, 5.0}, s)},
                                                  {"ask", devcol::make_strings_column({"a", "b", "c", "d", "e"}, s)}},
                                                 {true, false, true, true, true}, s));
  std::vector<std::string> before;
  for (std::size_t i = 0; i < trades.num_columns(); ++i) { before.push_back(printed(trades[i])); }

  // 1. devcol -> libcudf.
  std::cout << "1. devcol exports, libcudf imports\n";
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(trades, &schema, &array, s);
  std::unique_ptr<cudf::table> owned;
  {
    cudf::unique_table_view_t view = cudf::from_arrow_device(&schema, &array, cudf_stream);
    expect(view->num_columns() == 5 && view->num_rows() == 5, "cudf::from_arrow_device sees 5 columns of 5 rows");
    expect(view->column(0).head() == array.array.children[0]->buffers[1], "its int64 column is devcol's memory (zero-copy)");
    expect(view->column(1).null_count() == 1 && view->column(2).null_count() == 1, "null counts as devcol's");
    expect(view->column(2).type().id() == cudf::type_id::STRING && view->column(3).type().id() == cudf::type_id::LIST &&
               view->column(4).type().id() == cudf::type_id::STRUCT,
           "strings, list and struct columns keep their types");
    owned = std::make_unique<cudf::table>(*view, cudf_stream);  // libcudf's own copy
  }
  s.synchronize();
  array.array.release(&array.array);  // libcudf's view is gone: hand devcol's export back
  schema.release(&schema);

  // 2. libcudf -> devcol.
  std::cout << "2. libcudf exports, devcol imports\n";
  std::vector<cudf::column_metadata> names{{"id"}, {"price"}, {"venue"}, {"fills"}, {"quote"}};
  names[3].children_meta = {{"offsets"}, {"item"}};
  names[4].children_meta = {{"bid"}, {"ask"}};
  cudf::unique_schema_t cudf_schema = cudf::to_arrow_schema(owned->view(), names);
  void const* cudf_ids = owned->view().column(0).head();
  cudf::unique_device_array_t cudf_array = cudf::to_arrow_device(std::move(*owned), cudf_stream);
  devcol::table back = devcol::table_from_arrow(cudf_schema.get(), cudf_array.get(), s);
  expect(back.num_columns() == 5 && back.num_rows() == 5, "devcol::table_from_arrow reads 5 columns of 5 rows");
  expect(back.get<std::int64_t>("id").data(devcol::access::read) == cudf_ids, "its int64 column is libcudf's memory (zero-copy)");
  for (std::size_t i = 0; i < back.num_columns(); ++i) {
    std::string const now = printed(back[i]);
    expect(back.name(i) == trades.name(i) && now == before[i], back.name(i) + " came back as it left: " + now);
  }
  s.synchronize();
  std::cout << (failures == 0 ? "all held\n" : "some did not hold\n");
  return failures == 0 ? 0 : 1;
}
