/**
 * @file version.hpp
 * @brief devcol's version, committed here and read by CMake (never generated at configure time).
 */
#pragma once

/// Major version: incremented on incompatible API or ABI changes.
#define DEVCOL_VERSION_MAJOR 0
/// Minor version: incremented on backwards-compatible additions.
#define DEVCOL_VERSION_MINOR 1
/// Patch version: incremented on fixes.
#define DEVCOL_VERSION_PATCH 0

/// The version as one comparable integer, `MMMmmmppp` (0.1.0 is 1000).
#define DEVCOL_VERSION (DEVCOL_VERSION_MAJOR * 1000000 + DEVCOL_VERSION_MINOR * 1000 + DEVCOL_VERSION_PATCH)

namespace devcol {

/// @brief A library version, comparable and printable by its fields.
struct version_info {
  int major;  ///< incompatible changes
  int minor;  ///< compatible additions
  int patch;  ///< fixes
  friend constexpr bool operator==(version_info, version_info) = default;
};

/// @brief The version of the devcol headers this translation unit was compiled with.
inline constexpr version_info version{DEVCOL_VERSION_MAJOR, DEVCOL_VERSION_MINOR, DEVCOL_VERSION_PATCH};

}  // namespace devcol
