// Spilling under a memory limit: four times more column data than the device may hold, moved to
// host memory and back by the spill manager, least recently used first, every byte intact.
#include <devcol/devcol.hpp>

#include <cstddef>
#include <iostream>
#include <numeric>
#include <vector>

/// Columns whose memory the spill manager may move to the host (chosen at compile time).
struct spilling : devcol::default_policy {
  using spill = devcol::spillable;
};

int main() {
  namespace mr = devcol::mr;
  constexpr std::size_t rows = 1 << 16;  // 512 KiB a column
  constexpr std::size_t limit = 8 * rows * sizeof(double);
  devcol::options::set_spill(true);  // or DEVCOL_SPILL=1 in the environment, as cuDF's option
  devcol::spill_manager& manager = devcol::spill_manager::global();
  manager.set_statistics_level(1);

  // The device as this program sees it: at most `limit` bytes; an allocation past it asks the
  // spill manager to make room, then retries.
  using limited = mr::on_oom<mr::limiting<mr::resource_handle>>;
  mr::scoped_default use_it{mr::make_resource_handle<limited>("limited", devcol::spill_manager::on_demand_callback(),
                                                              std::in_place, limit, mr::get_default())};

  std::vector<devcol::column<double, spilling>> columns;
  std::vector<double> values(rows);
  for (std::size_t i = 0; i < 32; ++i) {  // 16 MiB against a 4 MiB limit
    std::iota(values.begin(), values.end(), static_cast<double>(i * rows));
    columns.push_back(devcol::make_column<double, spilling>(values));
  }
  std::size_t spilled = 0;
  for (auto const& c : columns) { spilled += c.is_spilled() ? 1 : 0; }

  bool intact = true;  // reading a spilled column brings it back first (and spills another)
  for (std::size_t i = 0; i < columns.size(); ++i) {
    devcol::spill_lock lock;  // keeps what is read here on the device until the block ends
    intact = intact && devcol::to_host(columns[i])[rows - 1] == static_cast<double>(i * rows + rows - 1);
  }
  std::cout << spilled << " of " << columns.size() << " columns were on the host after they were made; "
            << "every value read back intact: " << std::boolalpha << intact << '\n'
            << manager.report();
  return intact && spilled > 0 ? 0 : 1;
}
