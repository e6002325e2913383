/**
 * @file types.hpp
 * @brief The fixed-width element types a column can hold, with their Arrow format strings.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cuda/std/bit>
#include <cuda/std/chrono>
#include <cuda/std/ratio>

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/// @brief The unit of a timestamp or duration, as Arrow names them.
enum class time_unit { s, ms, us, ns };

namespace detail {
template <time_unit U>
struct unit_ratio;
template <>
struct unit_ratio<time_unit::s> {
  using type = ::cuda::std::ratio<1>;
};
template <>
struct unit_ratio<time_unit::ms> {
  using type = ::cuda::std::milli;
};
template <>
struct unit_ratio<time_unit::us> {
  using type = ::cuda::std::micro;
};
template <>
struct unit_ratio<time_unit::ns> {
  using type = ::cuda::std::nano;
};
}  // namespace detail

/// @brief A length of time in `U`s, 64-bit: Arrow's `duration[U]` (libcu++'s chrono, usable in kernels).
/// @tparam U the unit of one tick: seconds, milliseconds, microseconds or nanoseconds
template <time_unit U>
using duration = ::cuda::std::chrono::duration<std::int64_t, typename detail::unit_ratio<U>::type>;

/// @brief A point in time, `U`s since the Unix epoch, 64-bit, no time zone: Arrow's `timestamp[U]`.
/// @tparam U the unit of one tick since the epoch: seconds, milliseconds, microseconds or
/// nanoseconds (nanoseconds reach only the years 1677 to 2262)
template <time_unit U>
using timestamp = ::cuda::std::chrono::time_point<::cuda::std::chrono::system_clock, duration<U>>;

/// Timestamps and durations by unit.
using timestamp_s = timestamp<time_unit::s>;
using timestamp_ms = timestamp<time_unit::ms>;
using timestamp_us = timestamp<time_unit::us>;
using timestamp_ns = timestamp<time_unit::ns>;
using duration_s = duration<time_unit::s>;
using duration_ms = duration<time_unit::ms>;
using duration_us = duration<time_unit::us>;
using duration_ns = duration<time_unit::ns>;

/**
 * @brief The clock of Arrow's dates (`date32`, `date64`): the Unix epoch, counted in whole UTC
 * days. A tag of its own, so that a date64 (milliseconds) is a type apart from a timestamp[ms] and
 * the two keep their Arrow types through devcol; `time_point_cast` converts between the two dates.
 */
struct date_clock {};
/**
 * @brief The clock of Arrow's times of day (`time32`, `time64`): time since midnight, no date and
 * no time zone. A tag of its own, so that a time64[us] is a type apart from a duration[us].
 */
struct time_of_day_clock {};

/// @brief Arrow's `date32`: days since the Unix epoch, 32-bit.
using date32 =
    ::cuda::std::chrono::time_point<date_clock, ::cuda::std::chrono::duration<std::int32_t, ::cuda::std::ratio<86400>>>;
/// @brief Arrow's `date64`: milliseconds since the Unix epoch, 64-bit. Arrow's rule of whole days
/// (and of a time of day within the day) is checked by pyarrow's `validate(full=True)` only, not by
/// its import or casts, nor by devcol's.
using date64 =
    ::cuda::std::chrono::time_point<date_clock, ::cuda::std::chrono::duration<std::int64_t, ::cuda::std::milli>>;
/// @brief Arrow's `time32[s]` / `time32[ms]`: seconds or milliseconds since midnight, 32-bit.
using time32_s = ::cuda::std::chrono::time_point<time_of_day_clock, ::cuda::std::chrono::duration<std::int32_t>>;
using time32_ms =
    ::cuda::std::chrono::time_point<time_of_day_clock, ::cuda::std::chrono::duration<std::int32_t, ::cuda::std::milli>>;
