/**
 * @file decimal.hpp
 * @brief compare of decimal columns: the fixed-width compare of the unscaled values, at one scale. Users include devcol/ops/compare.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/ops/detail/compare/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <string_view>

DEVCOL_NAMESPACE_BEGIN

namespace detail {
/// Throws unless two decimal inputs of `op` have the same scale (their unscaled values compare
/// only then), naming both types.
template <class A, class B>
void expect_same_scale(A const& a, B const& b, std::string_view op) {
  DEVCOL_EXPECTS(a.scale() == b.scale(), op, ": ", a.type_name(), " and ", b.type_name(),
                 " have different scales (rescale one first)");
}
}  // namespace detail

/**
 * @brief `row op unscaled` for every row, `unscaled` being a value at `col`'s scale (so 1234 at
 * scale 2 is 12.34): a bool column, null where `col` is null. One pass, no synchronisation.
 * @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param op the comparison
 * @param unscaled a value at `col`'s scale (1234 at scale 2 is 12.34)
 * @param stream the stream the work is ordered on
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<bool, Policy> compare(decimal_column<Rep, Policy> const& col, cmp op, Rep unscaled,
                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::compare(col.values(), op, unscaled, stream);
}

/**
 * @brief `a_row op b_row` for every row of two decimals of the same scale (precisions may differ):
 * a bool column, null where either is null.
 * @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy the buffer policy of the input and of the result
 * @param a the left operand
 * @param op the comparison
 * @param b the right operand, of `a`'s size
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the scales differ, or both sizes if they differ
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<bool, Policy> compare(decimal_column<Rep, Policy> const& a, cmp op,
                                           decimal_column<Rep, Policy> const& b, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_scale(a, b, "compare");
  return devcol::compare(a.values(), op, b.values(), stream);
}

DEVCOL_NAMESPACE_END
