// The precompiled mode's light Arrow header: a file that exchanges only tables and type-erased
// columns includes arrow_table.hpp, which there declares the library's functions and parses no
// importer or exporter. Its calls must link from devcol::precompiled.
#include <devcol/column/factories.hpp>
#include <devcol/column/table.hpp>
#include <devcol/interop/arrow_table.hpp>

#include <cstdint>
#include <optional>

bool arrow_table_round_trip() {
  devcol::stream s;
  devcol::table t;
  t.add("id", devcol::make_column<std::int64_t>({4, std::nullopt, 6, 7}, s));
  t.add("name", devcol::make_strings_column({"x", std::nullopt, "yz", ""}, s));
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(t, &schema, &array, s);
  devcol::table const back = devcol::table_from_arrow(&schema, &array, s);
  bool ok = back.num_rows() == 4 && back.num_columns() == 2 && back["id"].index() == t["id"].index() &&
            back["name"].index() == t["name"].index();

  devcol::field_info info;
  devcol::to_arrow(back["name"], &schema, &array, s, "renamed");
  devcol::any_column<> const name = devcol::any_from_arrow(&schema, &array, s, &info);
  return ok && info.name == "renamed" && name.index() == t["name"].index() &&
         devcol::size(name) == 4 && devcol::null_count(name) == 1;
}
