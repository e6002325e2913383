/**
 * @file decimal.hpp
 * @brief sort, argsort and is_sorted of decimal columns: the fixed-width ones over the unscaled
 * values (one scale per column, so they order as the decimals do). Users include devcol/ops/sort.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/ops/detail/sort/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <cstdint>

DEVCOL_NAMESPACE_BEGIN

/// @brief The row numbers that put `col` in order, stable, as argsort(column) does (same costs).
/// @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <decimal_rep Rep, class Policy>
[[nodiscard]] column<std::int64_t, Policy> argsort(decimal_column<Rep, Policy> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::argsort(col.values(), direction, stream, nulls);
}

/// @brief `col` in order, stable, nulls first or last, as sort(column) does, with its precision and scale.
/// @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> sort(decimal_column<Rep, Policy> const& col,
                                               order direction = order::ascending, stream_ref stream = {},
                                               null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::sort(col.values(), direction, stream, nulls), col.precision(),
                                     col.scale());
}

/// @brief Whether `col` is in order, nulls placed as asked: one pass. Synchronises `stream`.
/// @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <decimal_rep Rep, class Policy>
[[nodiscard]] bool is_sorted(decimal_column<Rep, Policy> const& col, order direction = order::ascending,
                             stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::is_sorted(col.values(), direction, stream, nulls);
}

DEVCOL_NAMESPACE_END
