/**
 * @file decimal.hpp
 * @brief filter of decimal columns: the fixed-width filter of the unscaled values. Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), as filter(column)
 * does (counting the kept rows synchronises `stream`).
 * @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> filter(decimal_column<Rep, Policy> const& col,
                                                 column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::filter(col.values(), keep, stream), col.precision(), col.scale());
}

DEVCOL_NAMESPACE_END
