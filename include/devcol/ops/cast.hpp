/**
 * @file cast.hpp
 * @brief `devcol::cast`: converting a column to another fixed-width type.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/transform.hpp>

#include <cuda/std/chrono>
#include <cuda/std/limits>
#include <cuda/std/ratio>

#include <cstddef>
#include <cstdint>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

template <class T>
inline constexpr bool is_duration_v = requires { typename T::rep; typename T::period; } && !requires { typename T::clock; };
template <class T>
inline constexpr bool is_timestamp_v = requires { typename T::clock; };

/// The ticks of a duration or of a time point (since its clock's epoch), as 64 bits.
template <class T>
DEVCOL_HOST_DEVICE std::int64_t ticks(T const& v) noexcept {
  if constexpr (is_timestamp_v<T>) {
    return static_cast<std::int64_t>(v.time_since_epoch().count());
  } else {
    return static_cast<std::int64_t>(v.count());
  }
}

/**
 * What a cast between the time types `From` and `To` does to the ticks: multiply by `factor` (a
 * finer unit) or divide by `divisor` (a coarser one, truncating toward zero as `duration_cast`), and
 * the ticks [lowest, highest] whose result `To`'s representation holds. `checked`: some value of
 * `From`'s representation lies outside, so cast() looks for one first.
 */
template <class From, class To>
struct unit_change {
  using from_duration = std::conditional_t<is_timestamp_v<From>, typename From::duration, From>;
  using to_duration = std::conditional_t<is_timestamp_v<To>, typename To::duration, To>;
  using ratio = ::cuda::std::ratio_divide<typename from_duration::period, typename to_duration::period>;
  static_assert(ratio::num == 1 || ratio::den == 1, "Arrow's time units are whole multiples of each other");
  static_assert(sizeof(typename from_duration::rep) <= 8 && sizeof(typename to_duration::rep) <= 8);
  using from_limits = ::cuda::std::numeric_limits<typename from_duration::rep>;
  using to_limits = ::cuda::std::numeric_limits<typename to_duration::rep>;
  static constexpr std::int64_t factor = ratio::num;
  static constexpr std::int64_t divisor = ratio::den;
  // Multiplying: the ticks within to's range divided by the factor (division truncates toward
  // zero, which rounds both bounds inward). Dividing: when to's representation is narrower, the
  // ticks whose quotient fits it; a representation as wide as from's holds every quotient.
  static constexpr std::int64_t lowest =
      factor != 1 ? std::int64_t{to_limits::lowest()} / factor
      : sizeof(typename to_duration::rep) < sizeof(typename from_duration::rep)
          ? std::int64_t{to_limits::lowest()} * divisor - (divisor - 1)
          : std::int64_t{from_limits::lowest()};
  static constexpr std::int64_t highest =
      factor != 1 ? std::int64_t{to_limits::max()} / factor
      : sizeof(typename to_duration::rep) < sizeof(typename from_duration::rep)
          ? std::int64_t{to_limits::max()} * divisor + (divisor - 1)
          : std::int64_t{from_limits::max()};
  static constexpr bool checked = lowest > std::int64_t{from_limits::lowest()} || highest < std::int64_t{from_limits::max()};

  /// `v` in `To`'s unit. Defined for every input: a product past 64 bits wraps (computed unsigned),
  /// so that the unspecified values of null rows, which cast() converts too, cannot overflow.
  DEVCOL_HOST_DEVICE static To convert(From const& v) noexcept {
    std::int64_t const t = ticks(v);
    std::int64_t const r = factor != 1 ? static_cast<std::int64_t>(static_cast<std::uint64_t>(t) * std::uint64_t{factor})
                                       : t / divisor;
    return To(to_duration(static_cast<typename to_duration::rep>(r)));
  }
};

