/**
 * @file validity.hpp
 * @brief What the ops share: building result columns and their validity masks.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/validity_view.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Whether row `i` of a view is valid, as a functor over row indices. It holds the validity only,
/// not the values' type, so every kernel that reads validity alone is compiled once, not once per
/// element type.
struct row_is_valid {
  validity_view view;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return view.is_valid(i); }
};

/// Row `i` valid (or, with `null` set, null), read from bit `offset + i` of `mask` (none: every row
/// valid): row_is_valid negated at run time, so that a kernel wanting either is compiled once. It
/// holds no null count, so it reads a window of a column's rows as well as the whole.
struct mask_flag {
  bitmask_word const* mask;
  std::size_t offset;
  bool null;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return (mask == nullptr || bit_is_set(mask, offset + i)) != null;
  }
};

/**
 * Throws unless the validity of `dst` may change in place. Under shared views (rule 9) a write
 * through one column is seen by every column sharing its buffers, but each of them keeps its own
 * null count, which is always known and never counted again later: a change of validity through
 * a column that shares its buffers would leave the others' counts, and masks they do not share,
 * wrong. So such a write is refused before anything is written; writes of values alone are not.
 * Copy-on-write targets pass: they write into memory of their own, or, once exposed (rule 11),
 * share it only with holders outside devcol (a DLPack tensor), since their copies are deep
 * (rule 12) and no other column counts their nulls.
 */
template <class Column>
void expect_validity_writable(Column const& dst, std::string_view op) {
  DEVCOL_EXPECTS(dst.copy_on_write() || dst.writes_copy() || !dst.is_shared(), op,
                 ": the target shares its buffers with another column (shared views) and this write would "
                 "change its validity, which the other column's null count would not follow; write nulls "
                 "through a column that holds its buffers alone (a deep_copy)");
}

/// A mask made aside, and its null count: what an op commits with replace_null_mask().
template <class Policy>
struct new_mask {
  buffer<Policy> mask;
  std::size_t nulls = 0;
};

/**
 * @brief A new mask for `out` holding `valid(row)` for each of its rows (at its offset), written in
 * one pass over the mask words, and the null count from one more pass over them (which
 * synchronises `stream`). The mask comes from `out`'s resource. Changes nothing: in-place ops make
 * it before they write, so a failed allocation leaves their target as it was. `Column`: any
 * column kind with offset(), size(), resource() and a `policy`.
 */
template <class Column, class Valid>
new_mask<typename Column::policy> make_validity(Column const& out, Valid valid, stream_ref stream) {
  std::size_t const first = out.offset();
  new_mask<typename Column::policy> made{
      pack_bits<typename Column::buffer_type>(valid, first, out.size(), out.resource(), stream)};
  made.nulls = count_unset_bits(static_cast<bitmask_word const*>(made.mask.data(access::read)), first,
                                first + out.size(), stream);
  return made;
}

/// @brief Gives `out` (any column kind) the mask make_validity() makes (see there).
template <class Column, class Valid>
void set_validity(Column& out, Valid valid, stream_ref stream) {
  auto made = make_validity(out, valid, stream);
  out.replace_null_mask(std::move(made.mask), made.nulls);
}

/// Word `w` of `words` with bits [first, last) set and the others kept.
struct set_bits_in_word {
  bitmask_word const* words;
  std::size_t first;
  std::size_t last;
  DEVCOL_HOST_DEVICE bitmask_word operator()(std::size_t w) const noexcept {
    std::size_t const low = w * bits_per_word;
    std::size_t const b0 = first > low ? first - low : 0;
    std::size_t const b1 = last < low + bits_per_word ? last - low : bits_per_word;
    bitmask_word const upto = b1 == bits_per_word ? ~bitmask_word{0} : (bitmask_word{1} << b1) - 1;
    return words[w] | (upto & ~((bitmask_word{1} << b0) - 1));
  }
};

/// Row `i` of a bool column without nulls (a validity computed one byte per row).
struct flag_set {
  column_view<bool> flags;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return flags[i]; }
};

/// Row `i` as `Acc`, or `fallback` where it is null (a reduction's identity, fill_null's value).
template <class T, class Acc>
struct value_or_identity {
  column_view<T> view;
  Acc identity;
  DEVCOL_HOST_DEVICE Acc operator()(std::size_t i) const noexcept {
    return view.is_valid(i) ? static_cast<Acc>(view[i]) : identity;
  }
};

/// Valid where both views are valid (validity only, as row_is_valid).
struct both_valid {
  validity_view a;
  validity_view b;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return a.is_valid(i) && b.is_valid(i); }
};

/// The mask copy_validity() gives `out` (`in` has nulls), made aside: changes nothing.
template <class T, class U, class Policy>
new_mask<Policy> copied_validity(column<T, Policy> const& in, column<U, Policy> const& out, stream_ref stream) {
  if (out.offset() != 0) {  // rare (an op writing in place into a slice): pack at the offset
    return make_validity(out, row_is_valid{in.view()}, stream);
  }
  return {copy_bits<buffer<Policy>>(in.null_mask(access::read), in.offset(), in.offset() + in.size(), out.resource(),
                                    stream),
          in.null_count()};
}

/**
 * @brief Gives `out` the validity of `in` (same rows): nothing when `in` has no nulls, else a copy
 * of `in`'s mask bits for its rows (one pass over the mask, no recount: the null count is `in`'s).
 */
template <class T, class U, class Policy>
void copy_validity(column<T, Policy> const& in, column<U, Policy>& out, stream_ref stream) {
  if (!in.has_nulls()) { return; }
  auto made = copied_validity(in, out, stream);
  out.replace_null_mask(std::move(made.mask), made.nulls);
}

/// Throws devcol::logic_error unless two inputs of `op` have the same number of rows.
template <int = 0>
void expect_same_size(std::size_t a, std::size_t b, std::string_view op) {
  DEVCOL_EXPECTS(a == b, op, ": inputs have ", a, " and ", b, " rows");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
