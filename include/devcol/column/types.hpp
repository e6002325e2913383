/**
 * @file types.hpp
 * @brief The fixed-width element types a column can hold, with their Arrow format strings.
 */
#pragma once

#include <devcol/core/config.hpp>

#include <cuda/std/chrono>
#include <cuda/std/ratio>

#include <cstdint>
#include <string_view>
#include <type_traits>

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
                      fmt_tDu[] = "tDu", fmt_tDn[] = "tDn";
inline constexpr char name_i8[] = "int8", name_u8[] = "uint8", name_i16[] = "int16", name_u16[] = "uint16",
                      name_i32[] = "int32", name_u32[] = "uint32", name_i64[] = "int64", name_u64[] = "uint64",
                      name_f32[] = "float32", name_f64[] = "float64", name_bool[] = "bool", name_tss[] = "timestamp[s]",
                      name_tsm[] = "timestamp[ms]", name_tsu[] = "timestamp[us]", name_tsn[] = "timestamp[ns]",
                      name_tDs[] = "duration[s]", name_tDm[] = "duration[ms]", name_tDu[] = "duration[us]",
                      name_tDn[] = "duration[ns]";
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
// clang-format on

/**
 * @brief `int128_t` is a fixed-width type, so `column<int128_t>` and the fixed-width ops (gather,
 * filter, concatenate, compare, sort, null masks) serve decimal128 columns. Arrow has no 128-bit
 * integer type: it is not `arrow_primitive` — not exported, imported or held by a table on its own
 * (`decimal128_column` is the Arrow kind: "d:P,S").
 */
template <>
struct type_traits<int128_t> {
  static constexpr bool supported = true;
  static constexpr std::string_view format = "";  ///< none: see arrow_primitive
  static constexpr std::string_view name = "int128";
  static constexpr bool arrow_bit_packed = false;
  static constexpr bool arrow_primitive = false;
};

/// @brief Satisfied by the fixed-width element types devcol columns hold.
/// @tparam T the type tested; cv-qualifiers are ignored, and it must be trivially copyable since
/// rows are moved as bytes
template <class T>
concept fixed_width = type_traits<std::remove_cv_t<T>>::supported && std::is_trivially_copyable_v<T>;

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
