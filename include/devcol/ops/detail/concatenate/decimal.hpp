/**
 * @file decimal.hpp
 * @brief concatenate of decimal columns: the fixed-width concatenate of the unscaled values, once
 * every input has the first's precision and scale. Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/ops/detail/concatenate/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <span>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of every column in `cols`, one after the other, as concatenate(column) does
 * (one copy per input; with nulls, one pass over the mask and a synchronisation), in memory from
 * the first's resource. An empty list gives an empty column.
 * @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
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
/// @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
/// @tparam Policy the buffer policy of the input and of the result
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <decimal_rep Rep, class Policy>
[[nodiscard]] decimal_column<Rep, Policy> concatenate(std::vector<decimal_column<Rep, Policy>> const& cols,
                                                      stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<decimal_column<Rep, Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
