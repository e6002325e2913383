/**
 * @file filter.hpp
 * @brief `devcol::filter` (stream compaction by a bool column) of every column kind.
 *
 * Each kind's filter is in ops/detail/filter/<kind>.hpp: fixed width compacts its values, strings
 * list the kept rows then gather them, fixed-size binary and the nested kinds gather the kept row
 * positions, decimals filter their unscaled values. The `any_column` filter here dispatches once on
 * the kind.
 */
#pragma once

#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/width_word.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/binary_view.hpp>
#include <devcol/ops/detail/filter/decimal.hpp>
#include <devcol/ops/detail/filter/fixed_size_binary.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/ops/detail/filter/nested.hpp>
#include <devcol/ops/detail/filter/strings.hpp>
#include <devcol/ops/detail/null_kind.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/gather.hpp>

#include <variant>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief filter() of any column: dispatches once on its kind (`devcol::visit`) to that kind's filter
 * (see there for its costs). Where the kind's filter takes `keep` only of its own policy (fixed
 * width, strings, decimals, fixed-size binary) and `keep` has another, the kept positions are
 * listed instead (a count, which synchronises `stream`, and one compaction into int64 scratch from
 * `col`'s resource) and gathered by the any_column gather.
 * @tparam Policy the buffer policy of `col` and of the result
 * @tparam KeepPolicy the buffer policy of `keep` (any)
 * @param col the column to filter
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <buffer_policy Policy, class KeepPolicy>
[[nodiscard]] any_column<Policy> filter(any_column<Policy> const& col, column<bool, KeepPolicy> const& keep,
                                        stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return devcol::visit(
      [&](auto const& c) -> any_column<Policy> {
        if constexpr (requires { filter(c, keep, stream); }) {
          return filter(c, keep, stream);
        } else {
          detail::expect_same_size(c.size(), keep.size(), "filter");
          auto const positions = detail::kept_positions<Policy>(keep, c.resource(), stream);
          return devcol::gather(any_column<Policy>(c), positions, stream, out_of_bounds::nullify);
        }
      },
      col);
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp): filters of every kind.
DEVCOL_EXTERN_TEMPLATE any_column<default_policy> filter<default_policy, default_policy>(
    any_column<default_policy> const&, column<bool, default_policy> const&, stream_ref);
// And the fixed-width body of each width, which filter() of every fixed-width type that moves as
// its width's word runs.
#  define DEVCOL_FILTER_WORD(W)                                                                            \
    DEVCOL_EXTERN_TEMPLATE column<W, default_policy> detail::filter_fixed_width<W, default_policy>(        \
        column<W, default_policy> const&, column<bool, default_policy> const&, stream_ref);
DEVCOL_FOR_EACH_WIDTH_WORD(DEVCOL_FILTER_WORD)
#  undef DEVCOL_FILTER_WORD
#endif

DEVCOL_NAMESPACE_END
