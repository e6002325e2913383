/**
 * @file fixed_size_binary.hpp
 * @brief gather of fixed-size binary columns: rows move as `width()` bytes, one thread per
 * output byte, so wide rows spread over threads. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <concepts>
#include <cstddef>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Byte `j` of a gather of fixed-size rows: byte j % width of the source row indices[j / width],
/// 0 for a null or out-of-bounds index.
template <class I>
struct gather_binary_byte {
  fixed_size_binary_column_view source;
  column_view<I> indices;
  DEVCOL_HOST_DEVICE std::byte operator()(std::size_t j) const noexcept {
    std::size_t const w = source.width();
    std::size_t const row = j / w;
    if (!indices.is_valid(row) || !in_bounds(indices[row], source.size())) { return std::byte{0}; }
    return source[static_cast<std::size_t>(indices[row])][j % w];
  }
};
/// Row `i` of a gather of fixed-size rows is valid: its index and the source row are.
template <class I>
struct gather_binary_valid {
  fixed_size_binary_column_view source;
  column_view<I> indices;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && in_bounds(indices[i], source.size()) &&
           source.is_valid(static_cast<std::size_t>(indices[i]));
  }
};
}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`): one pass over the result's bytes,
 * a new column from `col`'s resource. A null index gives a null row (zero bytes). With
 * `throw_error` the indices are checked first (one pass; synchronises `stream`). Nulls in the result
 * are written to a mask and counted (synchronises `stream`).
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] fixed_size_binary_column<Policy> gather(fixed_size_binary_column<Policy> const& col,
                                                      column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                      out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  fixed_size_binary_column<Policy> out(col.width(), indices.size(), stream, mask_state::unallocated, col.resource());
  std::size_t const bytes = col.width() * indices.size();
  if (bytes != 0) {
    detail::executor exec(stream);
    thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                      thrust::counting_iterator<std::size_t>(bytes), out.data(access::write, stream),
                      detail::gather_binary_byte<I>{col.view(), indices.view()});
  }
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    detail::set_validity(out, detail::gather_binary_valid<I>{col.view(), indices.view()}, stream);
    if (out.null_count() == 0) { out.replace_null_mask({}, 0); }
  }
  return out;
}

DEVCOL_NAMESPACE_END
