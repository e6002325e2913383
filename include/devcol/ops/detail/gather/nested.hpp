/**
 * @file nested.hpp
 * @brief gather of list, struct and dictionary columns. They recurse through their children, whose
 * kind is known only at run time, by the gather of `any_column` (declared here, defined in
 * devcol/ops/gather.hpp), so nested columns do not instantiate every combination of kinds. Users
 * include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/list_offsets.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

template <buffer_policy Policy, std::integral I, class IndexPolicy>
[[nodiscard]] any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                        stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error);

namespace detail {
/// The mask of a nested column's gather and its null count: a row is valid where its index is
/// valid and in bounds and the source row valid. One pass and a count (synchronises `stream`), or
/// nothing (no mask) when neither `col` nor `indices` has nulls and no index can be nullified.
template <class C, std::integral I, class IndexPolicy>
std::pair<buffer<typename C::policy>, std::size_t> gathered_row_mask(C const& col, column<I, IndexPolicy> const& indices,
                                                                     out_of_bounds policy, stream_ref stream) {
  if (!col.has_nulls() && !indices.has_nulls() && policy != out_of_bounds::nullify) { return {}; }
  return build_mask<buffer<typename C::policy>>(
      gather_valid<I>{validity_of(col), {indices.view(), col.size()}}, indices.size(),
      col.resource(), stream);
}
}  // namespace detail
/**
 * @brief Row `indices[i]` of a list column for each `i` (Arrow's take): the new offsets from one
 * exclusive scan of the gathered lengths (reading the total back: synchronises `stream`), an int64
 * row map of the child rows (one pass, scratch from `col`'s resource) that gathers the child with
 * its own kind's gather (recursively), and with nulls a new mask and its count (synchronises). A
 * null index gives a null row, as does an out-of-bounds one with `nullify`. A map gives a map.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <arrow_offset O, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] basic_list_column<O, Policy> gather(basic_list_column<O, Policy> const& col,
                                                  column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                  out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  auto [offsets, total] = detail::gather_offsets<O, Policy>(col.view(), indices.view(), col.resource(), stream);
  auto const map = detail::child_row_map<O, Policy>(col.view(), indices.view(),
                                                    static_cast<O const*>(offsets.data(access::read)), total,
                                                    col.resource(), stream);
  auto child = devcol::gather(col.child(), map, stream, out_of_bounds::throw_error);
  auto mask = detail::gathered_row_mask(col, indices, policy, stream);
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask.first), indices.size(),
                                      mask.second)
      .as_map(col.is_map());  // a gathered map stays a map
}

namespace detail {
/// Child row `j` of a fixed-size list gather: element `j % k` of source list `indices[j / k]`, as an
/// absolute child row (the column's first row `first` included); -1 where that index is null or
/// out of bounds, which the child's gather (nullify) turns into a null element of a null list.
template <class I>
struct fixed_list_row_map {
  column_view<I> indices;
  std::size_t rows;
  std::size_t first;
  std::size_t k;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::size_t j) const noexcept {
    std::size_t const r = j / k;
    if (!indices.is_valid(r) || !in_bounds(indices[r], rows)) { return -1; }
    return static_cast<std::int64_t>((first + static_cast<std::size_t>(indices[r])) * k + j % k);
  }
};
}  // namespace detail

/**
 * @brief Row `indices[i]` of a fixed-size list column for each `i`, a fixed-size list of the same
 * size: an int64 map of the `indices.size() * list_size()` child rows (one pass, scratch from
 * `col`'s resource) that gathers the child with its own kind's gather, and with nulls a new mask and
 * its count (synchronises `stream`). A null index gives a null row, as does an out-of-bounds one
 * with `nullify`.
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
[[nodiscard]] fixed_size_list_column<Policy> gather(fixed_size_list_column<Policy> const& col,
                                                    column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                    out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  std::size_t const k = col.list_size();
  column<std::int64_t, Policy> map(indices.size() * k, stream, mask_state::unallocated, col.resource());
  if (map.size() != 0) {
    detail::executor exec(stream);
    detail::tabulate(exec, map.size(), map.data(access::write, stream),
                     detail::fixed_list_row_map<I>{indices.view(), col.size(), col.offset(), k});
  }
  auto child = devcol::gather(col.child(), map, stream, out_of_bounds::nullify);
  auto mask = detail::gathered_row_mask(col, indices, policy, stream);
  return fixed_size_list_column<Policy>(k, std::move(child), std::move(mask.first), indices.size(), mask.second);
}

namespace detail {
/// Result row `i`'s offset (or size) in a list view gather: the source row's where that row is
/// valid and its index valid and in bounds, else 0 (a null row, which names no child row).
template <arrow_offset O, class I>
struct view_gathered_value {
  O const* values;  // the column's offsets or sizes, from its first row
  gather_valid<I> valid;
  DEVCOL_HOST_DEVICE O operator()(std::size_t i) const noexcept { return valid(i) ? values[valid.rows(i)] : O{0}; }
};
}  // namespace detail

/**
 * @brief Row `indices[i]` of a list view column for each `i`, a list view of the same child: the
 * rows' offsets and sizes gathered (two passes into memory from `col`'s resource), the child
 * shared whole, never copied (a gathered view stays a view), and with nulls a new mask and its count
 * (synchronises `stream`). A null index gives a null row (offset and size 0), as does an
 * out-of-bounds one with `nullify`.
 * @tparam O the offset and size type
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <arrow_offset O, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] basic_list_view_column<O, Policy> gather(basic_list_view_column<O, Policy> const& col,
                                                       column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                       out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  std::size_t const n = indices.size();
  buffer<Policy> offsets(n * sizeof(O), stream, mr::default_alignment, col.resource());
  buffer<Policy> sizes(n * sizeof(O), stream, mr::default_alignment, col.resource());
  if (n != 0) {
    detail::executor exec(stream);
    detail::gather_valid<I> const valid{detail::validity_of(col), {indices.view(), col.size()}};
    detail::tabulate(exec, n, static_cast<O*>(offsets.data(access::write, stream)),
                     detail::view_gathered_value<O, I>{col.offsets(access::read), valid});
    detail::tabulate(exec, n, static_cast<O*>(sizes.data(access::write, stream)),
                     detail::view_gathered_value<O, I>{col.sizes(access::read), valid});
  }
  auto mask = detail::gathered_row_mask(col, indices, policy, stream);
  return basic_list_view_column<O, Policy>(std::move(offsets), std::move(sizes), col.child(), std::move(mask.first), n,
                                           mask.second);
}

/**
 * @brief Row `indices[i]` of a struct column for each `i`: every field gathered with the same
 * indices (each by its kind's gather: with throw_error each re-checks them, one pass each), and
 * with nulls a new struct mask and its count (synchronises `stream`).
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
[[nodiscard]] struct_column<Policy> gather(struct_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                           stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  std::vector<any_column<Policy>> children;
  for (std::size_t f = 0; f < col.num_children(); ++f) {
    children.push_back(devcol::gather(col.field(f, stream), indices, stream, policy));
  }
  auto mask = detail::gathered_row_mask(col, indices, policy, stream);
  return struct_column<Policy>(col.names(), std::move(children), std::move(mask.first), indices.size(), mask.second);
}

/**
 * @brief Row `indices[i]` of a dictionary column for each `i`: its indices gathered (the
 * fixed-width gather; the result keeps their integer type), its values shared (O(1)).
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
[[nodiscard]] dictionary_column<Policy> gather(dictionary_column<Policy> const& col,
                                               column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                               out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return dictionary_column<Policy>(col.visit_indices([&](auto const& own) {
    return typename dictionary_column<Policy>::indices_type(devcol::gather(own, indices, stream, policy));
  }),
                                   col.values());
}

DEVCOL_NAMESPACE_END
