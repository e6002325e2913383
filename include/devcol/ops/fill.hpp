/**
 * @file fill.hpp
 * @brief In-place fill and copies: `fill`, `copy`, `copy_into`.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/fill.h>

#include <optional>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief Sets every row of `col` to `value` and valid, in place, through write access (so a column
 * that shares memory gets its own copy first: copy-on-write holds). One pass over the values and,
 * with a mask, one over the mask words. No synchronisation. Strong guarantee: what allocates (the
 * copy, or bringing spilled buffers back to the device) happens before anything is written.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param value the value
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error, before writing, if `col` has nulls and shares its buffers under
 *         shared views (its validity would change under the other columns' null counts);
 *         devcol::out_of_memory, before writing
 */
template <fixed_width T, class Policy>
void fill(column<T, Policy>& col, T value, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (col.has_nulls()) { detail::expect_validity_writable(col, "fill"); }
  // The rows are written as their width's word: one fill kernel per width, not per type.
  using word = detail::width_word_t<T>;
  auto* rows = reinterpret_cast<word*>(col.data(access::write, stream));
  // Strong guarantee: the mask is taken before any row is written, since bringing a spilled mask
  // back to the device allocates (the values' copy or unspill above was the other allocation).
  bitmask_word* words = col.nullable() && col.size() != 0 ? col.null_mask(access::write, stream) : nullptr;
  detail::executor exec(stream);
  exec.writes(rows, col.size() * sizeof(T));
  thrust::fill(exec.policy(), rows, rows + col.size(), detail::word_value(value));
  if (words != nullptr && col.has_nulls() && col.mask_buffer().is_shared()) {
    // The mask is another column's too (an alias of exposed memory: rule 12 lets only alias()
    // share it), whose null count would not follow bits set here. Every row is valid now, so this
    // column drops its mask instead, as copy_into does, and the alias keeps its validity.
    col.replace_null_mask({}, 0);
  } else if (words != nullptr) {
    // Set bits [offset, offset + size): a shifted copy of an all-ones mask would be a second
    // allocation; the rows' words are few, so write them with the same one-pass kernel.
    std::size_t const first = col.offset();
    std::size_t const last = first + col.size();
    std::size_t const first_word = first / bits_per_word;
    detail::transform_n(exec, thrust::counting_iterator<std::size_t>(first_word),
                        (last + bits_per_word - 1) / bits_per_word - first_word, words + first_word,
                        detail::set_bits_in_word{words, first, last});
    col.set_null_count(0);
  }
}

/// @brief A deep copy of `col` (its rows only) in new memory from its resource: `col.deep_copy(stream)`.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> copy(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return col.deep_copy(stream);
}

/**
 * @brief Copies `src`'s rows and validity into `dst`, in place, through write access (a `dst`
 * that shares memory gets fresh memory instead, from its resource). `src` may be a shared view of
 * `dst`'s memory (the `shared_views` policy), overlapping it: it is then read from a deep copy,
 * so `dst` gets `src`'s rows as they were. Strong guarantee: if it throws, `dst` is as it was.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param src the rows to copy
 * @param dst the column written in place, of `src`'s size
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ, or if either column has nulls and
 *         `dst` shares its buffers under shared views (its validity would change under the other
 *         columns' null counts), before anything is written; devcol::out_of_memory
 */
template <fixed_width T, class Policy>
void copy_into(column<T, Policy> const& src, column<T, Policy>& dst, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // The memory this write gives dst (fresh values, a new mask) keeps dst's sharing mode, not the
  // option in force (rule 9).
  detail::keep_sharing_mode<Policy> const keep(dst.copy_on_write());
  detail::expect_same_size(src.size(), dst.size(), "copy_into");
  if (dst.writes_copy()) {  // every row is replaced: fresh memory, not a copy of dst, moved in at the end
    column<T, Policy> fresh = dst.template make_like<T>(dst.size(), stream);
    copy_into(src, fresh, stream);
    dst = std::move(fresh);
    return;
  }
  if (src.has_nulls() || dst.has_nulls()) { detail::expect_validity_writable(dst, "copy_into"); }
  // A source in dst's memory (a shared view of an overlapping range) is read from a copy: the
  // copy would otherwise read rows it had already overwritten.
  if (detail::bytes_overlap(src.data(access::read), src.size() * sizeof(T), dst.view().data(), dst.size() * sizeof(T))) {
    copy_into(src.deep_copy(stream), dst, stream);
    return;
  }
  // Strong guarantee: the new mask (the one allocation) is made before dst is written.
  std::optional<detail::new_mask<Policy>> mask;
  if (src.has_nulls()) { mask = detail::copied_validity(src, dst, stream); }
  copy_bytes(dst.data(access::write, stream), src.data(access::read), src.size() * sizeof(T), stream);
  if (mask) {
    dst.replace_null_mask(std::move(mask->mask), mask->nulls);
  } else if (dst.nullable()) {
    dst.replace_null_mask({}, 0);
  }
}

DEVCOL_NAMESPACE_END