/// Whether row `i` is valid and its ticks lie outside [lowest, highest]: what cast() refuses.
template <class T>
struct ticks_outside {
  column_view<T> view;
  std::int64_t lowest;
  std::int64_t highest;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    if (!view.is_valid(i)) { return false; }
    std::int64_t const t = ticks(view[i]);
    return t < lowest || t > highest;
  }
};

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
    } else if constexpr ((is_duration_v<From> && is_duration_v<To>) || (is_timestamp_v<From> && is_timestamp_v<To>)) {
      return unit_change<From, To>::convert(v);
    } else if constexpr (std::is_same_v<From, float16>) {
      return convert_to<To>{}(to_float(v));  // exact, then the float's policy
    } else if constexpr (std::is_same_v<To, float16> && std::is_same_v<From, float>) {
      return float16::from_float(v);
    } else if constexpr (std::is_same_v<To, float16>) {
      // One rounding: every integer a half float can hold finitely is a double exactly.
      return float16::from_float(static_cast<double>(v));
    } else {
      return static_cast<To>(v);
    }
  }
};

/// Throws, naming the row and its value, when a valid row of `col` is one the cast from `From` to
/// `To` cannot hold: one pass, which synchronises `stream`. Nothing to do where every value fits.
template <class To, class From, class Policy>
void expect_ticks_fit(column<From, Policy> const& col, stream_ref stream) {
  using change = unit_change<From, To>;
  if constexpr (change::checked) {
    executor exec(stream);
    exec.reads(col.data(access::read), col.size() * sizeof(From));
    std::size_t const row = find_first_n(exec, col.size(), ticks_outside<From>{col.view(), change::lowest, change::highest});
    if (row != col.size()) {
      From value{};
      copy_bytes(&value, col.data(access::read) + row, sizeof(From), stream);
      stream.synchronize();
      using to_rep = typename change::to_duration::rep;
      DEVCOL_FAIL("cast: row ", row, " holds ", ticks(value), " (", type_name_v<From>, "), which ", type_name_v<To>,
                  " cannot hold: its ticks ", change::factor != 1 ? "times " : "divided by ",
                  change::factor != 1 ? change::factor : change::divisor, " pass ", type_name_v<to_rep>, "'s range");
    }
  }
}

/// Whether two time points count from one clock's epoch (a time of day never casts to a date).
template <class From, class To>
inline constexpr bool same_clock_v = requires { requires std::is_same_v<typename From::clock, typename To::clock>; };

template <class From, class To>
inline constexpr bool castable_v = (std::is_arithmetic_v<From> && std::is_arithmetic_v<To>) ||
                                   (std::is_same_v<From, float16> && std::is_arithmetic_v<To>) ||
                                   (std::is_arithmetic_v<From> && std::is_same_v<To, float16>) ||
                                   (is_duration_v<From> && is_duration_v<To>) ||
                                   (is_timestamp_v<From> && is_timestamp_v<To> && same_clock_v<From, To>);

}  // namespace detail

/**
 * @brief Each row converted to `To`, in one pass; nulls stay null (mask bits copied).
 *
 * Overflow policy: integer to integer wraps modulo 2^N (two's complement, as `static_cast` since
 * C++20); floating point to integer saturates at the target's limits and NaN becomes 0 (defined,
 * where C++ leaves it undefined); to `bool`, non-zero is true. `float16` (storage only otherwise)
 * casts to and from every arithmetic type: to one as its exact float value would, from one by a
 * single rounding to nearest, ties to even (past 65504 infinity, as Arrow's cast gives). Between
 * time units (timestamps, durations, dates and times of day, each only among its own kind):
 * truncation toward zero, as `duration_cast`; a valid row whose result the target's
 * representation cannot hold (`duration_s{INT64_MAX / 2}` in nanoseconds) is refused, as Arrow's
 * safe cast refuses it. Where such a row can exist, the rows are checked first: one more pass,
 * which synchronises `stream`.
 * @tparam To the element type of the result
 * @tparam From the element type of `col`
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming the first valid row, and its value, that a time unit's change
 * would take past the target's representation
 */
template <fixed_width To, fixed_width From, class Policy>
  requires detail::castable_v<From, To>
[[nodiscard]] column<To, Policy> cast(column<From, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if constexpr (detail::is_duration_v<From> || detail::is_timestamp_v<From>) { detail::expect_ticks_fit<To>(col, stream); }
  return devcol::transform(col, detail::convert_to<To>{}, stream);
}

DEVCOL_NAMESPACE_END
