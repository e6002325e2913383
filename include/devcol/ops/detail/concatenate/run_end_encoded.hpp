/**
 * @file run_end_encoded.hpp
 * @brief concatenate of run-end encoded columns: each input's runs, their ends rebased to where the
 * input's rows begin in the result, and their values concatenated by the values' kind. The result
 * stays run-end encoded. Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/rows.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/concatenate/nested.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// A run end of an input moved to the input's first row (`offset`), cut at its `size` rows and
/// moved to where those rows begin in the result (`base`).
template <class E>
struct shift_run_end {
  std::int64_t offset;
  std::int64_t size;
  std::int64_t base;
  DEVCOL_HOST_DEVICE E operator()(E end) const noexcept {
    std::int64_t const e = static_cast<std::int64_t>(end) - offset;
    return static_cast<E>((e < size ? e : size) + base);
  }
};

/// concatenate() of run-end encoded inputs whose run ends are `E`s.
template <class E, class Policy>
run_end_encoded_column<Policy> concatenate_runs(std::span<run_end_encoded_column<Policy> const> cols,
                                                stream_ref stream) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  std::size_t runs = 0;
  std::size_t rows = 0;
  for (auto const& c : cols) {
    ranges.push_back(c.run_range(stream));
    runs += ranges.back().second - ranges.back().first;
    rows = add_rows("concatenate", rows, c.size());
  }
  DEVCOL_EXPECTS(rows <= static_cast<std::size_t>(std::numeric_limits<E>::max()), "concatenate: ", rows,
                 " rows do not fit run ends of ", sizeof(E) * 8, " bits");
  column<E, Policy> ends(runs, stream, mask_state::unallocated, cols.front().resource());
  std::vector<any_column<Policy>> values;
  std::size_t at = 0;
  std::size_t base = 0;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    auto const [first, last] = ranges[i];
    auto const& c = cols[i];
    values.push_back(devcol::slice(c.values(), first, last, stream));
    if (last != first) {
      E const* const src = std::get<column<E, Policy>>(c.run_ends()).data(access::read) + first;
      executor exec(stream);
      detail::transform_n(exec, src, (last - first), ends.data(access::write, stream) + at,
                          shift_run_end<E>{static_cast<std::int64_t>(c.offset()), static_cast<std::int64_t>(c.size()),
                                           static_cast<std::int64_t>(base)});
    }
    at += last - first;
    base += c.size();
  }
  auto joined = devcol::concatenate(std::span<any_column<Policy> const>(values), stream);
  return run_end_encoded_column<Policy>(run_ends_column<Policy>(std::move(ends)), std::move(joined), rows);
}

}  // namespace detail

/**
 * @brief The rows of every run-end encoded input, one after the other, run-end encoded: each
 * input's runs found by two binary searches (each synchronises `stream`), their ends rebased into
 * one new run-ends column (one pass per input, from the first input's resource) and their values
 * concatenated by the values' kind. Runs that meet at an input's edge are not merged.
 * @tparam Policy the buffer policy of the inputs and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both types when the run-end or value types differ, or the row
 * count when it does not fit the run ends' type
 */
template <class Policy>
[[nodiscard]] run_end_encoded_column<Policy> concatenate(std::span<run_end_encoded_column<Policy> const> cols,
                                                         stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return {}; }
  detail::expect_same_types(cols, "concatenate");
  return cols.front().visit_run_ends([&]<class E>(column<E, Policy> const&) {
    return detail::concatenate_runs<E>(cols, stream);
  });
}

DEVCOL_NAMESPACE_END
