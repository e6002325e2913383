// Where columns get their memory, chosen two ways. At compile time: a policy names a resource stack
// (a pool, counted), and every column of that policy allocates from it with no virtual call. At
// run time, the NumPy NEP 49 way: a named handler becomes this thread's default for a scope. Either
// way memory goes back to the resource that made it, whatever the default is by then.
#include <devcol/devcol.hpp>

#include <cstdint>
#include <iostream>
#include <string>

namespace mr = devcol::mr;

using mr::device_memory;  // cuda_async on CUDA, host_aligned on the host backend

// Columns of this policy take memory from one process-wide pool, counted on the way in and out.
struct pooled_policy : devcol::default_policy {
  using resource = mr::statistics<mr::pool<device_memory>>;
};

int main() {
  devcol::stream s;
  bool as_told = true;
  auto check = [&](bool holds, std::string const& what) {
    as_told = as_told && holds;
    std::cout << "  " << (holds ? "" : "NOT AS TOLD: ") << what << '\n';
  };

  std::cout << "Compile time: columns of pooled_policy\n";
  auto& pooled = mr::shared_instance<pooled_policy::resource>();  // what those columns allocate from
  {
    auto prices = devcol::sequence<double, pooled_policy>(1'000'000, 1.0, 0.25, s);
    auto cheap = devcol::filter(prices, devcol::compare(prices, devcol::cmp::less, 1000.0, s), s);
    auto const stats = pooled.report();
    std::cout << "  memory from " << prices.resource_name() << '\n'
              << "  " << stats.allocations.current << " allocations live, " << stats.bytes.current
              << " bytes; the pool holds " << pooled.upstream().upstream_bytes() << " bytes in "
              << pooled.upstream().chunk_count() << " chunk(s)\n";
    check(cheap.size() == 3996 && stats.allocations.current == 2,
          "filter's result (3996 rows) came from its input's resource: 2 allocations live in the pool");
  }
  check(pooled.report().bytes.current == 0, "every column's memory went back to the pool");
  check(pooled.upstream().upstream_bytes() > 0, "the pool keeps its chunks for the next columns");

  std::cout << "Run time: a NEP 49 handler as this thread's default\n";
  auto tracked = mr::make_resource_handle<mr::tracking<device_memory>>("tracked");
  auto& table = *tracked.target<mr::tracking<device_memory>>();
  std::string const initial = mr::get_default().name();
  devcol::column<std::int64_t> kept;
  {
    mr::scoped_default use_it{tracked};  // mr::set_default(tracked) returns the previous one, to restore by hand
    auto ids = devcol::sequence<std::int64_t>(1000, 0, 1, s);
    check(ids.resource_name() == "tracked", "a column made now allocates from 'tracked'");
    kept = ids;  // shares the memory, and outlives the scope
  }
  check(mr::get_default().name() == initial, "the default is '" + initial + "' again after the scope");
  check(kept.resource_name() == "tracked" && table.outstanding_count() == 1,
        "memory made under 'tracked' still belongs to it: 1 allocation outstanding");
  kept = {};
  check(table.outstanding_count() == 0, "freed through 'tracked' when the last column let go");
  check(devcol::sequence<std::int64_t>(10, 0, 1, s).resource_name() == initial, "new columns use the default again");
  return as_told ? 0 : 1;
}
