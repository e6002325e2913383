/**
 * @file cast.hpp
 * @brief `devcol::cast`: converting a column to another fixed-width type.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/transform.hpp>

#include <cuda/std/chrono>
#include <cuda/std/limits>

#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

template <class T>
inline constexpr bool is_duration_v = requires { typename T::rep; typename T::period; } && !requires { typename T::clock; };
template <class T>
inline constexpr bool is_timestamp_v = requires { typename T::clock; };

/// The overflow policy of cast(), in one place.
template <class To>
struct convert_to {
  template <class From>
  DEVCOL_HOST_DEVICE To operator()(From const& v) const {
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
      using limits = ::cuda::std::numeric_limits<To>;
      if (!(v == v)) { return To{0}; }  // NaN
      if (v <= static_cast<From>(limits::lowest())) { return limits::lowest(); }
      if (v >= static_cast<From>(limits::max())) { return limits::max(); }
      return static_cast<To>(v);
    } else if constexpr (is_duration_v<From> && is_duration_v<To>) {
      return ::cuda::std::chrono::duration_cast<To>(v);
    } else if constexpr (is_timestamp_v<From> && is_timestamp_v<To>) {
      return ::cuda::std::chrono::time_point_cast<typename To::duration>(v);
    } else {
      return static_cast<To>(v);
    }
  }
};

template <class From, class To>
inline constexpr bool castable_v = (std::is_arithmetic_v<From> && std::is_arithmetic_v<To>) ||
                                   (is_duration_v<From> && is_duration_v<To>) ||
                                   (is_timestamp_v<From> && is_timestamp_v<To>);

}  // namespace detail

/**
 * @brief Each row converted to `To`, in one pass; nulls stay null (mask bits copied).
 *
 * Overflow policy: integer to integer wraps modulo 2^N (two's complement, as `static_cast` since
 * C++20); floating point to integer saturates at the target's limits and NaN becomes 0 (defined,
 * where C++ leaves it undefined); to `bool`, non-zero is true; between time units, truncation toward
 * zero (`duration_cast`). Timestamps and durations convert only among themselves.
 * @tparam To the element type of the result
 * @tparam From the element type of `col`
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param stream the stream the work is ordered on
 */
template <fixed_width To, fixed_width From, class Policy>
  requires detail::castable_v<From, To>
[[nodiscard]] column<To, Policy> cast(column<From, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::transform(col, detail::convert_to<To>{}, stream);
}

DEVCOL_NAMESPACE_END
