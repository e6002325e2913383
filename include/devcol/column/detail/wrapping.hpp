/**
 * @file wrapping.hpp
 * @brief The one addition and the one multiplication that sums, products, scans and sequences
 * combine values with, on every backend and path: integers wrap modulo 2^N (two's complement, as
 * Arrow's `sum`, `product` and `cumulative_sum` do) instead of overflowing, which C++ leaves
 * undefined for signed types; floating point adds and multiplies as usual.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The type an integer `T` is computed in so that it wraps: its unsigned type, at least
/// `unsigned`'s width (a narrower one would be promoted back to a signed `int`); `T` otherwise.
template <class T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct wrapping_type {
  using type = T;
};
template <class T>
struct wrapping_type<T, true> {
  using type = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
};
template <class T>
using wrapping_t = typename wrapping_type<T>::type;

/// `a + b`, an integer past `T`'s range wrapping modulo 2^N.
template <class T>
[[nodiscard]] DEVCOL_HOST_DEVICE constexpr T wrapping_add(T a, T b) noexcept {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) + static_cast<wrapping_t<T>>(b));
}

/// `a * b`, an integer past `T`'s range wrapping modulo 2^N.
template <class T>
[[nodiscard]] DEVCOL_HOST_DEVICE constexpr T wrapping_multiply(T a, T b) noexcept {
  return static_cast<T>(static_cast<wrapping_t<T>>(a) * static_cast<wrapping_t<T>>(b));
}

/// wrapping_add() as the binary operation of a Thrust or CUB reduction or scan.
struct wrapping_plus {
  template <class T>
  DEVCOL_HOST_DEVICE constexpr T operator()(T a, T b) const noexcept {
    return wrapping_add(a, b);
  }
};

/// wrapping_multiply() as the binary operation of a Thrust or CUB reduction.
struct wrapping_multiplies {
  template <class T>
  DEVCOL_HOST_DEVICE constexpr T operator()(T a, T b) const noexcept {
    return wrapping_multiply(a, b);
  }
};

}  // namespace detail
DEVCOL_NAMESPACE_END
