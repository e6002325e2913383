// A memory resource that fails on demand, for allocation-failure sweeps (SQLite's malloc tests):
// armed with k, it lets k - 1 allocations through and fails the k-th and every later one with
// devcol::out_of_memory, so an operation that swallows one failure still fails.
#pragma once

#include "../support.hpp"

#include <cstddef>
#include <memory>

namespace devcol_test::reliability {

/// What the test and every copy of the resource share: the schedule and what happened.
struct failure_schedule {
  std::size_t fail_at = 0;     ///< 0: disarmed; k: the k-th allocation after arming fails, and all later ones
  std::size_t allocations = 0; ///< allocations asked for since arming (failed ones included)
  std::size_t failures = 0;    ///< allocations failed since arming

  void arm(std::size_t k) noexcept {
    fail_at = k;
    allocations = failures = 0;
  }
  void disarm() noexcept { fail_at = 0; }
};

/// Fails allocations as its schedule says; otherwise forwards to `Upstream`.
template <mr::memory_resource Upstream>
class failing_resource {
 public:
  explicit failing_resource(std::shared_ptr<failure_schedule> schedule, Upstream upstream = {})
      : schedule_(std::move(schedule)), upstream_(std::move(upstream)) {}

  void* allocate(std::size_t bytes, std::size_t alignment = mr::default_alignment, devcol::stream_ref s = {}) {
    failure_schedule& k = *schedule_;
    if (k.fail_at != 0 && ++k.allocations >= k.fail_at) {
      ++k.failures;
      throw devcol::out_of_memory("failing_resource: allocation " + std::to_string(k.allocations) + " of " +
                                      std::to_string(bytes) + " bytes fails by schedule",
                                  bytes);
    }
    return upstream_.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = mr::default_alignment,
                  devcol::stream_ref s = {}) noexcept {
    upstream_.deallocate(p, bytes, alignment, s);
  }
  friend bool operator==(failing_resource const& a, failing_resource const& b) noexcept {
    return a.schedule_ == b.schedule_;
  }
  friend void get_property(failing_resource const&, mr::host_accessible) noexcept
    requires mr::has_property<Upstream, mr::host_accessible>
  {}
  friend void get_property(failing_resource const&, mr::device_accessible) noexcept
    requires mr::has_property<Upstream, mr::device_accessible>
  {}

 private:
  std::shared_ptr<failure_schedule> schedule_;
  Upstream upstream_;
};

/// The sweep's resource: a tracker (leaks, double frees) over the failing resource over device memory.
using failing_device = mr::tracking<failing_resource<device_memory>>;

}  // namespace devcol_test::reliability
