/**
 * @file access.hpp
 * @brief `devcol::access::read` and `devcol::access::write`: what a pointer accessor is asked for.
 */
#pragma once

#include <devcol/core/config.hpp>

DEVCOL_NAMESPACE_BEGIN
namespace access {

/// Tag type of `access::read`.
struct read_t {
  explicit constexpr read_t() = default;
};
/// Tag type of `access::write`.
struct write_t {
  explicit constexpr write_t() = default;
};

/// Read access: a const pointer; never copies, never exposes (copy-on-write rules 2 and 13).
inline constexpr read_t read{};
/// Write access: a mutable pointer after unsharing (copy-on-write rules 3 and 4); not an exposure.
inline constexpr write_t write{};

}  // namespace access
DEVCOL_NAMESPACE_END
