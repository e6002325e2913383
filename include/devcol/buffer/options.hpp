/**
 * @file options.hpp
 * @brief `devcol::options`: process-wide run-time options, first read from the environment.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Process-wide options (cuDF's `cudf.set_option`). Each is read from its environment
 * variable on first use and may be changed at run time; changes never affect buffers that exist.
 */
class options {
 public:
  /**
   * @brief Whether buffers of the `runtime_sharing` policy created from now on copy on write
   * (true) or share views (false). Initially from `DEVCOL_COPY_ON_WRITE` ("0", "false", "off" or
   * "no" turn it off), true when unset.
   */
  [[nodiscard]] static bool copy_on_write() noexcept { return copy_on_write_flag().load(std::memory_order_relaxed); }
  /// @brief Sets copy_on_write() for buffers created from now on; returns the previous value.
  /// @param enabled true for copy-on-write, false for shared views
  static bool set_copy_on_write(bool enabled) noexcept {
    return copy_on_write_flag().exchange(enabled, std::memory_order_relaxed);
  }

  /**
   * @brief Whether the spill manager spills on its own (on demand, or to stay under the device
   * limit). Explicit spill() calls work either way. Initially from `DEVCOL_SPILL`, false when unset
   * (cuDF's `spill` option).
   */
  [[nodiscard]] static bool spill() noexcept { return spill_flag().load(std::memory_order_relaxed); }
  /// @brief Sets spill(); returns the previous value.
  /// @param enabled whether the manager spills on its own
  static bool set_spill(bool enabled) noexcept { return spill_flag().exchange(enabled, std::memory_order_relaxed); }
  /**
   * @brief Whether, with spill() on, an allocation that fails spills and retries (through the
   * `mr::on_oom` hook the manager provides). From `DEVCOL_SPILL_ON_DEMAND`, true when unset.
   */
  [[nodiscard]] static bool spill_on_demand() noexcept { return on_demand_flag().load(std::memory_order_relaxed); }
  /// @brief Sets spill_on_demand(); returns the previous value.
  /// @param enabled whether a failed allocation spills and retries
  static bool set_spill_on_demand(bool enabled) noexcept {
    return on_demand_flag().exchange(enabled, std::memory_order_relaxed);
  }
  /**
   * @brief The soft device limit in bytes (0: none): with spill() on, the manager spills after a
   * spillable allocation until tracked device bytes are under it. From `DEVCOL_SPILL_DEVICE_LIMIT`
   * (bytes), 0 when unset.
   */
  [[nodiscard]] static std::size_t spill_device_limit() noexcept { return limit_value().load(std::memory_order_relaxed); }
  /// @brief Sets spill_device_limit(); returns the previous value.
  /// @param bytes the soft device limit in bytes; 0 for none
  static std::size_t set_spill_device_limit(std::size_t bytes) noexcept {
    return limit_value().exchange(bytes, std::memory_order_relaxed);
  }
  /// @brief The spill statistics level at start-up (0, 1 or 2), from `DEVCOL_SPILL_STATS`, 0 when
  /// unset. The level in force is `spill_manager::statistics_level()`.
  [[nodiscard]] static int spill_stats() noexcept {
    return static_cast<int>(env_number("DEVCOL_SPILL_STATS", 0) > 2 ? 2 : env_number("DEVCOL_SPILL_STATS", 0));
  }

 private:
  static std::uint64_t env_number(char const* name, std::uint64_t fallback) noexcept {
    char const* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once, at first use
    if (value == nullptr || *value == '\0') { return fallback; }
    char* end = nullptr;
    auto const n = std::strtoull(value, &end, 10);
    return end != nullptr && *end == '\0' ? n : fallback;
  }
  static std::atomic<bool>& spill_flag() noexcept {
    static std::atomic<bool> flag{env_flag("DEVCOL_SPILL", false)};
    return flag;
  }
  static std::atomic<bool>& on_demand_flag() noexcept {
    static std::atomic<bool> flag{env_flag("DEVCOL_SPILL_ON_DEMAND", true)};
    return flag;
  }
  static std::atomic<std::size_t>& limit_value() noexcept {
    static std::atomic<std::size_t> limit{static_cast<std::size_t>(env_number("DEVCOL_SPILL_DEVICE_LIMIT", 0))};
    return limit;
  }
  static bool env_flag(char const* name, bool fallback) noexcept {
    char const* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once, at first use
    if (value == nullptr || *value == '\0') { return fallback; }
    for (char const* off : {"0", "false", "off", "no", "FALSE", "OFF", "NO", "False", "Off", "No"}) {
      if (std::strcmp(value, off) == 0) { return false; }
    }
    return true;
  }
  static std::atomic<bool>& copy_on_write_flag() noexcept {
    static std::atomic<bool> flag{env_flag("DEVCOL_COPY_ON_WRITE", true)};
    return flag;
  }
};

/// @brief Sets `options::copy_on_write()` for a scope and restores it on exit.
class [[nodiscard]] scoped_copy_on_write {
 public:
  /// @brief Makes buffers created in the scope copy on write (`true`) or share views (`false`).
  /// @param enabled true for copy-on-write, false for shared views
  explicit scoped_copy_on_write(bool enabled) noexcept : previous_(options::set_copy_on_write(enabled)) {}
  scoped_copy_on_write(scoped_copy_on_write const&) = delete;
  scoped_copy_on_write& operator=(scoped_copy_on_write const&) = delete;
  ~scoped_copy_on_write() { options::set_copy_on_write(previous_); }

 private:
  bool previous_;
};

DEVCOL_NAMESPACE_END
