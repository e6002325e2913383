/**
 * @file list_offsets.hpp
 * @brief The offsets machinery of list gathers: a gather's new offsets from the gathered rows'
 * lengths (one exclusive scan), and the child row map (for each output child row, the input child
 * row it copies), which gathers the child with any kind's gather.
 *
 * Built on ops/detail/offsets.hpp (scan_lengths, child_source), as the strings ops are: what is
 * list-specific here is where a gathered row's length and start come from, and that the child is
 * gathered by a row map (its kind known only at run time) rather than copied byte by byte.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/list_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/offsets.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Output row `i`'s length: its input list's, 0 for a null or out-of-bounds index or a null list.
template <arrow_offset O, class I>
struct list_gathered_length {
  list_column_view<O> lists;
  index_rows<I> row;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept {
    std::size_t const r = row(i);
    return r != row.none && lists.is_valid(r) ? lists.length(r) : 0;
  }
};

/// Where output row `i`'s child rows start in the input child (only asked for rows with elements).
template <arrow_offset O, class I>
struct list_gathered_start {
  list_column_view<O> lists;
  index_rows<I> row;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::size_t i) const noexcept {
    return static_cast<std::int64_t>(lists.offsets()[row(i)]);
  }
};

/// Element `e` of the output child as the int64 input child row it copies (child_source).
template <arrow_offset O, class I>
struct list_child_row {
  child_source<O, list_gathered_start<O, I>> source;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::size_t e) const noexcept { return static_cast<std::int64_t>(source(e)); }
};

#if DEVCOL_BACKEND_HOST
/// Output row `r`'s child rows, consecutive input child rows from its list's start (the host
/// backend's strategy, as copy_row is for strings: a run per row, spread over threads by row).
template <arrow_offset O, class I>
struct list_child_rows_of_row {
  std::int64_t* map;
  O const* out_offsets;
  list_gathered_start<O, I> start;
  void operator()(std::size_t r) const noexcept {
    auto const n = static_cast<std::size_t>(out_offsets[r + 1] - out_offsets[r]);
    if (n == 0) { return; }
    std::int64_t* const out = map + (out_offsets[r] - out_offsets[0]);
    std::int64_t const first = start(r);
    for (std::size_t j = 0; j < n; ++j) { out[j] = first + static_cast<std::int64_t>(j); }
  }
};
#endif

/**
 * The offsets of a gather of `lists` by `indices` (n + 1 of them, from 0) in a new buffer from
 * `resource`, and the total child rows: scan_lengths (one exclusive scan of the
 * gathered lengths, the total read back: synchronises `stream`; throws past `O`'s range).
 */
template <arrow_offset O, class Policy, class I>
std::pair<buffer<Policy>, std::size_t> gather_offsets(list_column_view<O> lists, column_view<I> indices,
                                                      typename buffer<Policy>::resource_type resource,
                                                      stream_ref stream) {
  std::size_t const n = indices.size();
  buffer<Policy> offsets((n + 1) * sizeof(O), stream, mr::default_alignment, std::move(resource));
  auto* out = static_cast<O*>(offsets.data(access::write, stream));
  std::size_t const total =
      scan_lengths<O>(list_gathered_length<O, I>{lists, {indices, lists.size()}}, n, out, "gather", stream);
  return {std::move(offsets), total};
}

/// The child row map of that gather: `total` int64 rows of the input child, from `resource`. One
/// pass, one strategy per backend as copy_rows has: on the host a run of rows per output list,
/// spread over threads by list (a binary search per element ran list gather at 0.32x Arrow C++ per
/// core); on CUDA a thread per element finding its list by binary search (child_source).
template <arrow_offset O, class Policy, class I>
column<std::int64_t, Policy> child_row_map(list_column_view<O> lists, column_view<I> indices, O const* out_offsets,
                                           std::size_t total, typename buffer<Policy>::resource_type resource,
                                           stream_ref stream) {
  column<std::int64_t, Policy> map(total, stream, mask_state::unallocated, std::move(resource));
  executor exec(stream);
  index_rows<I> const row{indices, lists.size()};
  if (total == 0) { return map; }
#if DEVCOL_BACKEND_HOST
  thrust::for_each(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                   thrust::counting_iterator<std::size_t>(indices.size()),
                   list_child_rows_of_row<O, I>{map.data(access::write, stream), out_offsets,
                                                list_gathered_start<O, I>{lists, row}});
#else
  detail::tabulate(exec, total, map.data(access::write, stream),
                   list_child_row<O, I>{{out_offsets, indices.size(), list_gathered_start<O, I>{lists, row}}});
#endif
  return map;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
