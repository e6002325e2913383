// Rules 16-18 under threads: 8 threads read, write, copy and spill spillable columns under a small
// device limit (on-demand spilling and the soft limit both at work); the contents match a
// sequential model and nothing leaks (also run under ThreadSanitizer).
#include "../support.hpp"

#include <barrier>
#include <cstddef>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace devcol_test::spill_concurrency {

using cell = std::int64_t;
using devcol_test::spilling;
using cell_column = devcol::column<cell, spilling>;

constexpr std::size_t cell_rows = 512;
constexpr std::size_t cell_column_bytes = cell_rows * sizeof(cell);

inline cell read_row(cell_column const& c, std::size_t i) {
  devcol::spill_lock const lock;  // the pointer stays valid until the copy is done
  cell v{};
  devcol::copy_bytes(&v, c.data(devcol::access::read) + i, sizeof(cell), {});
  devcol::stream_ref{}.synchronize();
  return v;
}

inline void write_row(cell_column& c, std::size_t i, cell v) {
  devcol::spill_lock const lock;
  devcol::copy_bytes(c.data(devcol::access::write) + i, &v, sizeof(cell), {});
  devcol::stream_ref{}.synchronize();
}

inline std::vector<cell> values(cell_column const& c) {
  devcol::spill_lock const lock;
  return devcol_test::host_values(c);
}

}  // namespace devcol_test::spill_concurrency

TEST_CASE("rules 16-18: 8 threads read, write, copy and spill spillable columns under a small limit",
          "[spill][rule18][concurrency]") {
  using namespace devcol_test::spill_concurrency;  // NOLINT: test brevity
  devcol_test::leak_check leaks;
  bool const was_on = devcol::options::set_spill(true);
  std::size_t const was_limit = devcol::options::set_spill_device_limit(0);
  auto& manager = devcol::spill_manager::global();
  int const was_level = manager.statistics_level();
  manager.set_statistics_level(1);
  manager.reset_statistics();
  constexpr std::size_t threads = 8;
  constexpr std::size_t per_thread = 4;
  // Room for 3 columns a thread (each locks at most 2 at once, and one more is being allocated),
  // while all the columns and copies take about twice that: on-demand spilling is always at work.
  using limited = devcol::mr::on_oom<devcol::mr::limiting<devcol::mr::resource_handle>>;
  auto const device = devcol::mr::make_resource_handle<limited>(
      "limited", devcol::spill_manager::on_demand_callback(), std::in_place, threads * 3 * cell_column_bytes, leaks.handle());
  // Shared, read-only columns every thread reads and copies.
  std::vector<cell_column> shared;
  {
    devcol::mr::scoped_default const scope(device);
    for (std::size_t i = 0; i < threads; ++i) {
      std::vector<cell> v(cell_rows);
      for (std::size_t r = 0; r < cell_rows; ++r) { v[r] = static_cast<cell>(i * 1'000'000 + r); }
      shared.push_back(devcol::make_column<cell, spilling>(v));
    }
  }
  std::vector<std::vector<cell_column>> own(threads);
  std::vector<std::vector<std::vector<cell>>> model(threads);
  std::vector<std::size_t> failures(threads, 0);
  {
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        devcol::mr::scoped_default const scope(device);
        std::mt19937_64 rng(t);
        for (std::size_t j = 0; j < per_thread; ++j) {
          own[t].push_back(devcol::make_column<cell, spilling>(std::vector<cell>(cell_rows, static_cast<cell>(t))));
          model[t].emplace_back(cell_rows, static_cast<cell>(t));
        }
        for (int step = 0; step < 400; ++step) {
          std::size_t const j = rng() % per_thread;
          std::size_t const r = rng() % cell_rows;
          std::size_t const s = rng() % threads;
          switch (rng() % 5) {
            case 0: {  // write
              cell const v = static_cast<cell>(rng() % 1000);
              write_row(own[t][j], r, v);
              model[t][j][r] = v;
              break;
            }
            case 1:  // read own
              failures[t] += read_row(own[t][j], r) != model[t][j][r];
              break;
            case 2:  // read shared
              failures[t] += read_row(shared[s], r) != static_cast<cell>(s * 1'000'000 + r);
              break;
            case 3: {  // copy a shared cell_column and write the copy: the original is unchanged
              cell_column copy = shared[s];
              write_row(copy, r, -1);
              failures[t] += read_row(copy, r) != -1;
              failures[t] += read_row(shared[s], r) != static_cast<cell>(s * 1'000'000 + r);
              break;
            }
            default:  // spill explicitly (may be refused: locked by another thread, or moving)
              (void)own[t][j].spill();
              break;
          }
        }
      });
    }
    for (auto& th : pool) { th.join(); }
  }
  for (std::size_t t = 0; t < threads; ++t) {
    CHECK(failures[t] == 0);
    for (std::size_t j = 0; j < per_thread; ++j) { CHECK(values(own[t][j]) == model[t][j]); }
  }
  for (std::size_t s = 0; s < threads; ++s) {
    auto const v = values(shared[s]);
    for (std::size_t r = 0; r < cell_rows; ++r) { REQUIRE(v[r] == static_cast<cell>(s * 1'000'000 + r)); }
  }
  auto const stats = manager.statistics();
  CHECK(stats.spill_count > 0);  // spilling was at work, and what was spilled came back intact
  CHECK(stats.unspill_count > 0);
  CHECK(stats.spilled_bytes == stats.spill_count * cell_column_bytes);
  CHECK(stats.unspilled_bytes == stats.unspill_count * cell_column_bytes);
  own.clear();
  shared.clear();
  manager.set_statistics_level(was_level);
  devcol::options::set_spill(was_on);
  devcol::options::set_spill_device_limit(was_limit);
}

