/**
 * @file options.hpp
 * @brief `devcol::options`: process-wide run-time options, first read from the environment.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The ASCII letter `c` in lower case; anything else as it is.
constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Whether `text` equals `word` (lower case) but for the case of its ASCII letters.
inline bool equals_ignoring_case(char const* text, char const* word) noexcept {
  for (; *text != '\0' && *word != '\0'; ++text, ++word) {
    if (ascii_lower(*text) != *word) { return false; }
  }
  return *text == *word;
}

/**
 * Reads a byte count as people write it: decimal digits, then optionally spaces and a unit, of
 * 1000 (`B`, `kB`, `MB`, `GB`, `TB`) or of 1024 (`KiB`, `MiB`, `GiB`, `TiB`), in any case, as
 * Dask and cuDF's users write memory limits. Returns false, leaving `bytes` alone, for anything
 * else: a sign, a fraction, another unit, or a count past 2^64 - 1.
 */
inline bool parse_byte_count(char const* text, std::uint64_t& bytes) noexcept {
  if (*text < '0' || *text > '9') { return false; }
  std::uint64_t n = 0;
  for (; *text >= '0' && *text <= '9'; ++text) {
    auto const digit = static_cast<std::uint64_t>(*text - '0');
    if (n > (UINT64_MAX - digit) / 10) { return false; }
    n = n * 10 + digit;
  }
  while (*text == ' ') { ++text; }
  struct unit {
    char const* name;
    std::uint64_t scale;
  };
  static constexpr unit units[] = {{"", 1},
                                   {"b", 1},
                                   {"kb", 1000},
                                   {"mb", 1000 * 1000},
                                   {"gb", 1000 * 1000 * 1000},
                                   {"tb", std::uint64_t{1000} * 1000 * 1000 * 1000},
                                   {"kib", std::uint64_t{1} << 10},
                                   {"mib", std::uint64_t{1} << 20},
                                   {"gib", std::uint64_t{1} << 30},
                                   {"tib", std::uint64_t{1} << 40}};
  for (unit const& u : units) {
    if (!equals_ignoring_case(text, u.name)) { continue; }
    if (n > UINT64_MAX / u.scale) { return false; }
    bytes = n * u.scale;
    return true;
  }
  return false;
}

/// Reads an on/off option: "1", "true", "on", "yes" or "0", "false", "off", "no", in any case.
/// Returns false, leaving `on` alone, for anything else.
inline bool parse_flag(char const* text, bool& on) noexcept {
  for (char const* word : {"1", "true", "on", "yes"}) {
    if (equals_ignoring_case(text, word)) {
      on = true;
      return true;
    }
  }
  for (char const* word : {"0", "false", "off", "no"}) {
    if (equals_ignoring_case(text, word)) {
      on = false;
      return true;
    }
  }
  return false;
}

/**
 * Says on standard error, in one line, that the environment variable `name` holds `value`, which
 * is not `expected`, and that `used` applies instead. The options are read where nothing may
 * throw (an allocation's bookkeeping, the out-of-memory hook), so a value that cannot be read is
 * said rather than thrown, and never taken silently.
 */
inline void warn_environment(char const* name, char const* value, char const* expected, char const* used) noexcept {
  (void)std::fprintf(stderr, "devcol: %s=\"%s\" is not %s; using %s\n", name, value, expected, used);
}

}  // namespace detail

/**
 * @brief Process-wide options (cuDF's `cudf.set_option`). Each is read from its environment
 * variable on first use and may be changed at run time; changes never affect buffers that exist.
 */
class options {
 public:
  /**
   * @brief Whether buffers of the `runtime_sharing` policy created from now on copy on write
   * (true) or share views (false). Initially from `DEVCOL_COPY_ON_WRITE` ("0", "false", "off" or
   * "no" turn it off, "1", "true", "on" or "yes" on, in any case), true when unset. Another value
   * is said on standard error and the default applies, as for every option below.
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
   * @brief The soft device limit in bytes (0: none), for each device: with spill() on, the manager
   * spills a device's owners after a spillable allocation on it until that device's tracked bytes
   * are under it. From `DEVCOL_SPILL_DEVICE_LIMIT`
   * (bytes, or with a unit: "8GB", "512 MiB"), 0 when unset.
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
    char const* value = std::getenv("DEVCOL_SPILL_STATS");  // NOLINT(concurrency-mt-unsafe): read at start-up
    if (value == nullptr || *value == '\0') { return 0; }
    for (int level : {0, 1, 2}) {
      if (value[0] == static_cast<char>('0' + level) && value[1] == '\0') { return level; }
    }
    detail::warn_environment("DEVCOL_SPILL_STATS", value, "a statistics level (0, 1 or 2)", "0");
    return 0;
  }

 private:
  static std::uint64_t env_bytes(char const* name) noexcept {
    char const* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once, at first use
    std::uint64_t bytes = 0;
    if (value != nullptr && *value != '\0' && !detail::parse_byte_count(value, bytes)) {
      detail::warn_environment(name, value, "a byte count (digits, then optionally kB, MB, GB, TB, KiB, MiB, GiB or TiB)",
                               "0 (no limit)");
    }
    return bytes;
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
    static std::atomic<std::size_t> limit{static_cast<std::size_t>(env_bytes("DEVCOL_SPILL_DEVICE_LIMIT"))};
    return limit;
  }
  static bool env_flag(char const* name, bool fallback) noexcept {
    char const* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read once, at first use
    bool on = fallback;
    if (value != nullptr && *value != '\0' && !detail::parse_flag(value, on)) {
      detail::warn_environment(name, value, "on or off (1, true, on, yes or 0, false, off, no)",
                               fallback ? "on" : "off");
    }
    return on;
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
