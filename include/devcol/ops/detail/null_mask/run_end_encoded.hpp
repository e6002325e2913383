/**
 * @file run_end_encoded.hpp
 * @brief is_null and is_valid of run-end encoded columns: the values' flags read through the runs
 * (a row is null when its run's value is). Users include devcol/ops/null_mask.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/run_end_encoded.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i`'s flag: the flag of its run's value (a binary search for the run).
template <class E>
struct run_flag {
  E const* ends;
  std::size_t runs;
  std::size_t offset;
  bool const* value_flags;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return value_flags[run_of_row(ends, runs, offset + i)];
  }
};

/**
 * The flags of rows [first, first + rows) of a run-end encoded column (true where a row is null,
 * or with `null` false valid): the values' flags (their kind's, one pass over the runs' values),
 * then one pass over the rows, each finding its run by a binary search. No synchronisation; scratch
 * and result from `col`'s resource. More specialised than the generic mask_flags, so is_null and
 * is_valid pick it.
 */
template <class Policy>
column<bool, Policy> mask_flags(run_end_encoded_column<Policy> const& col, bool null, stream_ref stream,
                                std::size_t first, std::size_t rows) {
  auto const value_flags =
      devcol::visit([&](auto const& v) { return detail::mask_flags(v, null, stream); }, col.values());
  column<bool, Policy> out(rows, stream, mask_state::unallocated, col.resource());
  if (rows == 0) { return out; }
  col.visit_run_ends([&]<class E>(column<E, Policy> const& ends) {
    executor exec(stream);
    detail::tabulate(exec, rows, out.data(access::write, stream),
                     run_flag<E>{ends.data(access::read), ends.size(), col.offset() + first, value_flags.data(access::read)});
  });
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