/// @brief Arrow's `time64[us]` / `time64[ns]`: micro- or nanoseconds since midnight, 64-bit.
using time64_us = ::cuda::std::chrono::time_point<time_of_day_clock, duration_us>;
using time64_ns = ::cuda::std::chrono::time_point<time_of_day_clock, duration_ns>;

/**
 * @brief Arrow's `halffloat` (IEEE 754 binary16), held as its 16 bits: storage only. Columns of it
 * move rows (gather, filter, concatenate, null masks, interop) but do no arithmetic, compare or
 * sort (cast to float on the host for that); equality compares bits. Made from its bits
 * (`float16{0x3C00}` is 1.0) or from a number by from_float(); made from a floating-point value
 * directly, it does not compile, since C++20 would otherwise take `float16(1.0f)` as the bits 0x0001.
 */
struct float16 {
  std::uint16_t bits;  ///< sign, 5 exponent bits, 10 fraction bits

  /// @brief Uninitialised bits, as an integer's.
  float16() = default;
  /// @brief The half float of these bits.
  /// @param b sign, 5 exponent bits, 10 fraction bits
  DEVCOL_HOST_DEVICE constexpr explicit float16(std::uint16_t b) noexcept : bits(b) {}
  /// @brief Refused at compile time: a float16 is made from its bits or by from_float().
  /// @tparam F a floating-point type
  template <std::floating_point F>
  float16(F) {  // NOLINT(google-explicit-constructor): exists only to fail
    static_assert(sizeof(F) == 0, "devcol::float16 is made from its bits (float16{0x3C00} is 1.0) or by "
                                  "float16::from_float(x); float16(x) would store x's integer value as bits");
  }

 private:
  /**
   * The half float nearest the IEEE 754 binary value of bits `f` (a float's or a double's), whose
   * fraction has `FractionBits` bits: one rounding of that value's own bits.
   */
  template <class Bits, int FractionBits>
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr float16 from_bits(Bits f) noexcept {
    constexpr int total_bits = static_cast<int>(sizeof(Bits)) * 8;
    constexpr Bits exponent_ones = (Bits{1} << (total_bits - 1 - FractionBits)) - 1U;
    auto const sign = static_cast<std::uint16_t>((f >> (total_bits - 16)) & 0x8000U);
    Bits const exponent = (f >> FractionBits) & exponent_ones;
    Bits const fraction = f & ((Bits{1} << FractionBits) - 1U);
    if (exponent == exponent_ones) {  // infinity, or NaN kept quiet with its fraction's top bits
      auto const top = static_cast<std::uint32_t>(fraction >> (FractionBits - 10));
      return float16(static_cast<std::uint16_t>(sign | 0x7C00U | (fraction != 0 ? 0x200U | top : 0U)));
    }
    // Unbiased; the minimum less one for zero and subnormals, far below binary16's either way.
    int const e = static_cast<int>(exponent) - static_cast<int>(exponent_ones >> 1);
    // The value as an integer count of the result's last place (2^-24) before rounding: the
    // significand with its implicit bit, shifted to where binary16's rounding bit falls.
    if (e > 15) { return float16(static_cast<std::uint16_t>(sign | 0x7C00U)); }
    if (e < -25) { return float16(sign); }  // below half the smallest subnormal: zero
    Bits const significand = (exponent != 0 ? Bits{1} << FractionBits : Bits{0}) | fraction;
    // Normal halves keep 11 significant bits; subnormals fewer, down to 2^-24.
    int const shift = (FractionBits - 10) + (e >= -14 ? 0 : -14 - e);
    Bits kept = significand >> shift;
    Bits const rest = significand & ((Bits{1} << shift) - 1U);
    Bits const half = Bits{1} << (shift - 1);
    if (rest > half || (rest == half && (kept & 1U) != 0)) { ++kept; }  // to nearest, ties to even
    // Normal: (e + 15) << 10 plus the fraction; a carry out of the fraction moves the exponent up,
    // and out of the largest finite value into infinity, as the addition does by itself.
    Bits const magnitude = e >= -14 ? (static_cast<Bits>(e + 14) << 10) + kept : kept;
    return float16(static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(magnitude)));
  }

 public:
  /**
   * @brief The half float nearest `x`, ties to even, as IEEE 754 converts: past 65504 (and
   * rounding past it) infinity, below the smallest subnormal zero of its sign, NaN a quiet NaN
   * keeping the sign and the fraction's top bits. Host and device, constexpr, no table.
   * @param x the value
   */
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr float16 from_float(float x) noexcept {
    return from_bits<std::uint32_t, 23>(::cuda::std::bit_cast<std::uint32_t>(x));
  }
  /**
   * @brief The half float nearest the double `x`, rounded once, as from_float(float) rounds a float.
   * Without it a double would convert to float first and round twice: 1 + 2^-11 + 2^-40 lies just
   * above the midpoint of 1.0 and its next half (so 0x3C01), but as a float it is that midpoint,
   * which ties to even (0x3C00). A template, so that an integer argument still takes the float one.
   * @tparam D `double`
   * @param x the value
   */
  template <class D>
    requires std::same_as<D, double>
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr float16 from_float(D x) noexcept {
    return from_bits<std::uint64_t, 52>(::cuda::std::bit_cast<std::uint64_t>(x));
  }

  [[nodiscard]] friend constexpr bool operator==(float16 a, float16 b) noexcept { return a.bits == b.bits; }
};
/**
 * @brief The value of a half float, exactly (every binary16 value is a float). Host and device;
 * no rounding, subnormals, infinities and NaN kept.
 * @param h the half float
 */
