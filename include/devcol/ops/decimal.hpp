/**
 * @file decimal.hpp
 * @brief The ops of decimal columns: gather, filter, concatenate, compare, sort / argsort /
 * is_sorted, is_null / is_valid, fill_null — each the fixed-width op on the unscaled values, with
 * the precision and scale carried over (and checked where two inputs meet).
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/compare.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>
#include <devcol/ops/null_mask.hpp>
#include <devcol/ops/sort.hpp>

#include <concepts>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

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
 * @brief Row `indices[i]` of `col` for each `i`, as gather(column) does (one pass; checks and
 * null counting synchronise), with `col`'s precision and scale; memory from `col`'s resource.
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <decimal_rep Rep, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] decimal_column<Rep, Policy> gather(decimal_column<Rep, Policy> const& col,
                                                 column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                 out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::gather(col.values(), indices, stream, policy), col.precision(),
                                     col.scale());
}

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), as filter(column)
 * does (counting the kept rows synchronises `stream`).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> filter(decimal_column<Rep, Policy> const& col,
                                                 column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::filter(col.values(), keep, stream), col.precision(), col.scale());
}

/**
 * @brief The rows of every column in `cols`, one after the other, as concatenate(column) does
 * (one copy per input; with nulls, one pass over the mask and a synchronisation), in memory from
 * the first's resource. An empty list gives an empty column.
 * @throws devcol::logic_error naming both types when two inputs differ in precision or scale
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> concatenate(std::span<decimal_column<Rep, Policy> const> cols,
                                                      stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return decimal_column<Rep, Policy>{}; }
  std::vector<column<Rep, Policy>> values;
  values.reserve(cols.size());
  for (auto const& c : cols) {
    DEVCOL_EXPECTS(c.precision() == cols.front().precision() && c.scale() == cols.front().scale(),
                   "concatenate: ", cols.front().type_name(), " and ", c.type_name(), " differ");
    values.push_back(c.values());  // shares: O(1)
  }
  return decimal_column<Rep, Policy>(devcol::concatenate(values, stream), cols.front().precision(),
                                     cols.front().scale());
}

/// @brief concatenate() of a vector of decimal columns.
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> concatenate(std::vector<decimal_column<Rep, Policy>> const& cols,
                                                      stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<decimal_column<Rep, Policy> const>(cols), stream);
}

/**
 * @brief `row op unscaled` for every row, `unscaled` being a value at `col`'s scale (so 1234 at
 * scale 2 is 12.34): a bool column, null where `col` is null. One pass, no synchronisation.
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
 * @throws devcol::logic_error naming both types when the scales differ, or both sizes if they differ
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<bool, Policy> compare(decimal_column<Rep, Policy> const& a, cmp op,
                                           decimal_column<Rep, Policy> const& b, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_scale(a, b, "compare");
  return devcol::compare(a.values(), op, b.values(), stream);
}

/// @brief The row numbers that put `col` in order, stable, as argsort(column) does (same costs).
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<std::int64_t, Policy> argsort(decimal_column<Rep, Policy> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::argsort(col.values(), direction, stream, nulls);
}

/// @brief `col` in order, stable, nulls first or last, as sort(column) does, with its precision and scale.
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> sort(decimal_column<Rep, Policy> const& col,
                                               order direction = order::ascending, stream_ref stream = {},
                                               null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::sort(col.values(), direction, stream, nulls), col.precision(),
                                     col.scale());
}

/// @brief Whether `col` is in order, nulls placed as asked: one pass. Synchronises `stream`.
template <decimal_rep Rep, class Policy>
[[nodiscard]] bool is_sorted(decimal_column<Rep, Policy> const& col, order direction = order::ascending,
                             stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::is_sorted(col.values(), direction, stream, nulls);
}

/// @brief A bool column, true where `col` is null; no mask. One pass, no synchronisation.
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<bool, Policy> is_null(decimal_column<Rep, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::is_null(col.values(), stream);
}

/// @brief A bool column, true where `col` is valid; no mask. One pass, no synchronisation.
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<bool, Policy> is_valid(decimal_column<Rep, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::is_valid(col.values(), stream);
}

/// @brief `col` with every null replaced by `unscaled` (a value at `col`'s scale), without a mask:
/// one pass, no synchronisation (none without nulls: the values are shared).
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> fill_null(decimal_column<Rep, Policy> const& col, Rep unscaled,
                                                    stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::fill_null(col.values(), unscaled, stream), col.precision(), col.scale());
}

DEVCOL_NAMESPACE_END
