/**
 * @file strings.hpp
 * @brief sort, argsort and is_sorted of strings columns, in the order compare() of strings uses
 * (bytewise, bytes as unsigned, a prefix first). Users include devcol/ops/sort.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/strings.hpp>
#include <devcol/ops/detail/sort/fixed_width.hpp>
#include <devcol/ops/detail/strings_rows.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/logical.h>
#include <thrust/sort.h>

#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Orders row numbers by their strings (the valid rows': nulls are partitioned out first).
template <class O>
struct string_rows_less {
  strings_column_view<O> view;
  bool descending;
  DEVCOL_HOST_DEVICE bool operator()(std::int64_t x, std::int64_t y) const {
    auto const a = view[static_cast<std::size_t>(x)];
    auto const b = view[static_cast<std::size_t>(y)];
    return descending ? b < a : a < b;
  }
};

}  // namespace detail

/**
 * @brief The row numbers that put `col` in order (Arrow's `sort_indices`), stable: equal strings
 * keep their order; nulls first or last, in their original order. A merge sort of the row numbers
 * comparing strings in place (no key copy: strings vary in length); with nulls, the null rows'
 * numbers placed first or last by two compactions before it. No synchronisation.
 * The result comes from `col`'s resource.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] column<std::int64_t, Policy> argsort(basic_strings_column<O, Policy, E> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const n = col.size();
  column<std::int64_t, Policy> indices(n, stream, mask_state::unallocated, col.resource());
  detail::executor exec(stream);
  std::int64_t* const valid_first =
      detail::row_numbers_nulls_placed(exec, indices.data(access::write, stream), col.view(), nulls);
  std::size_t const valid = n - col.null_count();
  thrust::stable_sort(exec.policy(), valid_first, valid_first + valid,
                      detail::string_rows_less<O>{col.view(), direction == order::descending});
  return indices;
}

/**
 * @brief `col` in order, stable, nulls first or last: argsort() then a gather of the rows (see
 * gather(): its scan's total is read back, which synchronises `stream`; with nulls, the mask is
 * built and counted). A new column from `col`'s resource.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param direction ascending or descending
 * @param stream the stream the work is ordered on
 * @param nulls whether null rows go first or last
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> sort(basic_strings_column<O, Policy, E> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  auto const indices = devcol::argsort(col, direction, stream, nulls);
  return detail::gather_strings(col, detail::index_rows<std::int64_t>{indices.view(), col.size()}, col.size(),
                                col.has_nulls(), "sort", stream);
}

/// @brief Whether `col` is in order, nulls placed as asked: one pass over adjacent pairs. Synchronises `stream`.
/// @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
/// @tparam Policy the buffer policy of the input and of the result
/// @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
/// @param col the input column
/// @param direction ascending or descending
/// @param stream the stream the work is ordered on
/// @param nulls whether null rows go first or last
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] bool is_sorted(basic_strings_column<O, Policy, E> const& col, order direction = order::ascending,
                             stream_ref stream = {}, null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (col.size() < 2) { return true; }
  detail::executor exec(stream);
  return thrust::all_of(exec.policy(), thrust::counting_iterator<std::size_t>(1),
                        thrust::counting_iterator<std::size_t>(col.size()),
                        detail::in_order<strings_column_view<O>>{col.view(), direction == order::descending,
                                                                 nulls == null_order::first});
}

DEVCOL_NAMESPACE_END