[[nodiscard]] DEVCOL_HOST_DEVICE constexpr float to_float(float16 h) noexcept {
  std::uint32_t const sign = static_cast<std::uint32_t>(h.bits >> 15) << 31;
  std::uint32_t const exponent = (h.bits >> 10) & 0x1FU;
  std::uint32_t fraction = h.bits & 0x3FFU;
  std::uint32_t bits = 0;
  if (exponent == 0x1FU) {
    bits = sign | 0x7F800000U | (fraction << 13);  // infinity or NaN
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112U) << 23) | (fraction << 13);
  } else if (fraction != 0) {  // subnormal: normalise
    std::uint32_t e = 113U;
    while ((fraction & 0x400U) == 0) {
      fraction <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((fraction & 0x3FFU) << 13);
  } else {
    bits = sign;
  }
  return ::cuda::std::bit_cast<float>(bits);
}
/// @brief Arrow's `interval[months]` ("tiM"): a number of months, 32-bit. Storage only, as float16.
struct interval_months {
  std::int32_t months;
  [[nodiscard]] friend constexpr bool operator==(interval_months a, interval_months b) noexcept {
    return a.months == b.months;
  }
};
/// @brief Arrow's `interval[day_time]` ("tiD"): days and milliseconds, 32-bit each. Storage only.
struct interval_day_time {
  std::int32_t days;
  std::int32_t milliseconds;
  [[nodiscard]] friend constexpr bool operator==(interval_day_time a, interval_day_time b) noexcept {
    return a.days == b.days && a.milliseconds == b.milliseconds;
  }
};
/// @brief Arrow's `interval[month_day_nano]` ("tin"): months and days (32-bit), nanoseconds
/// (64-bit), 16 bytes. Storage only.
struct interval_month_day_nano {
  std::int32_t months;
  std::int32_t days;
  std::int64_t nanoseconds;
  [[nodiscard]] friend constexpr bool operator==(interval_month_day_nano a, interval_month_day_nano b) noexcept {
    return a.months == b.months && a.days == b.days && a.nanoseconds == b.nanoseconds;
  }
};
static_assert(sizeof(float16) == 2 && sizeof(interval_months) == 4 && sizeof(interval_day_time) == 8 &&
                  sizeof(interval_month_day_nano) == 16,
              "devcol: the storage types must have Arrow's value widths");

