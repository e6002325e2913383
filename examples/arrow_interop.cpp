// Exporting a table through the Arrow C Device Data Interface and reading it back: no copies, and
// the producer's memory handed back exactly once, when the last column over it goes.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <iostream>

namespace arrow_interop_example {
// Counts the calls of the exported array's release, then makes the call devcol's export expects.
int releases = 0;
void (*exported_release)(ArrowArray*) = nullptr;
void counting_release(ArrowArray* array) {
  ++releases;
  exported_release(array);
}
}  // namespace arrow_interop_example

int main() {
  namespace ex = arrow_interop_example;
  devcol::stream s;
  devcol::table trades;
  trades.add("id", devcol::sequence<std::int64_t>(6, 100, 1, s));
  trades.add("price", devcol::make_column<double>({10.5, 11.0, std::nullopt, 9.75, 10.0, 12.25}, s));

  // Any Arrow consumer (pyarrow, Arrow C++, libcudf, nanoarrow) can take these two structs.
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(trades, &schema, &array, s);
  std::cout << "exported a '" << schema.format << "' of " << array.array.length << " rows, "
            << array.array.n_children << " columns, on Arrow device type " << array.device_type << '\n';
  ex::exported_release = array.array.release;
  array.array.release = &ex::counting_release;

  // Writing through devcol now copies first: the exported memory stays as it was exported.
  auto ids = trades.get<std::int64_t>("id");
  void const* exported_ids = array.array.children[0]->buffers[1];
  bool const shared = ids.data(devcol::access::read) == exported_ids;
  devcol::fill(ids, std::int64_t{0}, s);
  std::int64_t first_exported = 0;
  devcol::copy_bytes(&first_exported, exported_ids, sizeof first_exported, s);
  s.synchronize();
  bool const kept = ids.data(devcol::access::read) != exported_ids && first_exported == 100;

  {
    // Reading it back takes ownership: the columns borrow the exported memory (zero-copy).
    devcol::table back = devcol::table_from_arrow(&schema, &array, s);
    auto const& price = back.get<double>("price");
    std::cout << "read back: price = " << price << " (" << price.null_count() << " null), zero-copy: "
              << std::boolalpha << (price.data(devcol::access::read) == trades.get<double>("price").data(devcol::access::read))
              << ", export shared the ids: " << shared << ", a write to them copied first: " << kept << '\n';
    if (back.num_rows() != 6 || price.null_count() != 1) { return 1; }
    std::cout << "released while the columns live: " << ex::releases << " time(s)\n";
  }
  std::cout << "released once the last column went: " << ex::releases << " time(s)\n";
  return shared && kept && ex::releases == 1 ? 0 : 1;
}
