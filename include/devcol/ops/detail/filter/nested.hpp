/**
 * @file nested.hpp
 * @brief filter of list, struct, dictionary, run-end encoded and union columns: the kept row positions,
 * then their gather. Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/ops/detail/gather/nested.hpp>
#include <devcol/ops/detail/gather/run_end_encoded.hpp>
#include <devcol/ops/detail/gather/union.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of a list, struct, dictionary, run-end encoded or union column where `keep` is true (a null flag drops
 * the row), in order: the kept positions (a count, which synchronises `stream`, and one
 * compaction into int64 scratch from `col`'s resource), then gather() by them.
 * @tparam C the column kind
 * @tparam KeepPolicy the buffer policy of `keep` (any)
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class C, class KeepPolicy>
  requires(detail::is_nested_kind<C>)
[[nodiscard]] C filter(C const& col, column<bool, KeepPolicy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<typename C::policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  auto const positions = detail::kept_positions<typename C::policy>(keep, col.resource(), stream);
  return devcol::gather(col, positions, stream, out_of_bounds::nullify);
}

/**
 * @brief The rows of a dictionary column where `keep` is true (a null flag drops the row), in
 * order: filter() of its indices, which costs what the fixed-width filter of their type costs; the
 * values are shared, not copied (the result may leave some unused, as Arrow's filter does).
 * @tparam Policy the buffer policy of the input, of `keep` and of the result
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class Policy>
[[nodiscard]] dictionary_column<Policy> filter(dictionary_column<Policy> const& col, column<bool, Policy> const& keep,
                                               stream_ref stream = {}) {
  return dictionary_column<Policy>(col.visit_indices([&](auto const& own) {
    return typename dictionary_column<Policy>::indices_type(devcol::filter(own, keep, stream));
  }),
                                   col.values());
}

DEVCOL_NAMESPACE_END