/**
 * @brief A 128-bit signed integer, usable in kernels (GCC's, Clang's and nvcc's `__int128`): the
 * representation of Arrow's decimal128, whose values buffer is 16-byte little-endian two's
 * complement — the layout of `__int128` on every target devcol builds for (x86-64, AArch64, CUDA).
 *
 * `__extension__` keeps `-Wpedantic` quiet. Under `-std=c++20` (not gnu++20) the standard library
 * does not count it as integral (`std::is_integral_v` is false), so devcol never asks that of it.
 */
__extension__ typedef __int128 int128_t;  // NOLINT(modernize-use-using): __extension__ needs a typedef
static_assert(sizeof(int128_t) == 16 && alignof(int128_t) == 16,
              "devcol::int128_t must be 16 bytes, 16-byte aligned (Arrow decimal128's layout)");

/**
 * @brief A 256-bit signed integer: the representation of Arrow's decimal256, whose values buffer is
 * 32-byte little-endian two's complement, which is this struct's layout (four 64-bit words, least
 * significant first). No compiler has a 256-bit integer, so this holds what decimals ask of their
 * values and nothing more: order and equality (host and device, what sort, compare and the other
 * fixed-width ops use), conversion from any integer, and division and remainder by a positive
 * `int` (host, what printing uses). Trivially copyable, so columns move its rows as bytes.
 */
struct int256_t {
  /// The words, least significant first; the top bit of `words[3]` is the sign.
  std::uint64_t words[4];

  /// @brief Uninitialised, as an integer is.
  int256_t() noexcept = default;
  /// @brief `v`, sign-extended: any integer, `int128_t` included (implicit, as integers widen).
  /// @tparam I an integral type or `int128_t`
  /// @param v the value
  template <class I>
    requires(std::is_integral_v<I> || std::is_same_v<I, int128_t>)
  DEVCOL_HOST_DEVICE constexpr int256_t(I v) noexcept  // NOLINT(google-explicit-constructor): widening, as integers
      : words{static_cast<std::uint64_t>(v), second_word(v), sign_word(v), sign_word(v)} {}
  /// @brief The value of four words, least significant first (two's complement).
  /// @param w0 bits 0-63
  /// @param w1 bits 64-127
  /// @param w2 bits 128-191
  /// @param w3 bits 192-255, the top one the sign
  [[nodiscard]] static constexpr int256_t from_words(std::uint64_t w0, std::uint64_t w1, std::uint64_t w2,
                                                     std::uint64_t w3) noexcept {
    int256_t out;
    out.words[0] = w0;
    out.words[1] = w1;
    out.words[2] = w2;
    out.words[3] = w3;
    return out;
  }
  /// @brief Whether the value is negative.
  [[nodiscard]] DEVCOL_HOST_DEVICE constexpr bool negative() const noexcept { return (words[3] >> 63) != 0; }
  /// @brief The greatest value, 2^255 - 1 (`numeric_limits` has no `int256_t`, and the
  /// reductions' identities ask the type, as they ask a chrono duration).
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr int256_t max() noexcept {
    int256_t out(-1);
    out.words[3] >>= 1;
    return out;
  }
  /// @brief The least value, -2^255.
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr int256_t min() noexcept {
    int256_t out(0);
    out.words[3] = std::uint64_t{1} << 63;
    return out;
  }

