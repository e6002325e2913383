/**
 * @file kinds.hpp
 * @brief Which column kind a type is, as the ops' dispatchers and their compile-time refusals ask:
 * strings, decimal, fixed-size binary (plain fixed-width and nested kinds are told apart by
 * column/detail/any_column_fwd.hpp), and the `static_assert` condition of an op a kind lacks.
 */
#pragma once

#include <devcol/column/detail/any_column_fwd.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether `C` is a strings column (`strings_column` or `large_strings_column`).
template <class C>
inline constexpr bool is_strings_kind = false;
template <arrow_offset O, class Policy>
inline constexpr bool is_strings_kind<basic_strings_column<O, Policy>> = true;

/// Whether `C` is a decimal column (`decimal32_column`, `decimal64_column`, `decimal128_column`).
template <class C>
inline constexpr bool is_decimal_kind = false;
template <decimal_rep Rep, class Policy>
inline constexpr bool is_decimal_kind<decimal_column<Rep, Policy>> = true;

/// Whether `C` is a fixed-size binary column.
template <class C>
inline constexpr bool is_fixed_size_binary_kind = false;
template <class Policy>
inline constexpr bool is_fixed_size_binary_kind<fixed_size_binary_column<Policy>> = true;

/// Whether `C` is one of the column kinds `any_column` holds (a column, not the variant itself).
template <class C>
inline constexpr bool is_any_kind =
    is_plain_column<C> || is_strings_kind<C> || is_decimal_kind<C> || is_fixed_size_binary_kind<C> || is_nested_kind<C>;

/// False for every `C`, but only once `C` is known: the condition of the `static_assert` in the
/// overload that stands for an op on a kind without it, which fires only when that overload is
/// chosen (a compile error naming the op, not a run-time throw).
template <class C>
inline constexpr bool kind_has_no = false;

}  // namespace detail

DEVCOL_NAMESPACE_END
