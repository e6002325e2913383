/**
 * @file union.hpp
 * @brief gather of union columns, the union type kept: a sparse union gathers its type ids and
 * every child by the same rows; a dense union gathers its type ids, then each child's selected
 * rows in result order, with new offsets counting the rows of each type. Users include
 * devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/scatter.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

template <buffer_policy Policy, std::integral I, class IndexPolicy>
[[nodiscard]] any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                        stream_ref stream, out_of_bounds policy);

namespace detail {

/// Result row `i`'s type id: its source row's, or `fallback` (the first child's code) for a null or
/// out-of-bounds index, whose row the children's gather makes null.
template <class I>
struct gather_type_id {
  std::int8_t const* ids;
  std::int8_t fallback;
  index_rows<I> rows;
  DEVCOL_HOST_DEVICE std::int8_t operator()(std::size_t i) const noexcept {
    std::size_t const r = rows(i);
    return r == index_rows<I>::none ? fallback : ids[r];
  }
};

/// Result row `i`'s row in its child (a dense union's source offset), or -1 for a null or
/// out-of-bounds index (the child's gather gives a null row for it).
template <class I>
struct gather_dense_offset {
  std::int32_t const* offsets;
  index_rows<I> rows;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::size_t i) const noexcept {
    std::size_t const r = rows(i);
    return r == index_rows<I>::none ? std::int64_t{-1} : static_cast<std::int64_t>(offsets[r]);
  }
};

/// Whether a type id is `code`.
struct is_type_code {
  std::int8_t code;
  DEVCOL_HOST_DEVICE bool operator()(std::int8_t id) const noexcept { return id == code; }
};

/// The type ids of the result rows (`n` of them), from `col`'s resource: one pass.
template <class Policy, class I>
typename union_column<Policy>::buffer_type gather_type_ids(union_column<Policy> const& col, index_rows<I> rows,
                                                           std::size_t n, stream_ref stream) {
  using buffer_type = typename union_column<Policy>::buffer_type;
  if (n == 0) { return buffer_type{}; }
  buffer_type out(n, stream, mr::default_alignment, col.resource());
  executor exec(stream);
  detail::tabulate(exec, n, static_cast<std::int8_t*>(out.data(access::write, stream)),
                   gather_type_id<I>{col.type_ids(access::read), col.type_codes().front(), rows});
  return out;
}

/**
 * A dense union's gather: the result's type ids (`ids`, `n` of them) and, per child, the result
 * rows of its type in order (a count, which synchronises `stream`, and one compaction), their
 * source offsets read through those rows and gathered from the child (null for -1), and their
 * ranks scattered as the new offsets. Scratch and result from `col`'s resource.
 */
template <class Policy, class I>
union_column<Policy> gather_dense(union_column<Policy> const& col, index_rows<I> rows, std::size_t n,
                                  stream_ref stream) {
  using buffer_type = typename union_column<Policy>::buffer_type;
  DEVCOL_EXPECTS(n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()), "gather: ", n,
                 " rows do not fit a dense union's int32 offsets");
  auto ids = gather_type_ids(col, rows, n, stream);
  buffer_type offsets;
  column<std::int64_t, Policy> sources(n, stream, mask_state::unallocated, col.resource());
  if (n != 0) {
    offsets = buffer_type(n * sizeof(std::int32_t), stream, mr::default_alignment, col.resource());
    executor exec(stream);
    detail::tabulate(exec, n, sources.data(access::write, stream),
                     gather_dense_offset<I>{col.offsets(access::read), rows});
  }
  auto const* const out_ids = static_cast<std::int8_t const*>(ids.data(access::read));
  std::vector<any_column<Policy>> children;
  for (std::size_t k = 0; k < col.num_children(); ++k) {
    is_type_code const mine{col.type_codes()[k]};
    std::size_t m = 0;
    if (n != 0) {
      executor exec(stream);
      m = detail::count_if_n(exec, out_ids, n, mine);
    }
    column<std::int64_t, Policy> child_rows(m, stream, mask_state::unallocated, col.resource());
    if (m != 0) {
      column<std::int64_t, Policy> at(m, stream, mask_state::unallocated, col.resource());
      executor exec(stream);
      detail::copy_if_n(exec, thrust::counting_iterator<std::int64_t>(0), out_ids, n, at.data(access::write, stream),
                        mine);
      std::int64_t const* const where = at.data(access::read);
      detail::transform_n(exec, where, m, child_rows.data(access::write, stream),
                          int64_at{sources.data(access::read)});
      thrust::scatter(exec.policy(), thrust::counting_iterator<std::int32_t>(0),
                      thrust::counting_iterator<std::int32_t>(static_cast<std::int32_t>(m)), where,
                      static_cast<std::int32_t*>(offsets.data(access::write, stream)));
    }
    children.push_back(devcol::gather(col.child(k), child_rows, stream, out_of_bounds::nullify));
  }
  return union_column<Policy>(union_mode::dense, col.type_codes(), col.names(), std::move(children), std::move(ids),
                              std::move(offsets), n);
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of a union column for each `i`, a union of the same mode, type codes and
 * children's types. Sparse: the type ids gathered (one pass) and every child gathered by the same
 * indices with its own kind's gather. Dense: the type ids gathered, then for each child the result
 * rows of its type in order (a count, which synchronises `stream`, and one compaction), that
 * child's rows gathered by their source offsets, and the ranks scattered as the new offsets, so
 * each child's offsets increase as Arrow requires. A null index (or an out-of-bounds one with
 * `nullify`) gives a row of the first child's type whose value is null (a union has no validity
 * of its own). Scratch and result from `col`'s resource.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error,
 * or when a union without children is asked for rows
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] union_column<Policy> gather(union_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                          stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  std::size_t const n = indices.size();
  DEVCOL_EXPECTS(n == 0 || col.num_children() != 0, "gather: ", n, " rows of a union without children");
  if (col.num_children() == 0) { return col.slice(0, 0, stream); }
  detail::index_rows<I> const rows{indices.view(), col.size()};
  if (col.mode() == union_mode::dense) { return detail::gather_dense(col, rows, n, stream); }
  auto ids = detail::gather_type_ids(col, rows, n, stream);
  std::vector<any_column<Policy>> children;
  for (auto const& c : col.children()) {
    children.push_back(devcol::gather(devcol::slice(c, col.offset(), col.offset() + col.size(), stream), indices,
                                      stream, out_of_bounds::nullify));
  }
  return union_column<Policy>(union_mode::sparse, col.type_codes(), col.names(), std::move(children), std::move(ids),
                              typename union_column<Policy>::buffer_type{}, n);
}

DEVCOL_NAMESPACE_END