  /// @brief Two's-complement order: the signed top words, then the rest as unsigned.
  /// @param a the left operand
  /// @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator<(int256_t const& a, int256_t const& b) noexcept {
    if (a.words[3] != b.words[3]) {
      return static_cast<std::int64_t>(a.words[3]) < static_cast<std::int64_t>(b.words[3]);
    }
    for (int i = 2; i >= 0; --i) {
      if (a.words[i] != b.words[i]) { return a.words[i] < b.words[i]; }
    }
    return false;
  }
  /// @brief Equality of every bit. @param a the left operand @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator==(int256_t const& a, int256_t const& b) noexcept {
    return a.words[0] == b.words[0] && a.words[1] == b.words[1] && a.words[2] == b.words[2] &&
           a.words[3] == b.words[3];
  }
  /// @brief See operator==. @param a the left operand @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator!=(int256_t const& a, int256_t const& b) noexcept {
    return !(a == b);
  }
  /// @brief See operator<. @param a the left operand @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator>(int256_t const& a, int256_t const& b) noexcept {
    return b < a;
  }
  /// @brief See operator<. @param a the left operand @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator<=(int256_t const& a, int256_t const& b) noexcept {
    return !(b < a);
  }
  /// @brief See operator<. @param a the left operand @param b the right operand
  [[nodiscard]] DEVCOL_HOST_DEVICE friend constexpr bool operator>=(int256_t const& a, int256_t const& b) noexcept {
    return !(a < b);
  }

  /// @brief `a / d`, truncated toward zero as C++'s integer division (host only).
  /// @param a the dividend
  /// @param d the divisor, positive
  [[nodiscard]] friend constexpr int256_t operator/(int256_t const& a, int d) noexcept { return a.divide(d).first; }
  /// @brief `a % d`, with the sign of `a` as C++'s (host only).
  /// @param a the dividend
  /// @param d the divisor, positive
  [[nodiscard]] friend constexpr int operator%(int256_t const& a, int d) noexcept { return a.divide(d).second; }
  /// @brief `*this = *this / d`. @param d the divisor, positive
  constexpr int256_t& operator/=(int d) noexcept { return *this = *this / d; }

 private:
  // The words a value of type I extends with: all ones for a negative one, else zeros.
  template <class I>
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr std::uint64_t sign_word(I v) noexcept {
    if constexpr (std::is_same_v<I, int128_t> || std::is_signed_v<I>) {
      return v < 0 ? ~std::uint64_t{0} : std::uint64_t{0};
    } else {
      return 0;
    }
  }
  // Bits 64-127 of a value of type I: its own for int128_t, else its sign.
  template <class I>
  [[nodiscard]] DEVCOL_HOST_DEVICE static constexpr std::uint64_t second_word(I v) noexcept {
    if constexpr (std::is_same_v<I, int128_t>) {
      return static_cast<std::uint64_t>(v >> 64);
    } else {
      return sign_word(v);
    }
  }
  // Two's-complement negation: the magnitude of a negative value (the most negative one's as
  // unsigned, 2^255, which is right).
  [[nodiscard]] constexpr int256_t negated() const noexcept {
    int256_t out;
    unsigned carry = 1;
    for (int i = 0; i < 4; ++i) {
      out.words[i] = ~words[i] + carry;
      carry = carry != 0 && out.words[i] == 0 ? 1 : 0;
    }
    return out;
  }
  // Long division of the magnitude by `d`, one 64-bit word at a time from the top; the signs put
  // back as C++'s truncating division has them.
  [[nodiscard]] constexpr std::pair<int256_t, int> divide(int d) const noexcept {
    __extension__ typedef unsigned __int128 wide;  // NOLINT(modernize-use-using): __extension__ needs a typedef
    bool const neg = negative();
    int256_t q = neg ? negated() : *this;
    wide rem = 0;
    for (int i = 3; i >= 0; --i) {
      wide const cur = (rem << 64) | q.words[i];
      q.words[i] = static_cast<std::uint64_t>(cur / static_cast<wide>(d));
      rem = cur % static_cast<wide>(d);
    }
    int const r = static_cast<int>(rem);
    return {neg ? q.negated() : q, neg ? -r : r};
  }
};
static_assert(sizeof(int256_t) == 32 && std::is_trivially_copyable_v<int256_t>,
              "devcol::int256_t must be 32 bytes, trivially copyable (Arrow decimal256's layout)");

