/**
 * @file spill_manager.hpp
 * @brief `devcol::spill_manager`: spills least-recently-used spillable owners on demand (an
 * `mr::on_oom` hook) or to stay under a soft device limit, and keeps spill statistics.
 */
#pragma once

#include <devcol/buffer/spill_state.hpp>
#include <devcol/buffer/options.hpp>
#include <devcol/core/callback.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>

DEVCOL_NAMESPACE_BEGIN

/// @brief Spill statistics (level 1 and up): bytes, counts and seconds per direction.
struct spill_statistics {
  std::uint64_t spilled_bytes = 0;    ///< device -> host bytes
  std::uint64_t spill_count = 0;      ///< device -> host moves
  double spill_seconds = 0;           ///< time spent spilling
  std::uint64_t unspilled_bytes = 0;  ///< host -> device bytes
  std::uint64_t unspill_count = 0;    ///< host -> device moves
  double unspill_seconds = 0;         ///< time spent unspilling
};

/**
 * @brief The process-wide spill manager (cuDF's SpillManager). It knows every live spillable
 * owner through the buffer layer's registry (O(1) registration, no scan per allocation), and when
 * asked spills the least-recently-used ones that are neither exposed, spill-locked, borrowed nor
 * being moved (rules 14-18).
 *
 * Spilling on its own (on demand, device limit) happens only while `options::spill()` is on. Under
 * the device limit, after every spillable allocation and unspill, whether or not the program ever
 * names the manager (the registry applies it). On demand: install on_demand() as the callback of
 * an `mr::on_oom` adaptor in the resource stack the spillable columns allocate from; a failed
 * allocation then spills and retries. Thread-safe; no
 * manager or owner lock is held across an allocation (rule 18).
 *
 * The members that sort, map or format are `template <int = 0>`: a file compiles them only where it
 * calls them, not in every file that includes the spill layer.
 */
class spill_manager {
 public:
  /// @brief The one manager.
  static spill_manager& global() {
    static spill_manager manager;
    return manager;
  }
  spill_manager(spill_manager const&) = delete;
  spill_manager& operator=(spill_manager const&) = delete;

  /**
   * @brief Spills least-recently-used owners until at least `bytes` device bytes were freed or
   * nothing more can be spilled. Works whatever `options::spill()` says. Allocates host memory;
   * takes the registry mutex once, for a snapshot, and no lock while copying.
   * @param bytes the device bytes to free at least, if that many can be spilled
   * @returns the device bytes freed
   */
  template <int = 0>
  std::size_t spill(std::size_t bytes) noexcept {
    return detail::spill_registry::global().spill_least_recently_used(bytes);
  }

  /**
   * @brief The `mr::on_oom` callback: with `options::spill()` and `options::spill_on_demand()` on,
   * spills at least `bytes` of the current device's owners, least recently used first, and returns
   * whether anything was freed (so the allocation is retried). The allocation that failed runs with
   * its device current (rule 21): spilling another device's owners would free nothing it can use.
   * @param bytes the size of the allocation that failed
   */
  template <int = 0>
  static bool on_demand(std::size_t bytes, stream_ref /*stream*/) noexcept {
    if (!options::spill() || !options::spill_on_demand()) { return false; }
    return detail::spill_registry::global().spill_least_recently_used(bytes, detail::current_device_nothrow()) > 0;
  }
  /// @brief on_demand() as a callback for `mr::on_oom`.
  template <int = 0>
  [[nodiscard]] static callback<bool(std::size_t, stream_ref)> on_demand_callback() {
    return &on_demand<>;
  }

  /// @brief Device bytes held now by live spillable owners on the device.
  [[nodiscard]] std::size_t device_bytes() const noexcept { return detail::spill_registry::global().device_bytes(); }
  /// @brief The number of live tracked owners (walks the registry: for tests and reports).
  [[nodiscard]] std::size_t tracked_count() const { return detail::spill_registry::global().count(); }

  /// @brief The statistics level in force: 0 (nothing counted: no atomic add, no clock read), 1
  /// (bytes, counts and time per direction), 2 (also where each permanent exposure happened).
  [[nodiscard]] int statistics_level() const noexcept { return detail::spill_registry::global().stats_level(); }
  /// @brief Sets the statistics level (counting starts with the next move).
  /// @param level 0, 1 or 2, as statistics_level() describes
  void set_statistics_level(int level) noexcept { detail::spill_registry::global().set_stats_level(level); }
  /// @brief The counters so far.
  [[nodiscard]] spill_statistics statistics() const noexcept {
    auto const& c = detail::spill_registry::global().counters();
    spill_statistics s;
    s.spilled_bytes = c.spilled_bytes.load(std::memory_order_relaxed);
    s.spill_count = c.spill_count.load(std::memory_order_relaxed);
    s.spill_seconds = static_cast<double>(c.spill_ns.load(std::memory_order_relaxed)) * 1e-9;
    s.unspilled_bytes = c.unspilled_bytes.load(std::memory_order_relaxed);
    s.unspill_count = c.unspill_count.load(std::memory_order_relaxed);
    s.unspill_seconds = static_cast<double>(c.unspill_ns.load(std::memory_order_relaxed)) * 1e-9;
    return s;
  }
  /// @brief Level 2: each place where an owner was first exposed (made unspillable for good), as
  /// "file:line (function)", with how many owners and bytes.
  template <int = 0>
  [[nodiscard]] std::map<std::string, detail::spill_registry::exposure_count> exposure_sites() const {
    return detail::spill_registry::global().exposure_sites();
  }
  /// @brief Zeroes the counters and forgets the exposure sites.
  template <int = 0>
  void reset_statistics() noexcept {
    detail::spill_registry::global().clear_exposure_sites();
    auto& c = detail::spill_registry::global().counters();
    for (auto* counter : {&c.spilled_bytes, &c.spill_count, &c.spill_ns, &c.unspilled_bytes, &c.unspill_count, &c.unspill_ns}) {
      counter->store(0, std::memory_order_relaxed);
    }
  }
  /// @brief A readable report of the statistics (cuDF's `get_spill_statistics` text).
  template <int = 0>
  [[nodiscard]] std::string report() const {
    std::ostringstream out;
    out << "devcol spill statistics (level " << statistics_level() << ")\n";
    if (statistics_level() == 0) {
      out << "  not counted (set DEVCOL_SPILL_STATS=1 or spill_manager::set_statistics_level(1))\n";
      return out.str();
    }
    auto const s = statistics();
    auto const line = [&out](char const* what, std::uint64_t bytes, std::uint64_t count, double seconds) {
      out << "  " << what << ": " << bytes << " bytes in " << count << " moves, " << seconds << " s";
      if (seconds > 0) { out << " (" << static_cast<double>(bytes) / seconds / 1e9 << " GB/s)"; }
      out << '\n';
    };
    line("device -> host", s.spilled_bytes, s.spill_count, s.spill_seconds);
    line("host -> device", s.unspilled_bytes, s.unspill_count, s.unspill_seconds);
    out << "  tracked device bytes now: " << device_bytes() << '\n';
    if (statistics_level() >= 2) {
      out << "  permanent exposures (never spilled again):\n";
      for (auto const& [where, count] : exposure_sites()) {
        out << "    " << where << ": " << count.owners << " owners, " << count.bytes << " bytes\n";
      }
    }
    return out.str();
  }

 private:
  spill_manager() = default;
};

DEVCOL_NAMESPACE_END
