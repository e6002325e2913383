/**
 * @file decimal.hpp
 * @brief fill_null of decimal columns: the fixed-width fill_null of the unscaled values. Users include devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/ops/detail/null_mask/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

DEVCOL_NAMESPACE_BEGIN

/// @brief `col` with every null replaced by `unscaled` (a value at `col`'s scale), without a mask:
/// one pass, no synchronisation (none without nulls: the values are shared).
/// @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param unscaled a value at `col`'s scale (1234 at scale 2 is 12.34)
/// @param stream the stream the work is ordered on
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> fill_null(decimal_column<Rep, Policy> const& col, Rep unscaled,
                                                    stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return decimal_column<Rep, Policy>(devcol::fill_null(col.values(), unscaled, stream), col.precision(), col.scale());
}

DEVCOL_NAMESPACE_END
