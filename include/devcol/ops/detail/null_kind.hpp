/**
 * @file null_kind.hpp
 * @brief gather, filter and concatenate of null columns (Arrow's null type): a null column's rows
 * hold nothing, so each op computes only the result's length, and keeps the kind. Users include
 * devcol/ops/gather.hpp, filter.hpp or concatenate.hpp.
 */
#pragma once

#include <devcol/column/column.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/column/null_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <concepts>
#include <cstddef>
#include <span>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A null column of `indices.size()` rows: every row of the result is null whatever it
 * gathers. With out_of_bounds::throw_error the indices are still checked (one pass, which
 * synchronises `stream`), so that a bad index fails here as it does for every kind; nothing else is
 * read or allocated.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row
 * @param stream the stream the check is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row (as every row is)
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] null_column<Policy> gather(null_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                         stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  detail::check_gather(policy, indices.view(), col.size(), stream);
  return null_column<Policy>(indices.size());
}

/**
 * @brief A null column of as many rows as `keep` keeps (true and not null): one count, which
 * synchronises `stream`; nothing is allocated.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam KeepPolicy the buffer policy of `keep` (any)
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the count is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class Policy, class KeepPolicy>
[[nodiscard]] null_column<Policy> filter(null_column<Policy> const& col, column<bool, KeepPolicy> const& keep,
                                         stream_ref stream = {}) {
  detail::expect_same_size(col.size(), keep.size(), "filter");
  return null_column<Policy>(detail::kept_count(keep, stream));
}

/**
 * @brief A null column of the inputs' rows in all. O(number of inputs); nothing is read or allocated.
 * @tparam Policy the buffer policy of the inputs and of the result
 * @param cols the inputs, in order
 * @param stream unused: nothing is read
 */
template <class Policy>
[[nodiscard]] null_column<Policy> concatenate(std::span<null_column<Policy> const> cols, stream_ref stream = {}) {
  (void)stream;
  std::size_t rows = 0;
  for (auto const& c : cols) { rows = detail::add_rows("concatenate", rows, c.size()); }
  return null_column<Policy>(rows);
}
/// @brief concatenate() of a vector of null columns (see the span overload).
/// @tparam Policy the buffer policy of the inputs and of the result
/// @param cols the inputs, in order
/// @param stream unused
template <class Policy>
[[nodiscard]] null_column<Policy> concatenate(std::vector<null_column<Policy>> const& cols, stream_ref stream = {}) {
  return concatenate(std::span<null_column<Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