/**
 * @brief What devcol knows of a fixed-width element type `T`; specialised for each supported type.
 *
 * `format` is the Arrow C Data Interface format string. `bool` is stored one byte per row, as
 * libcudf's BOOL8; Arrow packs booleans one bit per row (`arrow_bit_packed`), so exporting a bool
 * column packs it (a copy), while every other type exports as it is.
 * @tparam T the element type described; the primary template, for unsupported types, has only
 *         `supported = false`
 */
template <class T>
struct type_traits {
  static constexpr bool supported = false;
};

namespace detail {
template <class T, char const* Format, char const* Name, bool BitPacked = false>
struct fixed_width_traits {
  static constexpr bool supported = true;
  static constexpr std::string_view format = Format;  ///< Arrow format string
  static constexpr std::string_view name = Name;      ///< readable name, as printed
  static constexpr bool arrow_bit_packed = BitPacked;
  static constexpr bool arrow_primitive = true;  ///< an Arrow type of its own (format above)
};
inline constexpr char fmt_c[] = "c", fmt_C[] = "C", fmt_s[] = "s", fmt_S[] = "S", fmt_i[] = "i", fmt_I[] = "I",
                      fmt_l[] = "l", fmt_L[] = "L", fmt_f[] = "f", fmt_g[] = "g", fmt_b[] = "b", fmt_tss[] = "tss:",
                      fmt_tsm[] = "tsm:", fmt_tsu[] = "tsu:", fmt_tsn[] = "tsn:", fmt_tDs[] = "tDs", fmt_tDm[] = "tDm",
                      fmt_tDu[] = "tDu", fmt_tDn[] = "tDn", fmt_tdD[] = "tdD", fmt_tdm[] = "tdm",
                      fmt_tts[] = "tts", fmt_ttm[] = "ttm", fmt_ttu[] = "ttu", fmt_ttn[] = "ttn", fmt_e[] = "e",
                      fmt_tiM[] = "tiM", fmt_tiD[] = "tiD", fmt_tin[] = "tin";
inline constexpr char name_i8[] = "int8", name_u8[] = "uint8", name_i16[] = "int16", name_u16[] = "uint16",
                      name_i32[] = "int32", name_u32[] = "uint32", name_i64[] = "int64", name_u64[] = "uint64",
                      name_f32[] = "float32", name_f64[] = "float64", name_bool[] = "bool", name_tss[] = "timestamp[s]",
                      name_tsm[] = "timestamp[ms]", name_tsu[] = "timestamp[us]", name_tsn[] = "timestamp[ns]",
                      name_tDs[] = "duration[s]", name_tDm[] = "duration[ms]", name_tDu[] = "duration[us]",
                      name_tDn[] = "duration[ns]", name_tdD[] = "date32[day]", name_tdm[] = "date64[ms]",
                      name_tts[] = "time32[s]", name_ttm[] = "time32[ms]", name_ttu[] = "time64[us]",
                      name_ttn[] = "time64[ns]", name_f16[] = "halffloat", name_tiM[] = "month_interval",
                      name_tiD[] = "day_time_interval", name_tin[] = "month_day_nano_interval";
}  // namespace detail

