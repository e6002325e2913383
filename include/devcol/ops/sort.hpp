/**
 * @file sort.hpp
 * @brief `devcol::sort`, `devcol::argsort` (both stable) and `devcol::is_sorted` of fixed-width,
 * strings and decimal columns.
 *
 * Floating point is ordered as Arrow compute's `sort_indices` orders it: numbers by value, -0.0 and
 * 0.0 tied (so they keep their row order), infinities and denormals as ordinary values; NaN rows
 * (any sign or payload) go beside the nulls, on the side `null_order` names, in row order, with the
 * nulls outermost. Ascending, nulls last: numbers, NaN, nulls; nulls first: nulls, NaN, numbers;
 * descending alike (numbers from the greatest). cuDF instead orders NaN as greater than every
 * number (so first when descending, whatever the null order): devcol follows Arrow, its interop
 * peer. `is_sorted` tests the same order. Strings order bytewise (bytes as unsigned, a prefix
 * first); decimals by their unscaled values (one scale per column).
 *
 * Each kind's bodies are in ops/detail/sort/<kind>.hpp. An op of this header on a kind without it
 * (fixed-size binary, list, struct, dictionary), or on a column of `float16` or an interval type
 * (storage only, without an order), is a compile error naming the op, not a run-time throw.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/ops/detail/kinds.hpp>
#include <devcol/ops/detail/sort/decimal.hpp>
#include <devcol/ops/detail/sort/fixed_width.hpp>
#include <devcol/ops/detail/sort/strings.hpp>

DEVCOL_NAMESPACE_BEGIN
/**
 * @brief Stand for sort(), argsort() and is_sorted() of a kind without an order (fixed-size binary,
 * list, struct, dictionary): each is a compile error naming the op.
 * @tparam C the column kind, one without an order
 */
template <class C, class... Args> requires detail::lacks_value_order<C>
void sort(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>, "devcol::sort: this column kind has no sort (fixed-width, strings and decimal columns have one)");
}
/// @brief See sort() of a kind without an order. @tparam C the column kind
template <class C, class... Args> requires detail::lacks_value_order<C>
void argsort(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>, "devcol::argsort: this column kind has no argsort (fixed-width, strings and decimal columns have one)");
}
/// @brief See sort() of a kind without an order. @tparam C the column kind
template <class C, class... Args> requires detail::lacks_value_order<C>
void is_sorted(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>, "devcol::is_sorted: this column kind has no is_sorted (fixed-width, strings and decimal columns have one)");
}

/**
 * @brief Stand for sort(), argsort() and is_sorted() of a column of a storage-only type (`float16`,
 * the intervals), whose rows have no order: each is a compile error naming the op.
 * @tparam T the element type, one without `<`
 * @tparam Policy the column's buffer policy
 */
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void sort(column<T, Policy> const&, Args const&...) {
  static_assert(detail::kind_has_no<T>, "devcol::sort: float16 and the intervals have no order (cast a float16 column to float first)");
}
/// @brief See sort() of a storage-only type. @tparam T the element type @tparam Policy the buffer policy
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void argsort(column<T, Policy> const&, Args const&...) {
  static_assert(detail::kind_has_no<T>, "devcol::argsort: float16 and the intervals have no order (cast a float16 column to float first)");
}
/// @brief See sort() of a storage-only type. @tparam T the element type @tparam Policy the buffer policy
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void is_sorted(column<T, Policy> const&, Args const&...) {
  static_assert(detail::kind_has_no<T>, "devcol::is_sorted: float16 and the intervals have no order (cast a float16 column to float first)");
}

DEVCOL_NAMESPACE_END
