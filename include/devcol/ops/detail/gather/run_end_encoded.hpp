/**
 * @file run_end_encoded.hpp
 * @brief gather of run-end encoded columns: each index's run found by a binary search, adjacent
 * rows of one run merged into one run, then the values gathered by run. The result stays run-end
 * encoded. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

template <buffer_policy Policy, std::integral I, class IndexPolicy>
[[nodiscard]] any_column<Policy> gather(any_column<Policy> const& col, column<I, IndexPolicy> const& indices,
                                        stream_ref stream, out_of_bounds policy);

namespace detail {

/// The run holding logical row `row`: the first run whose end is greater (a binary search).
template <class E>
DEVCOL_HOST_DEVICE std::int64_t run_of_row(E const* ends, std::size_t runs, std::size_t row) noexcept {
  return thrust::upper_bound(thrust::seq, ends, ends + runs, static_cast<std::int64_t>(row)) - ends;
}

/// Result row `i` of a run-end encoded gather: the run of source row `indices[i]` (the column's
/// offset added), or -1 for a null or out-of-bounds index (the values' gather makes it null).
template <class E, class I>
struct run_of_index {
  E const* ends;
  std::size_t runs;
  std::size_t offset;
  index_rows<I> rows;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::size_t i) const noexcept {
    std::size_t const r = rows(i);
    return r == index_rows<I>::none ? -1 : run_of_row(ends, runs, offset + r);
  }
};

/// Whether row `i` of a run map ends a run of the result: the last row, or the next row's run differs.
struct ends_a_run {
  std::int64_t const* map;
  std::size_t rows;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return i + 1 == rows || map[i] != map[i + 1]; }
};

/// The end of the result run whose last row is `row`: row + 1, as a run end of type `E`
/// (encode_runs() checked that every end fits).
template <class E>
struct run_end_after {
  DEVCOL_HOST_DEVICE E operator()(std::int64_t row) const noexcept { return static_cast<E>(row + 1); }
};

/**
 * The run-end encoded column whose row `i` is run `map[i]` of `col` (-1: a null row): adjacent
 * rows of one run merged (a count, which synchronises `stream`, then one compaction of the runs'
 * last rows, whatever the run ends' type, so that one compaction kernel serves every type), their
 * ends and source runs written from those rows (one pass each, the second in place), then the
 * values gathered by run (nullify: -1 gives a null value). Scratch and result from `col`'s resource.
 * @throws devcol::logic_error when the rows do not fit the run ends' type
 */
template <class E, class Policy>
run_end_encoded_column<Policy> encode_runs(run_end_encoded_column<Policy> const& col,
                                           column<std::int64_t, Policy> const& map, stream_ref stream) {
  std::size_t const n = map.size();
  DEVCOL_EXPECTS(n <= static_cast<std::size_t>(std::numeric_limits<E>::max()), "run_end_encoded_column: ", n,
                 " rows do not fit run ends of ", sizeof(E) * 8, " bits");
  std::size_t runs = 0;
  std::int64_t const* const m = map.data(access::read);
  if (n != 0) {
    executor exec(stream);
    runs = detail::count_if_n(exec, thrust::counting_iterator<std::size_t>(0), n, ends_a_run{m, n});
  }
  column<E, Policy> ends(runs, stream, mask_state::unallocated, col.resource());
  column<std::int64_t, Policy> value_rows(runs, stream, mask_state::unallocated, col.resource());
  if (runs != 0) {
    executor exec(stream);
    std::int64_t* const last_rows = value_rows.data(access::write, stream);  // then each run's source run
    detail::copy_if_n(exec, thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::size_t>(0), n,
                      last_rows, ends_a_run{m, n});
    detail::transform_n(exec, last_rows, runs, ends.data(access::write, stream), run_end_after<E>{});
    detail::transform_n(exec, last_rows, runs, last_rows, int64_at{m});
  }
  auto values = devcol::gather(col.values(), value_rows, stream, out_of_bounds::nullify);
  return run_end_encoded_column<Policy>(run_ends_column<Policy>(std::move(ends)), std::move(values), n);
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of a run-end encoded column for each `i`, run-end encoded with the same
 * run-end and value types: each index's run found by a binary search (`thrust::upper_bound`, one
 * pass into int64 scratch from `col`'s resource), adjacent result rows of one run merged into one
 * run (a count, which synchronises `stream`, and two compactions), and the values gathered by
 * run with their own kind's gather. A null index gives a null row (a null value), as does an
 * out-of-bounds one with `nullify`.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error,
 * or the row count when it does not fit the run ends' type (int16 ends hold at most 32767 rows)
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] run_end_encoded_column<Policy> gather(run_end_encoded_column<Policy> const& col,
                                                    column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                    out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::check_gather(policy, indices.view(), col.size(), stream);
  return col.visit_run_ends([&]<class E>(column<E, Policy> const& ends) {
    column<std::int64_t, Policy> map(indices.size(), stream, mask_state::unallocated, col.resource());
    if (map.size() != 0) {
      detail::executor exec(stream);
      detail::tabulate(
          exec, map.size(), map.data(access::write, stream),
          detail::run_of_index<E, I>{ends.data(access::read), ends.size(), col.offset(), {indices.view(), col.size()}});
    }
    return detail::encode_runs<E>(col, map, stream);
  });
}

DEVCOL_NAMESPACE_END
