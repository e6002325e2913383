/**
 * @file binary_view.hpp
 * @brief gather of string view and binary view columns: the 16-byte views move as fixed-size
 * binary rows and every data buffer is kept, shared, so the result is again a view column over the
 * same bytes. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_size_binary.hpp>

#include <concepts>
#include <cstddef>

DEVCOL_NAMESPACE_BEGIN
namespace detail {
/// A view column's views as a fixed-size binary column of 16-byte rows over the same buffers (its
/// views and its mask aliased, O(1)): what the fixed-size gather and filter move.
template <class Policy, encoding E>
[[nodiscard]] fixed_size_binary_column<Policy> views_as_rows(basic_binary_view_column<Policy, E> const& col) {
  return fixed_size_binary_column<Policy>(sizeof(binary_view_row), col.views_buffer().alias(),
                                          col.mask_buffer().alias(), col.size(), col.null_count(), col.offset());
}
/// The view column of `rows` (views moved by a fixed-size op of views_as_rows) over `col`'s data
/// buffers, shared.
template <class Policy, encoding E>
[[nodiscard]] basic_binary_view_column<Policy, E> views_from_rows(basic_binary_view_column<Policy, E> const& col,
                                                                  fixed_size_binary_column<Policy> const& rows) {
  return basic_binary_view_column<Policy, E>(rows.data_buffer().alias(), col.data_buffers(), rows.mask_buffer().alias(),
                                             rows.size(), rows.null_count(), rows.offset());
}
}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`), as a view column of the same
 * type: the 16-byte views gathered as fixed-size binary rows (the gather of 16-byte integers where
 * the views buffer is 16-byte aligned: values and validity in one pass) into a new views buffer
 * from `col`'s resource; the data buffers are shared with `col` (O(1) each, nothing of them is
 * read or copied). A null index gives a null row (an empty inline view). With `throw_error` the
 * indices are checked first (one pass; synchronises `stream`). Nulls in the result are counted
 * (synchronises `stream`).
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (string view or binary view)
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, encoding E, std::integral I, class IndexPolicy>
[[nodiscard]] basic_binary_view_column<Policy, E> gather(basic_binary_view_column<Policy, E> const& col,
                                                         column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                         out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::views_from_rows(col, devcol::gather(detail::views_as_rows(col), indices, stream, policy));
}

DEVCOL_NAMESPACE_END