// clang-format off
template <> struct type_traits<std::int8_t>   : detail::fixed_width_traits<std::int8_t,   detail::fmt_c, detail::name_i8>  {};
template <> struct type_traits<std::uint8_t>  : detail::fixed_width_traits<std::uint8_t,  detail::fmt_C, detail::name_u8>  {};
template <> struct type_traits<std::int16_t>  : detail::fixed_width_traits<std::int16_t,  detail::fmt_s, detail::name_i16> {};
template <> struct type_traits<std::uint16_t> : detail::fixed_width_traits<std::uint16_t, detail::fmt_S, detail::name_u16> {};
template <> struct type_traits<std::int32_t>  : detail::fixed_width_traits<std::int32_t,  detail::fmt_i, detail::name_i32> {};
template <> struct type_traits<std::uint32_t> : detail::fixed_width_traits<std::uint32_t, detail::fmt_I, detail::name_u32> {};
template <> struct type_traits<std::int64_t>  : detail::fixed_width_traits<std::int64_t,  detail::fmt_l, detail::name_i64> {};
template <> struct type_traits<std::uint64_t> : detail::fixed_width_traits<std::uint64_t, detail::fmt_L, detail::name_u64> {};
template <> struct type_traits<float>         : detail::fixed_width_traits<float,         detail::fmt_f, detail::name_f32> {};
template <> struct type_traits<double>        : detail::fixed_width_traits<double,        detail::fmt_g, detail::name_f64> {};
template <> struct type_traits<bool>          : detail::fixed_width_traits<bool,          detail::fmt_b, detail::name_bool, true> {};
template <> struct type_traits<timestamp_s>   : detail::fixed_width_traits<timestamp_s,   detail::fmt_tss, detail::name_tss> {};
template <> struct type_traits<timestamp_ms>  : detail::fixed_width_traits<timestamp_ms,  detail::fmt_tsm, detail::name_tsm> {};
template <> struct type_traits<timestamp_us>  : detail::fixed_width_traits<timestamp_us,  detail::fmt_tsu, detail::name_tsu> {};
template <> struct type_traits<timestamp_ns>  : detail::fixed_width_traits<timestamp_ns,  detail::fmt_tsn, detail::name_tsn> {};
template <> struct type_traits<duration_s>    : detail::fixed_width_traits<duration_s,    detail::fmt_tDs, detail::name_tDs> {};
template <> struct type_traits<duration_ms>   : detail::fixed_width_traits<duration_ms,   detail::fmt_tDm, detail::name_tDm> {};
template <> struct type_traits<duration_us>   : detail::fixed_width_traits<duration_us,   detail::fmt_tDu, detail::name_tDu> {};
template <> struct type_traits<duration_ns>   : detail::fixed_width_traits<duration_ns,   detail::fmt_tDn, detail::name_tDn> {};
template <> struct type_traits<date32>        : detail::fixed_width_traits<date32,        detail::fmt_tdD, detail::name_tdD> {};
template <> struct type_traits<date64>        : detail::fixed_width_traits<date64,        detail::fmt_tdm, detail::name_tdm> {};
template <> struct type_traits<time32_s>      : detail::fixed_width_traits<time32_s,      detail::fmt_tts, detail::name_tts> {};
template <> struct type_traits<time32_ms>     : detail::fixed_width_traits<time32_ms,     detail::fmt_ttm, detail::name_ttm> {};
template <> struct type_traits<time64_us>     : detail::fixed_width_traits<time64_us,     detail::fmt_ttu, detail::name_ttu> {};
template <> struct type_traits<time64_ns>     : detail::fixed_width_traits<time64_ns,     detail::fmt_ttn, detail::name_ttn> {};
template <> struct type_traits<float16>       : detail::fixed_width_traits<float16,       detail::fmt_e,   detail::name_f16> {};
template <> struct type_traits<interval_months>
    : detail::fixed_width_traits<interval_months, detail::fmt_tiM, detail::name_tiM> {};
template <> struct type_traits<interval_day_time>
    : detail::fixed_width_traits<interval_day_time, detail::fmt_tiD, detail::name_tiD> {};
template <> struct type_traits<interval_month_day_nano>
    : detail::fixed_width_traits<interval_month_day_nano, detail::fmt_tin, detail::name_tin> {};
// clang-format on

