/**
 * @file binary_view.hpp
 * @brief gather of string view and binary view columns: the 16-byte views move as fixed-size rows
 * (one work item and one 16-byte copy per row) and every data buffer is kept, shared, so the result
 * is again a view column over the same bytes. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/gather/fixed_size_binary.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <concepts>
#include <cstddef>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {
/// A view column's views seen as fixed-size binary rows of 16 bytes, what the fixed-size gather moves.
template <class Policy, encoding E>
[[nodiscard]] fixed_size_binary_column_view views_as_rows(basic_binary_view_column<Policy, E> const& col) {
  return fixed_size_binary_column_view(reinterpret_cast<std::byte const*>(col.views(access::read)),
                                       sizeof(binary_view_row), col.size(), col.null_mask(access::read), col.offset(),
                                       col.null_count());
}
}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`), as a view column of the same
 * type: one pass over the result's rows, each moving its 16-byte view into a new views buffer from
 * `col`'s resource; the data buffers are shared with `col` (O(1) each, nothing of them is read or
 * copied). A null index gives a null row (an empty inline view). With `throw_error` the indices are
 * checked first (one pass; synchronises `stream`). Nulls in the result are written to a mask and
 * counted (synchronises `stream`).
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (string view or binary view)
 * @tparam I the integral type of the indices
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
  using buffer_type = typename basic_binary_view_column<Policy, E>::buffer_type;
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  std::size_t const n = indices.size();
  buffer_type views;
  if (n != 0) {
    views = buffer_type(n * sizeof(binary_view_row), stream, mr::default_alignment, col.resource());
    detail::gather_binary_rows(detail::views_as_rows(col), indices.view(),
                               static_cast<std::byte*>(views.data(access::write, stream)), n, stream);
  }
  basic_binary_view_column<Policy, E> out(std::move(views), col.data_buffers(), buffer_type{}, n, 0, 0);
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    detail::set_validity(out, detail::gather_binary_valid<I>{detail::views_as_rows(col), indices.view()}, stream);
    if (out.null_count() == 0) { out.replace_null_mask({}, 0); }
  }
  return out;
}

DEVCOL_NAMESPACE_END
