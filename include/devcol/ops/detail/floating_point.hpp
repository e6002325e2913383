/**
 * @file floating_point.hpp
 * @brief What the ops share about floating point: NaN tests and the sort key of a float.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cuda/std/bit>
#include <cuda/std/limits>

#include <cstdint>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether `x` is NaN; false for every type that is not floating point (integers, decimals,
/// times, strings), so that one comparator serves every kind.
template <class T>
DEVCOL_HOST_DEVICE constexpr bool is_nan(T const& x) noexcept {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;  // NOLINT(misc-redundant-expression): true for NaN only, under IEEE 754
  } else {
    (void)x;
    return false;
  }
}

/// The unsigned integer of `T`'s width: what ordered_key sorts a float as.
template <class T>
using float_bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

/**
 * @brief The sort key of a floating-point value: an unsigned integer that orders as the values
 * do, with -0.0 and 0.0 one key (so a stable sort keeps them in row order, as Arrow's comparison
 * sort does) and every NaN, whatever its sign and payload, the one key `nan_key`.
 *
 * Why integers: Thrust picks a radix sort for arithmetic keys, and both its host radix sort and
 * CUB's order the float bits, so -0.0 would come before 0.0 and a NaN with its sign bit set before
 * -infinity. Non-NaN keys lie strictly between 0 and the greatest key, so a `nan_key` of 0 or of
 * the greatest puts the NaNs, in row order, before or after every number; the keys sort correctly
 * with a radix sort and with a comparison sort alike.
 */
template <class T>
struct ordered_key {
  static_assert(std::is_floating_point_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  using key_type = float_bits_t<T>;
  static constexpr key_type sign_bit = key_type{1} << (sizeof(T) * 8 - 1);
  static constexpr key_type greatest = ~key_type{0};

  key_type nan_key;

  /// The `nan_key` that puts NaN last (`nan_last`) or first in a sort that is `descending` or not.
  static constexpr key_type nan_key_for(bool descending, bool nan_last) noexcept {
    return descending != nan_last ? greatest : key_type{0};
  }

  DEVCOL_HOST_DEVICE key_type operator()(T x) const noexcept { return is_nan(x) ? nan_key : number_key(x); }

  /// The key of `x`, which must not be NaN. The magnitude's bits m below or above the sign bit:
  /// sign_bit - m for negative values (greater magnitude, smaller key), sign_bit + m for the others,
  /// so -0.0 and 0.0 both come to sign_bit. A subtraction rather than flipping every bit keeps the
  /// magnitude's low zero bits zero (integral values have many), which a radix sort finds constant
  /// and skips; computed without a branch, since signs come in no order.
  DEVCOL_HOST_DEVICE static key_type number_key(T x) noexcept {
    key_type const bits = ::cuda::std::bit_cast<key_type>(x);
    key_type const negative = static_cast<key_type>(key_type{0} - (bits >> (sizeof(T) * 8 - 1)));  // all ones or 0
    key_type const magnitude = bits & static_cast<key_type>(~sign_bit);
    return static_cast<key_type>(sign_bit + static_cast<key_type>((magnitude ^ negative) - negative));
  }
};

/**
 * @brief The value an ordered_key stands for: the inverse of ordered_key but for the keys that stand
 * for several values, `nan_key` (any NaN: the quiet NaN comes back) and the zeros' (0.0 comes back).
 */
template <class T>
struct ordered_value {
  using key_type = float_bits_t<T>;
  key_type nan_key;
  DEVCOL_HOST_DEVICE T operator()(key_type key) const noexcept {
    if (key == nan_key) { return ::cuda::std::numeric_limits<T>::quiet_NaN(); }
    constexpr key_type sign_bit = ordered_key<T>::sign_bit;
    return ::cuda::std::bit_cast<T>((key & sign_bit) != 0 ? static_cast<key_type>(key & ~sign_bit)
                                                          : static_cast<key_type>(sign_bit | (sign_bit - key)));
  }
};

/// Whether a value is 0.0 or -0.0.
struct is_zero {
  template <class T>
  DEVCOL_HOST_DEVICE bool operator()(T v) const noexcept { return v == T{0}; }
};
/// Whether a value is NaN, as a functor.
struct is_nan_value {
  template <class T>
  DEVCOL_HOST_DEVICE bool operator()(T v) const noexcept { return is_nan(v); }
};

}  // namespace detail
DEVCOL_NAMESPACE_END
