/**
 * @file kinds.hpp
 * @brief The kind predicates the ops' dispatchers and their compile-time refusals ask, read from
 * the kind registry (column/kind.hpp), and the `static_assert` condition of an op a kind lacks.
 */
#pragma once

#include <devcol/column/kind.hpp>
#include <devcol/core/config.hpp>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether `C` has the strings layout (offsets and bytes): a strings or a binary column, large or
/// not. Both kinds share every op body; only their Arrow type differs.
template <class C>
inline constexpr bool is_strings_kind = of_kind<C, kind::strings> || of_kind<C, kind::binary>;
/// Whether `C` is a decimal column (`decimal32_column`, `decimal64_column`, `decimal128_column`).
template <class C>
inline constexpr bool is_decimal_kind = of_kind<C, kind::decimal>;
/// Whether `C` is a fixed-size binary column.
template <class C>
inline constexpr bool is_fixed_size_binary_kind = of_kind<C, kind::fixed_size_binary>;
/// Whether `C` is one of the column kinds `any_column` holds (a column, not the variant itself).
template <class C>
inline constexpr bool is_any_kind = requires { kind_traits<C>::value; };

/// Whether `C` is a kind whose rows are not values with an order: fixed-size binary, list, struct
/// and dictionary (fixed-width, strings, binary and decimal rows are). They have no sort, argsort,
/// is_sorted, compare or fill_null.
template <class C>
inline constexpr bool lacks_value_order = is_any_kind<C> && !is_plain_column<C> && !is_strings_kind<C> &&
                                          !is_decimal_kind<C>;

/// False for every `C`, but only once `C` is known: the condition of the `static_assert` in the
/// overload that stands for an op on a kind without it, which fires only when that overload is
/// chosen (a compile error naming the op, not a run-time throw).
template <class C>
inline constexpr bool kind_has_no = false;

}  // namespace detail

DEVCOL_NAMESPACE_END
