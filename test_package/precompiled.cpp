// A consumer of devcol's precompiled mode (CMake: link devcol::precompiled): the Arrow round trip
// of a table, the type-erased column's ops and typed gathers and filters, whose instantiations come
// from the library. Exits 0 when every value comes back as it went.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <vector>

#if !DEVCOL_USE_PRECOMPILED
#  error "this consumer must be compiled with DEVCOL_PRECOMPILED=1 (linking devcol::precompiled sets it)"
#endif

bool arrow_table_round_trip();  // precompiled_arrow_table.cpp

int main() {
  using devcol::host_value;
  devcol::stream s;
  devcol::table t;
  t.add("id", devcol::make_column<std::int64_t>({1, std::nullopt, 3}, s));
  t.add("name", devcol::make_strings_column({"a", "bc", std::nullopt}, s));
  ArrowSchema schema;
  ArrowDeviceArray array;
  devcol::to_arrow(t, &schema, &array, s);
  devcol::table back = devcol::table_from_arrow(&schema, &array, s);

  std::vector<host_value> const ids{1, std::nullopt, 3};
  std::vector<host_value> const names{"a", "bc", std::nullopt};
  bool ok = devcol::to_host_values(back["id"], s) == ids && devcol::to_host_values(back["name"], s) == names;

  auto const picked = devcol::gather(back["name"], devcol::make_column<std::int32_t>({2, 0}, s), s);
  ok = ok && devcol::to_host_values(picked, s) == std::vector<host_value>{std::nullopt, "a"};
  auto const kept = devcol::filter(back["id"], devcol::make_column<bool>({true, false, true}, s), s);
  ok = ok && devcol::to_host_values(kept, s) == std::vector<host_value>{1, 3};
  auto const both = devcol::concatenate(std::vector{kept, devcol::deep_copy(kept, s)}, s);
  ok = ok && devcol::to_host_values(devcol::is_null(both, s), s) == std::vector<host_value>{false, false, false, false};

  // Typed fixed-width ops: their width bodies come from the library too (a timestamp moves as its
  // 8-byte word, as int64 does).
  auto const times = devcol::make_column<devcol::timestamp_ms>(
      {devcol::timestamp_ms{devcol::duration_ms{-5}}, std::nullopt, devcol::timestamp_ms{devcol::duration_ms{7}}}, s);
  auto const picked_times = devcol::gather(times, devcol::make_column<std::int64_t>({2, 1, 0}, s), s);
  auto const kept_times = devcol::filter(picked_times, devcol::make_column<bool>({true, true, false}, s), s);
  ok = ok && devcol::to_host(kept_times, s) ==
                 std::vector<std::optional<devcol::timestamp_ms>>{devcol::timestamp_ms{devcol::duration_ms{7}}, std::nullopt};

  ok = ok && arrow_table_round_trip();

  std::ostringstream printed;
  printed << picked;
  std::printf("precompiled devcol: %s, %s\n", printed.str().c_str(), ok ? "every value back" : "WRONG VALUES");
  return ok ? 0 : 1;
}
