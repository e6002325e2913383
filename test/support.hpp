// Shared by every test source. The CUDA build compiles all test sources as one translation unit,
// so helpers live here (once) or in a namespace named after their file.
#pragma once

#include <devcol/devcol.hpp>

#include <catch2/catch.hpp>

#include "scoped_knob.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace devcol_test {

namespace mr = devcol::mr;

/// The spilling policy every test of spilling uses. One type, not one per test file: a unity or
/// CUDA translation unit then compiles each operation once for it (the spill-pressure sweep
/// instantiates every op of every kind), and the spill manager is global, so nothing is shared
/// between tests that separate types would have kept apart.
struct spilling : devcol::default_policy {
  using spill = devcol::spillable;
};

/// Every power of two from 1 to 4096: the alignments every resource must honour (when it can).
inline constexpr std::size_t alignments[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};

/// An upstream that honours only `max_alignment` bytes, to exercise adaptors' over-alignment.
template <std::size_t MaxAlignment>
struct small_alignment_upstream {
  static constexpr std::size_t max_alignment = MaxAlignment;
  void* allocate(std::size_t bytes, std::size_t alignment = MaxAlignment, devcol::stream_ref s = {}) {
    mr::detail::validate_alignment(alignment, max_alignment, "small_alignment_upstream");
    return inner.allocate(bytes, alignment, s);
  }
  void deallocate(void* p, std::size_t bytes, std::size_t alignment = MaxAlignment, devcol::stream_ref s = {}) noexcept {
    inner.deallocate(p, bytes, alignment, s);
  }
  friend bool operator==(small_alignment_upstream const&, small_alignment_upstream const&) noexcept { return true; }
  friend void get_property(small_alignment_upstream const&, mr::host_accessible) noexcept {}
  mr::host_aligned inner;
};

/**
 * Builds a resource of type R with arguments fit for tests (adaptors that need some), over
 * `upstream` when one is given (moved in), else over a default-constructed upstream.
 */
template <class R, class... Upstream>
std::unique_ptr<R> make_test_resource(Upstream&&... upstream) {
  if constexpr (!requires { typename R::upstream_type; }) {
    return std::make_unique<R>();
  } else {
    using U = typename R::upstream_type;
    if constexpr (std::is_same_v<R, mr::limiting<U>>) {
      return std::make_unique<R>(std::size_t{1} << 30, std::forward<Upstream>(upstream)...);
    } else if constexpr (std::is_same_v<R, mr::logging<U>>) {
      static std::ostringstream sink;  // outlives every logging adaptor of the test run
      return std::make_unique<R>(sink, std::forward<Upstream>(upstream)...);
    } else if constexpr (std::is_same_v<R, mr::on_oom<U>>) {
      return std::make_unique<R>([](std::size_t, devcol::stream_ref) { return false; }, std::forward<Upstream>(upstream)...);
    } else if constexpr (std::is_same_v<R, mr::aligned<U>>) {
      // 512: beyond a resource_handle's 64-byte guarantee, so that path over-allocates.
      return std::make_unique<R>(std::size_t{512}, std::forward<Upstream>(upstream)...);
    } else if constexpr (std::is_same_v<R, mr::pool<U>>) {
      return std::make_unique<R>(mr::pool_options{}, std::forward<Upstream>(upstream)...);
    } else {
      return std::make_unique<R>(std::forward<Upstream>(upstream)...);
    }
  }
}

/// The backend's device memory: what columns in tests are made of.
using mr::device_memory;
/// A tracking resource over device memory.
using device_tracker = mr::tracking<device_memory>;

/**
 * @brief For the length of a test case, makes a fresh tracking resource this thread's default, and
 * at the end checks that everything allocated through it was freed exactly once, with the size and
 * alignment it was allocated with. Declare it first, so it outlives the test's columns.
 */
class leak_check {
 public:
  leak_check() : handle_(mr::make_resource_handle<device_tracker>("leak_check")), scope_(handle_) {}
  leak_check(leak_check const&) = delete;
  leak_check& operator=(leak_check const&) = delete;
  ~leak_check() {
    auto const& t = tracker();
    CHECK(t.outstanding_count() == 0);
    CHECK(t.mismatched_deallocations() == 0);
    CHECK(t.unknown_deallocations() == 0);  // a second free of one pointer lands here
  }
  /// The tracking resource, to count allocations while the test runs.
  [[nodiscard]] device_tracker const& tracker() const { return *handle_.target<device_tracker>(); }
  /// Allocations live now.
  [[nodiscard]] std::size_t live() const { return tracker().outstanding_count(); }
  /// The handle, to compare resource names.
  [[nodiscard]] mr::resource_handle const& handle() const { return handle_; }

 private:
  mr::resource_handle handle_;
  mr::scoped_default scope_;
};

/// The number of empty optionals (null rows) in a host range.
template <class Range>
std::size_t count_nulls(Range const& rows) {
  std::size_t n = 0;
  for (auto const& row : rows) { n += row.has_value() ? 0 : 1; }
  return n;
}

/// The column's values on the host (nulls read as T{}).
template <class T, class P>
std::vector<T> host_values(devcol::column<T, P> const& c) {
  std::vector<T> out;
  for (auto const& row : devcol::to_host(c)) { out.push_back(row.value_or(T{})); }
  return out;
}

/// Writes `values` at rows [begin, begin + values.size()) through write access (as `s2[0:2] = 10`),
/// under a spill lock, as a user who keeps no pointer does.
template <class T, class P>
void assign(devcol::column<T, P>& c, std::size_t begin, std::vector<T> const& values, devcol::stream_ref s = {}) {
  devcol::spill_lock const lock;  // the pointer is used here only: a spillable column may spill again after
  T* rows = c.data(devcol::access::write, s);
  devcol::copy_bytes(rows + begin, values.data(), values.size() * sizeof(T), s);
  s.synchronize();
}

/// Spilling on (or off), on demand, with `device_limit` (0: none) and statistics at `level` (counters
/// reset), for one test case; the options as they were afterwards.
class spill_options {
 public:
  explicit spill_options(bool on, std::size_t device_limit = 0, int level = 0)
      : spill_(devcol::options::set_spill(on)),
        on_demand_(devcol::options::set_spill_on_demand(true)),
        limit_(devcol::options::set_spill_device_limit(device_limit)),
        level_(devcol::spill_manager::global().statistics_level()) {
    devcol::spill_manager::global().set_statistics_level(level);
    devcol::spill_manager::global().reset_statistics();
  }
  spill_options(spill_options const&) = delete;
  spill_options& operator=(spill_options const&) = delete;
  ~spill_options() {
    devcol::options::set_spill(spill_);
    devcol::options::set_spill_on_demand(on_demand_);
    devcol::options::set_spill_device_limit(limit_);
    devcol::spill_manager::global().set_statistics_level(level_);
  }

 private:
  bool spill_;
  bool on_demand_;
  std::size_t limit_;
  int level_;
};

/// The thread's default resource for a test: at most `limit` bytes, spilling on demand when
/// an allocation would pass it, over the leak check's tracker.
class limited_device {
 public:
  using resource = devcol::mr::on_oom<mr::limiting<mr::resource_handle>>;
  limited_device(leak_check const& leaks, std::size_t limit)
      : handle_(devcol::mr::make_resource_handle<resource>("limited", devcol::spill_manager::on_demand_callback(), std::in_place,
                                                    limit, leaks.handle())),
        scope_(handle_) {}

 private:
  devcol::mr::resource_handle handle_;
  devcol::mr::scoped_default scope_;
};

}  // namespace devcol_test
