/**
 * @file compare.hpp
 * @brief `devcol::compare`: a column against a scalar or another column, to a bool column, for
 * fixed-width, strings and decimal columns.
 *
 * Floating point compares as IEEE 754 does, as Arrow compute's `equal`, `less`, ... do: NaN is
 * unequal to everything, itself included (`not_equal` is true, every other comparison false);
 * -0.0 equals 0.0; infinities and denormals compare by value. (sort() orders NaN instead: it needs
 * a total order, comparisons do not.) Strings compare bytewise, bytes as unsigned, a prefix first,
 * as Arrow and cuDF order them; decimals compare their unscaled values, at one scale.
 *
 * Each kind's compare is in ops/detail/compare/<kind>.hpp. compare of a kind without one is a
 * compile error naming the op, not a run-time throw.
 */
#pragma once

#include <devcol/core/config.hpp>
#include <devcol/ops/detail/compare/decimal.hpp>
#include <devcol/ops/detail/compare/fixed_width.hpp>
#include <devcol/ops/detail/compare/strings.hpp>
#include <devcol/ops/detail/kinds.hpp>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Stands for compare() of a kind without one (fixed-size binary, list, struct, dictionary):
 * a compile error.
 * @tparam C the column kind, one without a compare
 */
template <class C, class... Args> requires detail::lacks_value_order<C>
void compare(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>, "devcol::compare: this column kind has no compare (fixed-width, strings and decimal columns have one)");
}

/**
 * @brief Stands for compare() of a column of a storage-only type (`float16`, the intervals), whose
 * rows have no order: a compile error.
 * @tparam T the element type, one without `<`
 * @tparam Policy the column's buffer policy
 */
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void compare(column<T, Policy> const&, Args const&...) {
  static_assert(detail::kind_has_no<T>, "devcol::compare: float16 and the intervals have no order (cast a float16 column to float first)");
}

DEVCOL_NAMESPACE_END
