/**
 * @file binary_view.hpp
 * @brief filter of string view and binary view columns: their 16-byte views filtered as fixed-size
 * binary rows (the data buffers are shared). Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/nested.hpp>
#include <devcol/ops/detail/gather/binary_view.hpp>
#include <devcol/ops/detail/filter/fixed_size_binary.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order, as a view
 * column of the same type over the same data buffers. With `keep` of `col`'s policy, the views are
 * filtered as 16-byte fixed-size binary rows (one pass over them where the views buffer is 16-byte
 * aligned; counting the kept rows synchronises `stream`); with another policy, the kept positions
 * (a count and a compaction into int64 scratch from `col`'s resource), then gather() of them.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (string view or binary view)
 * @tparam KeepPolicy the buffer policy of `keep` (any)
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class Policy, encoding E, class KeepPolicy>
[[nodiscard]] basic_binary_view_column<Policy, E> filter(basic_binary_view_column<Policy, E> const& col,
                                                         column<bool, KeepPolicy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  if constexpr (std::is_same_v<KeepPolicy, Policy>) {
    return detail::views_from_rows(col, devcol::filter(detail::views_as_rows(col), keep, stream));
  } else {
    auto const positions = detail::kept_positions<Policy>(keep, col.resource(), stream);
    return devcol::gather(col, positions, stream, out_of_bounds::nullify);
  }
}

DEVCOL_NAMESPACE_END
