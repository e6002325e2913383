/**
 * @file fixed_size_binary.hpp
 * @brief gather of fixed-size binary columns: rows of 1, 2, 4, 8 or 16 aligned bytes go through the
 * fixed-width gather of an integer of that width; other rows, one work item per row moves its
 * `width()` bytes, so the index is read and checked once per row rather than once per byte (a
 * thread per byte ran at 0.15x Arrow C++ per core). Users include devcol/ops/gather.hpp.
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

#include <cuda/std/cstring>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <concepts>
#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i` of a gather of fixed-size rows: the `width` bytes of source row indices[i], zeros for a
/// null or out-of-bounds index.
template <class I>
struct gather_binary_row {
  fixed_size_binary_column_view source;
  column_view<I> indices;
  std::byte* out;
  DEVCOL_HOST_DEVICE void operator()(std::size_t i) const noexcept {
    std::size_t const w = source.width();
    std::byte* const dst = out + i * w;
    if (!indices.is_valid(i) || !in_bounds(indices[i], source.size())) {
      ::cuda::std::memset(dst, 0, w);
      return;
    }
    ::cuda::std::memcpy(dst, source[static_cast<std::size_t>(indices[i])], w);
  }
};

/// Row `indices[i]` of `col` through the fixed-width gather of `U` (whose width is the column's and
/// to whose alignment its rows are aligned): the column's buffers are aliased as a `column<U>`, and
/// the result's buffers adopted back, so values and validity take the fixed-width path's one pass.
template <class U, class Policy, class I, class IndexPolicy>
[[nodiscard]] fixed_size_binary_column<Policy> gather_as_words(fixed_size_binary_column<Policy> const& col,
                                                               column<I, IndexPolicy> const& indices,
                                                               stream_ref stream, out_of_bounds policy) {
  column<U, Policy> const words(col.data_buffer().alias(), col.mask_buffer().alias(), col.size(), col.null_count(),
                                col.offset());
  column<U, Policy> const rows = devcol::gather(words, indices, stream, policy);
  return fixed_size_binary_column<Policy>(sizeof(U), rows.data_buffer().alias(), rows.mask_buffer().alias(),
                                          rows.size(), rows.null_count(), rows.offset());
}

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
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`), into a new column from `col`'s
 * resource. Rows of 1, 2, 4, 8 or 16 bytes aligned to their width cost what gather(column) of an
 * integer of that width costs; other rows: one pass over the result's rows, each moving `width()`
 * bytes. A null index gives a null row (zero bytes). With
 * `throw_error` the indices are checked first (one pass; synchronises `stream`). Nulls in the result
 * are written to a mask and counted (synchronises `stream`).
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
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
  if (col.size() != 0) {
    std::size_t const w = col.width();
    bool const aligned = reinterpret_cast<std::uintptr_t>(col.view().data()) % (w != 0 ? w : 1) == 0;
    switch (aligned ? w : 0) {
      case 1: return detail::gather_as_words<std::uint8_t>(col, indices, stream, policy);
      case 2: return detail::gather_as_words<std::uint16_t>(col, indices, stream, policy);
      case 4: return detail::gather_as_words<std::uint32_t>(col, indices, stream, policy);
      case 8: return detail::gather_as_words<std::uint64_t>(col, indices, stream, policy);
      case 16: return detail::gather_as_words<int128_t>(col, indices, stream, policy);
      default: break;
    }
  }
  detail::check_gather(policy, indices.view(), col.size(), stream);
  fixed_size_binary_column<Policy> out(col.width(), indices.size(), stream, mask_state::unallocated, col.resource());
  if (col.width() != 0 && indices.size() != 0) {
    detail::executor exec(stream);
    thrust::for_each(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                     thrust::counting_iterator<std::size_t>(indices.size()),
                     detail::gather_binary_row<I>{col.view(), indices.view(), out.data(access::write, stream)});
  }
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    detail::set_validity(out, detail::gather_binary_valid<I>{col.view(), indices.view()}, stream);
    if (out.null_count() == 0) { out.replace_null_mask({}, 0); }
  }
  return out;
}

DEVCOL_NAMESPACE_END
