/**
 * @file strings_compare.hpp
 * @brief `compare`, `argsort`, `sort` and `is_sorted` of strings columns: the overloads of the
 * fixed-width ones (compare.hpp, sort.hpp), same names and argument order. Strings order bytewise,
 * bytes as unsigned, a prefix first (`devcol::string_view::compare`), as Arrow and cuDF order them.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/string_view.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/compare.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/strings_rows.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/sort.hpp>
#include <devcol/ops/strings_selection.hpp>

#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/logical.h>
#include <thrust/partition.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// `a[i] op b[i]` (values only; the mask is built apart).
template <class O>
struct compare_strings {
  strings_column_view<O> a;
  strings_column_view<O> b;
  cmp op;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const { return compare_with<string_view>{op}(a[i], b[i]); }
};
/// `a[i] op value`.
template <class O>
struct compare_string_to_scalar {
  strings_column_view<O> a;
  string_view value;  // device memory
  cmp op;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const { return compare_with<string_view>{op}(a[i], value); }
};
/// Valid where both strings views are valid.
template <class O>
struct both_strings_valid {
  strings_column_view<O> a;
  strings_column_view<O> b;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return a.is_valid(i) && b.is_valid(i); }
};
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
 * @brief `a_row op b_row` for every row, bytewise: a bool column from `a`'s resource, null where
 * either is null. One pass over the rows (in order on `stream`, no synchronisation); the mask is
 * the one input's mask bits copied, or with nulls in both, built from both and counted (one pass
 * each; synchronises `stream`).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <arrow_offset O, class Policy>
[[nodiscard]] column<bool, Policy> compare(basic_strings_column<O, Policy> const& a, cmp op,
                                           basic_strings_column<O, Policy> const& b, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(a.size(), b.size(), "compare");
  bool const a_only = a.has_nulls() && !b.has_nulls();  // a's mask bits are the result's
  auto out = detail::rows_to<bool>(a, detail::compare_strings<O>{a.view(), b.view(), op}, a_only, stream);
  if (a.has_nulls() && b.has_nulls()) {
    auto [mask, nulls] = detail::build_mask<typename column<bool, Policy>::buffer_type>(
        detail::both_strings_valid<O>{a.view(), b.view()}, a.size(), a.resource(), stream);
    out.replace_null_mask(std::move(mask), nulls);
  } else if (b.has_nulls()) {
    out.replace_null_mask(detail::copy_mask_bits(b.mask_buffer(), b.offset(), b.offset() + b.size(), stream), b.null_count());
  }
  return out;
}

/**
 * @brief `row op value` for every row, bytewise: a bool column from `col`'s resource, null where
 * `col` is null (its mask bits copied, no recount). Copies `value`'s bytes to scratch device memory
 * from `col`'s resource (on CUDA, from pageable memory: staged at once, so `value` may go when this
 * returns), then one pass over the rows; no synchronisation.
 */
template <arrow_offset O, class Policy>
[[nodiscard]] column<bool, Policy> compare(basic_strings_column<O, Policy> const& col, cmp op, std::string_view value,
                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  typename basic_strings_column<O, Policy>::buffer_type bytes(value.size(), stream, mr::default_alignment,
                                                               col.resource());
  auto* device_value = static_cast<char*>(bytes.data(access::write, stream));
  copy_bytes(device_value, value.data(), value.size(), stream);
  return detail::rows_to<bool>(
      col, detail::compare_string_to_scalar<O>{col.view(), string_view(device_value, value.size()), op}, true, stream);
}

/**
 * @brief The row numbers that put `col` in order (Arrow's `sort_indices`), stable: equal strings
 * keep their order; nulls first or last, in their original order. A merge sort of the row numbers
 * comparing strings in place (no key copy: strings vary in length); with nulls, a stable partition
 * of the row numbers first, which synchronises `stream` on CUDA. Without nulls, no synchronisation.
 * The result comes from `col`'s resource.
 */
template <arrow_offset O, class Policy>
[[nodiscard]] column<std::int64_t, Policy> argsort(basic_strings_column<O, Policy> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  std::size_t const n = col.size();
  column<std::int64_t, Policy> indices(n, stream, mask_state::unallocated, col.resource());
  detail::executor exec(stream);
  std::int64_t* const valid_first = detail::row_numbers_nulls_placed(
      exec, indices.data(access::write, stream), n, col.null_count(), detail::string_is_valid<O>{col.view()}, nulls);
  std::size_t const valid = n - col.null_count();
  thrust::stable_sort(exec.policy(), valid_first, valid_first + valid,
                      detail::string_rows_less<O>{col.view(), direction == order::descending});
  return indices;
}

/**
 * @brief `col` in order, stable, nulls first or last: argsort() then a gather of the rows (see
 * gather(): its scan's total is read back, which synchronises `stream`; with nulls, the mask is
 * built and counted). A new column from `col`'s resource.
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_strings_column<O, Policy> sort(basic_strings_column<O, Policy> const& col,
                                                   order direction = order::ascending, stream_ref stream = {},
                                                   null_order nulls = null_order::last) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  auto const indices = devcol::argsort(col, direction, stream, nulls);
  return detail::gather_strings(col, detail::index_rows<std::int64_t>{indices.view(), col.size()}, col.size(),
                                col.has_nulls(), "sort", stream);
}

/// @brief Whether `col` is in order, nulls placed as asked: one pass over adjacent pairs. Synchronises `stream`.
template <arrow_offset O, class Policy>
[[nodiscard]] bool is_sorted(basic_strings_column<O, Policy> const& col, order direction = order::ascending,
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
