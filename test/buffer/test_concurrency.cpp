// Rule 10: concurrent shallow copies, slices, reads, writes and destruction of handles from many
// threads are race-free under the atomic reference count (also run under ThreadSanitizer).
#include "../support.hpp"

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

namespace devcol_test::concurrency {

using value = std::int32_t;

/// A handle and what a sequential model says it holds.
struct tracked_column {
  devcol::column<value> col;
  std::vector<value> model;
};

inline value read_row(devcol::column<value> const& c, std::size_t i) {
  value v{};
  devcol::copy_bytes(&v, c.data(devcol::access::read) + i, sizeof(value), {});
  devcol::stream_ref{}.synchronize();
  return v;
}

inline void write_row(devcol::column<value>& c, std::size_t i, value v) {
  devcol::copy_bytes(c.data(devcol::access::write) + i, &v, sizeof(value), {});
  devcol::stream_ref{}.synchronize();
}

}  // namespace devcol_test::concurrency

TEST_CASE("rule 10: 8 threads x 100k random copy / slice / read / write / destroy operations match a sequential model",
          "[cow][rule10][threads]") {
  using namespace devcol_test::concurrency;  // NOLINT: test brevity
  devcol_test::leak_check leaks;
  constexpr std::size_t rows = 64;
  constexpr int threads = 8;
  constexpr int operations = 100000;
  // Shared sources every thread copies from concurrently; nobody writes through them.
  std::vector<tracked_column> sources;
  for (value k = 0; k < 4; ++k) {
    std::vector<value> model(rows);
    for (std::size_t i = 0; i < rows; ++i) { model[i] = k * 1000 + static_cast<value>(i); }
    sources.push_back({devcol::make_column<value>(model), model});
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> workers;
  for (int id = 0; id < threads; ++id) {
    workers.emplace_back([&, id] {
      devcol::mr::scoped_default same_resource{leaks.handle()};  // per-thread default: share the tracker
      std::mt19937 rng(static_cast<unsigned>(id) * 7919U + 1U);
      std::vector<tracked_column> mine;
      for (int op = 0; op < operations; ++op) {
        auto const pick = rng() % 100;
        if (mine.empty() || pick < 20) {  // shallow copy of a shared source
          auto const& src = sources[rng() % sources.size()];
          mine.push_back({src.col, src.model});
        } else if (pick < 35) {  // shallow copy of one of mine
          auto const copy = mine[rng() % mine.size()];
          mine.push_back(copy);
        } else if (pick < 50) {  // slice
          auto const& from = mine[rng() % mine.size()];
          std::size_t const begin = rng() % (from.model.size() + 1);
          std::size_t const end = begin + rng() % (from.model.size() - begin + 1);
          mine.push_back({from.col.slice(begin, end),
                          std::vector<value>(from.model.begin() + static_cast<std::ptrdiff_t>(begin),
                                             from.model.begin() + static_cast<std::ptrdiff_t>(end))});
        } else if (pick < 70) {  // read
          auto const& t = mine[rng() % mine.size()];
          if (!t.model.empty()) {
            std::size_t const i = rng() % t.model.size();
            if (read_row(t.col, i) != t.model[i]) { ++mismatches; }
          }
        } else if (pick < 88) {  // write: copy-on-write keeps every other handle's values
          auto& t = mine[rng() % mine.size()];
          if (!t.model.empty()) {
            std::size_t const i = rng() % t.model.size();
            value const v = static_cast<value>(rng());
            write_row(t.col, i, v);
            t.model[i] = v;
          }
        } else {  // destroy
          std::swap(mine[rng() % mine.size()], mine.back());
          mine.pop_back();
        }
        if (mine.size() > 32) { mine.erase(mine.begin()); }
      }
      for (auto const& t : mine) {
        if (devcol_test::host_values(t.col) != t.model) { ++mismatches; }
      }
    });
  }
  for (auto& w : workers) { w.join(); }
  CHECK(mismatches.load() == 0);
  for (auto const& src : sources) {
    CHECK(devcol_test::host_values(src.col) == src.model);  // never written through any copy
    CHECK(src.col.data_buffer().use_count() == 1);           // every other handle is gone
  }
}
