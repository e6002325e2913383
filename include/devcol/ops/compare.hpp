/**
 * @file compare.hpp
 * @brief `devcol::compare`: a column against a scalar or another column, to a bool column.
 *
 * Floating point compares as IEEE 754 does, as Arrow compute's `equal`, `less`, ... do: NaN is
 * unequal to everything, itself included (`not_equal` is true, every other comparison false);
 * -0.0 equals 0.0; infinities and denormals compare by value. (sort() orders NaN instead: it needs
 * a total order, comparisons do not.)
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/transform.hpp>

DEVCOL_NAMESPACE_BEGIN

/// @brief A comparison.
enum class cmp { equal, not_equal, less, less_equal, greater, greater_equal };

namespace detail {
template <class T, class U = T>
struct compare_with {
  cmp op;
  DEVCOL_HOST_DEVICE bool operator()(T const& x, U const& y) const {
    switch (op) {
      case cmp::equal: return x == y;
      case cmp::not_equal: return x != y;
      case cmp::less: return x < y;
      case cmp::less_equal: return x <= y;
      case cmp::greater: return x > y;
      case cmp::greater_equal: return x >= y;
    }
    return false;
  }
};
template <class T>
struct compare_to_scalar {
  cmp op;
  T scalar;
  DEVCOL_HOST_DEVICE bool operator()(T const& x) const { return compare_with<T>{op}(x, scalar); }
};
}  // namespace detail

/**
 * @brief `row op value` for every row: a bool column, null where `col` is null. One pass, in order
 * on `stream`, no synchronisation.
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> compare(column<T, Policy> const& col, cmp op, T value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::transform(col, detail::compare_to_scalar<T>{op, value}, stream);
}

/**
 * @brief `a_row op b_row` for every row: a bool column, null where either is null (see the binary
 * transform for the cost of combining two masks).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> compare(column<T, Policy> const& a, cmp op, column<T, Policy> const& b,
                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::transform(a, b, detail::compare_with<T>{op}, stream);
}

DEVCOL_NAMESPACE_END
