/**
 * @file scan.hpp
 * @brief Scans: `inclusive_scan` and `exclusive_scan` with sum, min or max.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/reduce.hpp>

#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/// @brief The operation of a scan.
enum class scan_op { sum, min, max };

namespace detail {

template <class T, class Policy, class Op>
column<T, Policy> run_scan(column<T, Policy> const& col, Op op, T identity, bool inclusive, stream_ref stream) {
  auto out = col.template make_like<T>(col.size(), stream);
  T* result = out.data(access::write, stream);
  executor exec(stream);
  auto const scan_range = [&](auto first) {
    auto const last = first + static_cast<std::ptrdiff_t>(col.size());
    if (inclusive) {
      thrust::inclusive_scan(exec.policy(), first, last, result, op);
    } else {
      thrust::exclusive_scan(exec.policy(), first, last, result, identity, op);
    }
  };
  if (!col.has_nulls()) {
    scan_range(col.data(access::read));  // over the values alone
    return out;
  }
  scan_range(thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                             value_or_identity<T, T>{col.view(), identity}));
  copy_validity(col, out, stream);
  return out;
}

template <class T, class Policy>
column<T, Policy> scan(column<T, Policy> const& col, scan_op op, bool inclusive, stream_ref stream) {
  switch (op) {
    case scan_op::min: return run_scan(col, min_op{}, highest<T>(), inclusive, stream);
    case scan_op::max: return run_scan(col, max_op{}, lowest<T>(), inclusive, stream);
    case scan_op::sum: break;
  }
  return run_scan(col, thrust::plus<T>{}, T{0}, inclusive, stream);
}
}  // namespace detail

/**
 * @brief Running `op` over the rows, each result including its own row: one pass. Nulls are skipped
 * (they do not reset or poison the running value) and stay null in the result (pandas' skipna).
 * Accumulates in `T` (as libcudf), so a long integer sum can wrap. No synchronisation.
 */
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
[[nodiscard]] column<T, Policy> inclusive_scan(column<T, Policy> const& col, scan_op op, stream_ref stream = {}) {
  return detail::scan(col, op, true, stream);
}

/// @brief As inclusive_scan, each result excluding its own row (the first is op's identity: 0 for
/// sum; for min and max the type's greatest and least values, ±infinity for floating point).
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
[[nodiscard]] column<T, Policy> exclusive_scan(column<T, Policy> const& col, scan_op op, stream_ref stream = {}) {
  return detail::scan(col, op, false, stream);
}

DEVCOL_NAMESPACE_END
