/**
 * @file null_mask.hpp
 * @brief Null-mask ops: `is_null` and `is_valid` of every column kind (one body, over the mask
 * bits: detail::mask_flags; run-end encoded columns read their values' flags through the runs,
 * ops/detail/null_mask/run_end_encoded.hpp; unions their selected children's, null_mask/union.hpp;
 * dictionaries their values' through the indices, null_mask/dictionary.hpp), `fill_null` of
 * fixed-width, strings and decimal columns, and `set_null_mask` and `drop_null_mask` of fixed-width
 * columns.
 *
 * Each kind's fill_null is in ops/detail/null_mask/<kind>.hpp. fill_null of a kind without one is a
 * compile error naming the op, not a run-time throw.
 */
#pragma once

#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/kinds.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/null_mask/decimal.hpp>
#include <devcol/ops/detail/null_mask/dictionary.hpp>
#include <devcol/ops/detail/null_mask/fixed_width.hpp>
#include <devcol/ops/detail/null_mask/run_end_encoded.hpp>
#include <devcol/ops/detail/null_mask/strings.hpp>
#include <devcol/ops/detail/null_mask/union.hpp>

#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief A bool column, true where a row of `col` is null; no mask. One pass over the mask bits, in
 * order on `stream`, no synchronisation; the result comes from `col`'s resource.
 * @tparam C any column kind (fixed width, strings, decimal, fixed-size binary, list, struct;
 * dictionary and run-end encoded: there one pass over the values' flags, then one over the rows, so
 * a row whose value is null counts as null, as Arrow compute's is_null says; union: one pass over
 * each child's flags, then one over the rows, each reading its selected child's; the values' and
 * children's flags are logical at every depth, where Arrow C++ 26 reads a dictionary's indices alone
 * under a union or a run-end encoding)
 * @param col the column whose rows are tested
 * @param stream the stream the work is ordered on
 */
template <class C>
  requires detail::is_any_kind<C>
[[nodiscard]] column<bool, typename C::policy> is_null(C const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return detail::mask_flags(col, true, stream);
}

/**
 * @brief A bool column, true where a row of `col` is valid; no mask. One pass over the mask bits,
 * in order on `stream`, no synchronisation; the result comes from `col`'s resource.
 * @tparam C any column kind (fixed width, strings, decimal, fixed-size binary, list, struct;
 * dictionary and run-end encoded: there one pass over the values' flags, then one over the rows, so
 * a row whose value is null counts as null, as Arrow compute's is_null says; union: one pass over
 * each child's flags, then one over the rows, each reading its selected child's; the values' and
 * children's flags are logical at every depth, where Arrow C++ 26 reads a dictionary's indices alone
 * under a union or a run-end encoding)
 * @param col the column whose rows are tested
 * @param stream the stream the work is ordered on
 */
template <class C>
  requires detail::is_any_kind<C>
[[nodiscard]] column<bool, typename C::policy> is_valid(C const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  return detail::mask_flags(col, false, stream);
}

/**
 * @brief is_null() of any column: one dispatch on its kind, then as is_null() of that kind.
 * @tparam Policy the buffer policy of `col` and of the result
 * @param col the column whose rows are tested
 * @param stream the stream the work is ordered on
 */
template <buffer_policy Policy>
[[nodiscard]] column<bool, Policy> is_null(any_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::visit([&](auto const& c) { return detail::mask_flags(c, true, stream); }, col);
}

/**
 * @brief is_valid() of any column: one dispatch on its kind, then as is_valid() of that kind.
 * @tparam Policy the buffer policy of `col` and of the result
 * @param col the column whose rows are tested
 * @param stream the stream the work is ordered on
 */
template <buffer_policy Policy>
[[nodiscard]] column<bool, Policy> is_valid(any_column<Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::visit([&](auto const& c) { return detail::mask_flags(c, false, stream); }, col);
}

/**
 * @brief Stands for fill_null() of a kind without one (fixed-size binary, list, struct,
 * dictionary): a compile error.
 * @tparam C the column kind, one without a fill_null
 */
template <class C, class... Args> requires detail::lacks_value_order<C>
void fill_null(C const&, Args const&...) {
  static_assert(detail::kind_has_no<C>, "devcol::fill_null: this column kind has no fill_null (fixed-width, strings and decimal columns have one)");
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp).
DEVCOL_EXTERN_TEMPLATE column<bool, default_policy> is_null<default_policy>(any_column<default_policy> const&, stream_ref);
DEVCOL_EXTERN_TEMPLATE column<bool, default_policy> is_valid<default_policy>(any_column<default_policy> const&, stream_ref);
#endif

DEVCOL_NAMESPACE_END
