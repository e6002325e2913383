/**
 * @file fixed_size_binary.hpp
 * @brief The ops of fixed-size binary columns: gather, filter, concatenate, is_null / is_valid.
 * Rows move as `width()` bytes; one thread per output byte, so wide rows spread over threads.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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
/// Whether row `i` of a fixed-size binary view is valid (or null, if `Null`).
template <bool Null>
struct binary_row_flag {
  fixed_size_binary_column_view view;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return view.is_valid(i) != Null; }
};
/// A bool column of `col.size()` rows without a mask holding `flag(row)`: one pass, from `col`'s resource.
template <class Policy, class Flag>
column<bool, Policy> binary_flags(fixed_size_binary_column<Policy> const& col, Flag flag, stream_ref stream) {
  column<bool, Policy> out(col.size(), stream, mask_state::unallocated, col.resource());
  executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(col.size()), out.data(access::write, stream), flag);
  return out;
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`): one pass over the result's bytes,
 * a new column from `col`'s resource. A null index gives a null row (zero bytes). With
 * `throw_error` the indices are checked first (one pass; synchronises `stream`). Nulls in the result
 * are written to a mask and counted (synchronises `stream`).
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

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order: the kept
 * row numbers by one compaction (counting them first synchronises `stream`; an int64 per kept row
 * of scratch from `col`'s resource), then a gather of those rows (one pass over their bytes; with
 * nulls, the mask is written and counted, which synchronises).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> filter(fixed_size_binary_column<Policy> const& col,
                                                      column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  detail::executor exec(stream);
  auto const rows = thrust::counting_iterator<std::int64_t>(0);
  auto const flags = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                     detail::true_and_valid{keep.view()});
  auto const n = static_cast<std::size_t>(
      thrust::count(exec.policy(), flags, flags + static_cast<std::ptrdiff_t>(col.size()), true));
  column<std::int64_t, Policy> kept(n, stream, mask_state::unallocated, col.resource());
  thrust::copy_if(exec.policy(), rows, rows + static_cast<std::ptrdiff_t>(col.size()),
                  thrust::counting_iterator<std::size_t>(0), kept.data(access::write, stream),
                  detail::true_and_valid{keep.view()});
  return devcol::gather(col, kept, stream, out_of_bounds::nullify);
}

/**
 * @brief The rows of every column in `cols`, one after the other, in new memory from the first's
 * resource: one copy per input; with nulls, a small index of the inputs is copied to the device,
 * one pass writes the mask and `stream` is synchronised. The null count is the inputs' sum. An
 * empty list gives an empty column of width 0.
 * @throws devcol::logic_error naming both widths when two inputs differ
 */
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> concatenate(std::span<fixed_size_binary_column<Policy> const> cols,
                                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return fixed_size_binary_column<Policy>{}; }
  std::size_t const width = cols.front().width();
  std::size_t rows = 0;
  std::size_t nulls = 0;
  for (auto const& c : cols) {
    DEVCOL_EXPECTS(c.width() == width, "concatenate: ", cols.front().type_name(), " and ", c.type_name(), " differ");
    rows += c.size();
    nulls += c.null_count();
  }
  fixed_size_binary_column<Policy> out(width, rows, stream, mask_state::unallocated, cols.front().resource());
  if (width * rows != 0) {
    std::byte* dst = out.data(access::write, stream);
    for (auto const& c : cols) {
      if (c.empty()) { continue; }
      copy_bytes(dst, c.data(access::read) + c.offset() * width, c.size() * width, stream);
      dst += c.size() * width;
    }
  }
  if (nulls != 0) { out.replace_null_mask(detail::concatenated_mask(cols, rows, out.resource(), stream), nulls); }
  return out;
}

/// @brief concatenate() of a vector of fixed-size binary columns.
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> concatenate(std::vector<fixed_size_binary_column<Policy>> const& cols,
                                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<fixed_size_binary_column<Policy> const>(cols), stream);
}

/// @brief A bool column, true where `col` is null; no mask. One pass over the mask, no synchronisation.
template <class Policy>
[[nodiscard]] column<bool, Policy> is_null(fixed_size_binary_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::binary_flags(col, detail::binary_row_flag<true>{col.view()}, stream);
}

/// @brief A bool column, true where `col` is valid; no mask. One pass over the mask, no synchronisation.
template <class Policy>
[[nodiscard]] column<bool, Policy> is_valid(fixed_size_binary_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::binary_flags(col, detail::binary_row_flag<false>{col.view()}, stream);
}

DEVCOL_NAMESPACE_END
