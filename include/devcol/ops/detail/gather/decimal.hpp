/**
 * @file decimal.hpp
 * @brief gather of decimal columns: the fixed-width gather of the unscaled values, precision and
 * scale carried over. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <concepts>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Row `indices[i]` of `col` for each `i`, as gather(column) does (one pass; checks and
 * null counting synchronise), with `col`'s precision and scale; memory from `col`'s resource.
 * @tparam Rep the unscaled value type: `std::int32_t`, `std::int64_t`, `devcol::int128_t` or `devcol::int256_t`
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
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

DEVCOL_NAMESPACE_END
