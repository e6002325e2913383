/**
 * @file source_location.hpp
 * @brief `devcol::source_location`: `std::source_location` where the standard library has it, a
 * stand-in that knows nothing where it does not (clang 14 with libstdc++, which lacks the
 * builtin `<source_location>` needs), so every header still compiles with such a toolchain.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cstdint>
#if __has_include(<source_location>)
#  include <source_location>
#endif

DEVCOL_NAMESPACE_BEGIN

#if defined(__cpp_lib_source_location) && __cpp_lib_source_location >= 201907L
/// @brief Where a call was made: `std::source_location`.
using source_location = std::source_location;
#else
/// @brief Stand-in for `std::source_location` where the library lacks it: every field is empty
/// (spill statistics then record exposures without their place).
struct source_location {
  /// @brief An empty location (the toolchain cannot tell the caller's).
  [[nodiscard]] static constexpr source_location current() noexcept { return {}; }
  [[nodiscard]] constexpr std::uint_least32_t line() const noexcept { return 0; }
  [[nodiscard]] constexpr std::uint_least32_t column() const noexcept { return 0; }
  [[nodiscard]] constexpr char const* file_name() const noexcept { return ""; }
  [[nodiscard]] constexpr char const* function_name() const noexcept { return ""; }
};
#endif

DEVCOL_NAMESPACE_END
