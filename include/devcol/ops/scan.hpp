/**
 * @file scan.hpp
 * @brief Scans: `inclusive_scan` and `exclusive_scan` with sum, min or max.
 *
 * Floating point follows Arrow compute's `cumulative_sum`, `cumulative_min` and `cumulative_max`
 * with `skip_nulls=True`: a running sum propagates NaN from its row on; a running min or max skips
 * NaN rows as it skips nulls, so the rows before the first number hold the identity (+infinity for
 * min, -infinity for max, as Arrow gives; the min() reduction of the same rows gives NaN instead,
 * also as Arrow does). A NaN row is not null: its result is the running value.
 * -0.0 and 0.0 are equal (either may be kept). Sums accumulate in `T` and their rounding depends on
 * the order in which the backend combines rows, which differs from Arrow's sequential one. On the
 * host backend a block or a thread's tile whose sums come near the end of the finite range (the
 * type's largest binade) is summed again in row order, so its infinities and NaN fall where the
 * row-order sum's do from the running value it starts with; that value may still differ from
 * Arrow's by the reordered rounding of earlier rows, which decides a sum within those few units
 * of the overflow threshold. CUDA's and the host's Thrust path (fast paths off) do not rescan:
 * there a partial sum taken in another order can overflow where the row-order sum does not, or
 * not where it does (values near the type's largest).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/wrapping.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/host/scan.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/reduce.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/// @brief The operation of a scan.
enum class scan_op { sum, min, max };

namespace detail {

/// Scans the rows of `col` with `op` from `identity`, inclusively or not. `SkipNan`: NaN rows count
/// as the identity (as Arrow's cumulative_min / cumulative_max skip them), through
/// number_or_identity. Rows are read through the validity whether or not the column has nulls, and
/// the direction is a template argument: one scan kernel per (type, operation, direction).
template <bool Inclusive, bool SkipNan, class T, class Policy, class Op>
column<T, Policy> run_scan(column<T, Policy> const& col, Op op, T identity, stream_ref stream) {
  auto out = col.template make_like<T>(col.size(), stream);
  T* result = out.data(access::write, stream);
  executor exec(stream);
  auto const rows = thrust::counting_iterator<std::size_t>(0);
  auto const first = [&] {
    if constexpr (SkipNan) {
      return thrust::make_transform_iterator(rows, number_or_identity<T>{col.view(), identity});
    } else {
      return thrust::make_transform_iterator(rows, value_or_identity<T, T>{col.view(), identity});
    }
  }();
  if constexpr (Inclusive) {
    inclusive_scan_n(exec, first, col.size(), result, op);
  } else {
    exclusive_scan_n(exec, first, col.size(), result, identity, op);
  }
  copy_validity(col, out, stream);
  return out;
}

#if DEVCOL_HOST_FAST_PATHS
/// The host fast path of run_scan() (host/scan.hpp): the same rows, NaN and nulls treated alike.
template <bool Inclusive, host::scan_kind Kind, class T, class Policy>
column<T, Policy> run_host_scan(column<T, Policy> const& col, T identity, stream_ref stream) {
  auto out = col.template make_like<T>(col.size(), stream);
  T* result = out.data(access::write, stream);
  column_view<T> const v = col.view();
  bitmask_word const* mask = col.has_nulls() ? v.null_mask() : nullptr;
  host::scan<Kind, Inclusive>(v.data(), v.size(), mask, v.mask_offset(), identity, result);
  copy_validity(col, out, stream);
  return out;
}
#endif

template <bool Inclusive, class T, class Policy>
column<T, Policy> scan(column<T, Policy> const& col, scan_op op, stream_ref stream) {
  DEVCOL_EXPECTS_ENUMERATOR(op, scan_op::max, Inclusive ? "inclusive_scan" : "exclusive_scan", "scan_op");
#if DEVCOL_HOST_FAST_PATHS
  switch (op) {
    case scan_op::min: return run_host_scan<Inclusive, host::scan_kind::min>(col, highest<T>(), stream);
    case scan_op::max: return run_host_scan<Inclusive, host::scan_kind::max>(col, lowest<T>(), stream);
    case scan_op::sum: break;
  }
  return run_host_scan<Inclusive, host::scan_kind::sum>(col, T{0}, stream);
#else
  constexpr bool skip_nan = std::is_floating_point_v<T>;
  switch (op) {
    case scan_op::min: return run_scan<Inclusive, skip_nan>(col, min_op{}, highest<T>(), stream);
    case scan_op::max: return run_scan<Inclusive, skip_nan>(col, max_op{}, lowest<T>(), stream);
    case scan_op::sum: break;
  }
  return run_scan<Inclusive, false>(col, wrapping_plus{}, T{0}, stream);
#endif
}
}  // namespace detail

/**
 * @brief Running `op` over the rows, each result including its own row: one pass. Nulls are skipped
 * (they do not reset or poison the running value) and stay null in the result (pandas' skipna,
 * Arrow's skip_nulls). Floating point: see the file's comment (NaN propagates through a sum and is
 * skipped by min and max). Accumulates in `T` (as libcudf), so a long integer sum can wrap. No
 * synchronisation.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param op the running operation
 * @param stream the stream the work is ordered on
 */
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
[[nodiscard]] column<T, Policy> inclusive_scan(column<T, Policy> const& col, scan_op op, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::scan<true>(col, op, stream);
}

/// @brief As inclusive_scan, each result excluding its own row (the first is op's identity: 0 for
/// sum; for min and max the type's greatest and least values, ±infinity for floating point).
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param op the running operation
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
[[nodiscard]] column<T, Policy> exclusive_scan(column<T, Policy> const& col, scan_op op, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::scan<false>(col, op, stream);
}

DEVCOL_NAMESPACE_END
