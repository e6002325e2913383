/**
 * @file fixed_width.hpp
 * @brief fill_null, set_null_mask and drop_null_mask of fixed-width columns. Users include
 * devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>

DEVCOL_NAMESPACE_BEGIN

/// @brief `col` with every null replaced by `value`, without a mask: one pass, no synchronisation.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param value the value
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> fill_null(column<T, Policy> const& col, T value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (!col.has_nulls()) { return column<T, Policy>(col.data_buffer(), {}, col.size(), 0, col.offset()); }
  auto out = col.template make_like<T>(col.size(), stream);
  detail::executor exec(stream);
  // The rows move as their width's word: one kernel per width, not per type.
  using word = detail::width_word_t<T>;
  detail::tabulate(exec, col.size(), reinterpret_cast<word*>(out.data(access::write, stream)),
                   detail::value_or_identity<word, word>{detail::word_view(col.view()), detail::word_value(value)});
  return out;
}

/**
 * @brief `col`'s values (shared, no copy) with a new mask: valid where `valid_rows` is true, null
 * where it is false or null. The null count is counted (one pass; synchronises `stream`). The new
 * mask takes the sharing mode of `col`'s values, which the result shares (rule 9).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param valid_rows true for each row to make valid; false or null makes it null
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> set_null_mask(column<T, Policy> const& col, column<bool, Policy> const& valid_rows,
                                              stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), valid_rows.size(), "set_null_mask");
  // The result shares col's values, so its new mask takes their sharing mode, not the option in
  // force (rule 9): a column whose values and mask differ in mode would copy its values on a write
  // that shared views must let every view see, or share a mask that copy-on-write must copy.
  detail::keep_sharing_mode<Policy> const keep(col.copy_on_write());
  column<T, Policy> out(col.data_buffer(), {}, col.size(), 0, col.offset());
  detail::set_validity(out, detail::true_and_valid{valid_rows.view()}, stream);
  return out;
}

/// @brief `col`'s values (shared, no copy) without a mask: every row valid (null rows' values are
/// unspecified). O(1), unless `col` is exposed: a shallow copy of exposed memory copies it (rule 12).
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> drop_null_mask(column<T, Policy> const& col) {
  return column<T, Policy>(col.data_buffer(), {}, col.size(), 0, col.offset());
}

DEVCOL_NAMESPACE_END
