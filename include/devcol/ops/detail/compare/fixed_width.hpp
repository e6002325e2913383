/**
 * @file fixed_width.hpp
 * @brief compare of fixed-width columns, and the comparison (`cmp`, `compare_with`) that every
 * kind's compare shares. Users include devcol/ops/compare.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
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
/// One comparison, fixed at compile time: no switch per row, so the loop vectorises.
template <cmp Op>
struct compare_as {
  template <class T, class U>
  DEVCOL_HOST_DEVICE bool operator()(T const& x, U const& y) const {
    if constexpr (Op == cmp::equal) {
      return x == y;
    } else if constexpr (Op == cmp::not_equal) {
      return x != y;
    } else if constexpr (Op == cmp::less) {
      return x < y;
    } else if constexpr (Op == cmp::less_equal) {
      return x <= y;
    } else if constexpr (Op == cmp::greater) {
      return x > y;
    } else {
      return x >= y;
    }
  }
};
template <cmp Op, class T>
struct compare_to_scalar_as {
  T scalar;
  DEVCOL_HOST_DEVICE bool operator()(T const& x) const { return compare_as<Op>{}(x, scalar); }
};
/// Calls `f(compare_as<op>{})`: the comparison chosen once per call rather than once per row.
template <class F>
decltype(auto) with_comparison(cmp op, F&& f) {
  DEVCOL_EXPECTS_ENUMERATOR(op, cmp::greater_equal, "compare", "cmp");
  switch (op) {
    case cmp::equal: return f(compare_as<cmp::equal>{});
    case cmp::not_equal: return f(compare_as<cmp::not_equal>{});
    case cmp::less: return f(compare_as<cmp::less>{});
    case cmp::less_equal: return f(compare_as<cmp::less_equal>{});
    case cmp::greater: return f(compare_as<cmp::greater>{});
    case cmp::greater_equal: break;
  }
  return f(compare_as<cmp::greater_equal>{});
}
}  // namespace detail

/**
 * @brief `row op value` for every row: a bool column, null where `col` is null. One pass, in order
 * on `stream`, no synchronisation.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param op the comparison
 * @param value the value
 * @param stream the stream the work is ordered on
 */
template <ordered_fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> compare(column<T, Policy> const& col, cmp op, T value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::with_comparison(op, [&]<cmp Op>(detail::compare_as<Op>) {
    return devcol::transform(col, detail::compare_to_scalar_as<Op, T>{value}, stream);
  });
}

/**
 * @brief `a_row op b_row` for every row: a bool column, null where either is null (see the binary
 * transform for the cost of combining two masks).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param a the left operand
 * @param op the comparison
 * @param b the right operand, of `a`'s size
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <ordered_fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> compare(column<T, Policy> const& a, cmp op, column<T, Policy> const& b,
                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(a.size(), b.size(), "compare");
  return detail::with_comparison(
      op, [&]<cmp Op>(detail::compare_as<Op> as) { return devcol::transform(a, b, as, stream); });
}

DEVCOL_NAMESPACE_END
