/**
 * @file null_mask.hpp
 * @brief Null-mask ops: `is_null`, `is_valid`, `fill_null`, `set_null_mask`, `drop_null_mask`.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

DEVCOL_NAMESPACE_BEGIN
namespace detail {
template <class T>
struct row_is_null {
  column_view<T> view;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return view.is_null(i); }
};
}  // namespace detail

namespace detail {
/// A bool column without a mask holding `flag(row)` for each row of `col`: one pass.
template <class T, class Policy, class Flag>
column<bool, Policy> flags_of(column<T, Policy> const& col, Flag flag, stream_ref stream) {
  auto out = col.template make_like<bool>(col.size(), stream);
  executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(col.size()), out.data(access::write, stream), flag);
  return out;
}
}  // namespace detail

/// @brief A bool column, true where `col` is null; no mask. One pass over the mask, no synchronisation.
template <fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> is_null(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::flags_of(col, detail::row_is_null<T>{col.view()}, stream);
}

/// @brief A bool column, true where `col` is valid; no mask. One pass over the mask, no synchronisation.
template <fixed_width T, class Policy>
[[nodiscard]] column<bool, Policy> is_valid(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::flags_of(col, detail::row_is_valid<T>{col.view()}, stream);
}

/// @brief `col` with every null replaced by `value`, without a mask: one pass, no synchronisation.
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> fill_null(column<T, Policy> const& col, T value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (!col.has_nulls()) { return column<T, Policy>(col.data_buffer(), {}, col.size(), 0, col.offset()); }
  auto out = col.template make_like<T>(col.size(), stream);
  detail::executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(col.size()), out.data(access::write, stream),
                    detail::value_or_identity<T, T>{col.view(), value});
  return out;
}

/**
 * @brief `col`'s values (shared, no copy) with a new mask: valid where `valid_rows` is true, null
 * where it is false or null. The null count is counted (one pass; synchronises `stream`).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> set_null_mask(column<T, Policy> const& col, column<bool, Policy> const& valid_rows,
                                              stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), valid_rows.size(), "set_null_mask");
  column<T, Policy> out(col.data_buffer(), {}, col.size(), 0, col.offset());
  detail::set_validity(out, detail::true_and_valid{valid_rows.view()}, stream);
  return out;
}

/// @brief `col`'s values (shared, no copy) without a mask: every row valid (null rows' values are unspecified). O(1).
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> drop_null_mask(column<T, Policy> const& col) {
  return column<T, Policy>(col.data_buffer(), {}, col.size(), 0, col.offset());
}

DEVCOL_NAMESPACE_END