namespace devcol_test::spill_concurrency {

/// Spillable shared views: two handles on one owner both expose it, neither copying first.
struct spilling_views : devcol::default_policy {
  using spill = devcol::spillable;
  using sharing = devcol::shared_views;
};

}  // namespace devcol_test::spill_concurrency

TEST_CASE("rule 19: one owner exposed by two threads at once is recorded once at level 2",
          "[spill][rule19][concurrency]") {
  using namespace devcol_test::spill_concurrency;  // NOLINT: test brevity
  using views_column = devcol::column<cell, spilling_views>;
  devcol_test::leak_check leaks;
  devcol_test::spill_options const options(false, 0, 2);
  auto& manager = devcol::spill_manager::global();
  manager.reset_statistics();
  constexpr int rounds = 500;
  constexpr std::size_t rows_per_column = std::size_t{1} << 15;  // a long unspill: the second thread arrives while the first holds the mutex
  std::vector<cell> const rows(rows_per_column, 1);
  std::barrier sync(2);
  views_column handles[2];  // shared views of one owner: a write or exposure through either copies nothing
  auto expose_each_round = [&](int id) {
    for (int round = 0; round < rounds; ++round) {
      if (id == 0) {
        handles[0] = devcol::make_column<cell, spilling_views>(rows);
        (void)handles[0].spill();  // the exposure unspills first: the two threads meet on the owner's mutex
        handles[1] = handles[0];
      }
      sync.arrive_and_wait();
      (void)handles[id].expose();
      sync.arrive_and_wait();
      if (id == 0) {
        handles[0] = {};
        handles[1] = {};
      }
    }
  };
  std::thread other(expose_each_round, 1);
  expose_each_round(0);
  other.join();
  std::size_t owners = 0;
  std::size_t bytes = 0;
  for (auto const& [where, count] : manager.exposure_sites()) {
    owners += count.owners;
    bytes += count.bytes;
  }
  CHECK(owners == rounds);  // each owner once, whichever thread exposed it first
  CHECK(bytes == rounds * rows_per_column * sizeof(cell));
  manager.reset_statistics();
}