/// Calls `M(T)` for each of the 29 Arrow fixed-width value types above, in any_column's order: the
/// one list behind the precompiled mode's declarations (core/config.hpp), which C++ can only spell
/// one instantiation at a time. test/column/test_table.cpp checks it against any_column's
/// alternatives.
#define DEVCOL_FOR_EACH_FIXED_WIDTH_TYPE(M)                                                        \
  M(std::int8_t) M(std::int16_t) M(std::int32_t) M(std::int64_t) M(std::uint8_t) M(std::uint16_t)  \
  M(std::uint32_t) M(std::uint64_t) M(float) M(double) M(bool) M(timestamp_s) M(timestamp_ms)      \
  M(timestamp_us) M(timestamp_ns) M(duration_s) M(duration_ms) M(duration_us) M(duration_ns)       \
  M(date32) M(date64) M(time32_s) M(time32_ms) M(time64_us) M(time64_ns) M(float16)                \
  M(interval_months) M(interval_day_time) M(interval_month_day_nano)

namespace detail {
/// What the decimal representations (`int128_t`, `int256_t`) share: fixed-width element types
/// with no Arrow format of their own (their Arrow kind is the decimal column's).
struct decimal_storage_traits {
  static constexpr bool supported = true;
  static constexpr std::string_view format = "";  ///< none: see arrow_primitive
  static constexpr bool arrow_bit_packed = false;
  static constexpr bool arrow_primitive = false;
};
}  // namespace detail

/**
 * @brief `int128_t` is a fixed-width type, so `column<int128_t>` and the fixed-width ops (gather,
 * filter, concatenate, compare, sort, null masks) serve decimal128 columns. Arrow has no 128-bit
 * integer type: it is not `arrow_primitive` — not exported, imported or held by a table on its own
 * (`decimal128_column` is the Arrow kind: "d:P,S").
 */
template <>
struct type_traits<int128_t> : detail::decimal_storage_traits {
  static constexpr std::string_view name = "int128";
};

/**
 * @brief `int256_t` is a fixed-width type, as `int128_t` is: `column<int256_t>` and the fixed-width
 * ops that need only order and equality (gather, filter, concatenate, compare, sort, null masks)
 * serve decimal256 columns; not an Arrow type of its own (`decimal256_column` is: "d:P,S,256").
 */
template <>
struct type_traits<int256_t> : detail::decimal_storage_traits {
  static constexpr std::string_view name = "int256";
};

/// @brief Satisfied by the fixed-width element types devcol columns hold.
/// @tparam T the type tested; cv-qualifiers are ignored, and it must be trivially copyable since
/// rows are moved as bytes
template <class T>
concept fixed_width = type_traits<std::remove_cv_t<T>>::supported && std::is_trivially_copyable_v<T>;

/// @brief Satisfied by the fixed-width types whose rows have an order (`<`), which sort, argsort,
/// is_sorted, compare, min, max and minmax need: every one but the storage-only `float16` and
/// intervals (Arrow compute has no order for them either).
/// @tparam T the type tested; cv-qualifiers are ignored
template <class T>
concept ordered_fixed_width = fixed_width<T> && requires(T const& a) {
  { a < a } -> std::convertible_to<bool>;
};

/// @brief Satisfied by the fixed-width types that are an Arrow primitive type of their own (every
/// fixed-width type but `int128_t`): what `to_arrow`/`from_arrow` of a `column<T>` and a table take.
/// @tparam T the type tested; cv-qualifiers are ignored
template <class T>
concept arrow_fixed_width = fixed_width<T> && type_traits<std::remove_cv_t<T>>::arrow_primitive;

/// @brief The Arrow format string of `T` (e.g. "l" for int64, "tsm:" for timestamp[ms]).
/// @tparam T a fixed-width type; empty for `int128_t`, which has no Arrow type of its own
template <fixed_width T>
inline constexpr std::string_view arrow_format_v = type_traits<T>::format;

/// @brief The readable name of `T` (e.g. "int64", "timestamp[ms]").
/// @tparam T a fixed-width type
template <fixed_width T>
inline constexpr std::string_view type_name_v = type_traits<T>::name;

DEVCOL_NAMESPACE_END
