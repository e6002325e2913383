/**
 * @file options.hpp
 * @brief `devcol::options`: process-wide run-time options, first read from the environment.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <atomic>
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
  static bool set_copy_on_write(bool enabled) noexcept {
    return copy_on_write_flag().exchange(enabled, std::memory_order_relaxed);
  }

 private:
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
  explicit scoped_copy_on_write(bool enabled) noexcept : previous_(options::set_copy_on_write(enabled)) {}
  scoped_copy_on_write(scoped_copy_on_write const&) = delete;
  scoped_copy_on_write& operator=(scoped_copy_on_write const&) = delete;
  ~scoped_copy_on_write() { options::set_copy_on_write(previous_); }

 private:
  bool previous_;
};

DEVCOL_NAMESPACE_END
