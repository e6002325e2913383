/**
 * @file reduce.hpp
 * @brief Reductions, nulls skipped: `sum`, `product`, `min`, `max`, `mean`, `count`, `any`, `all`.
 *
 * Each reduces in one pass over the values (and the mask, with nulls; `minmax` finds both extremes
 * in the one pass; floating-point `min` and `max` make a second only when the first ends on an
 * infinity) and returns its result to the host: it synchronises `stream`. The result is
 * empty (`std::nullopt`) when no row is valid. Result types: `sum` and `product` accumulate integers
 * in 64 bits of the same signedness (`std::int64_t` / `std::uint64_t`; `bool` counts as unsigned)
 * and floating point in `double`; `min` and `max` return the element type; `mean` returns `double`.
 *
 * Floating point follows Arrow compute (`min`, `max`, `min_max`, `sum`, `mean`, `product`):
 * `min`, `max` and `minmax` skip NaN as they skip nulls, and give NaN only when every valid row is
 * NaN; -0.0 and 0.0 are equal, so either may come back when both are extremes; infinities and
 * denormals are ordinary values. `sum`, `mean` and `product` propagate NaN (and give NaN for
 * +infinity plus -infinity, or zero times infinity); their rounding depends on the order in which
 * the backend combines rows, which differs from Arrow's, so they agree with Arrow within the usual
 * bound for floating-point summation (not bit for bit).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/wrapping.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/floating_point.hpp>
#include <devcol/ops/detail/host/reduce.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/logical.h>

#include <cuda/std/limits>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN

/// @brief The type `sum` and `product` of `T` accumulate and return.
template <class T>
using sum_type_t = std::conditional_t<std::is_floating_point_v<T>, double,
                                      std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

namespace detail {

/// The lesser of two values. Not an order with NaN (a reduction that met one would depend on how
/// it combined rows): floating-point callers turn NaN rows into the identity first (number_or),
/// which keeps this one compare on the reduction's dependency chain.
struct min_op {
  template <class T>
  DEVCOL_HOST_DEVICE T operator()(T a, T b) const noexcept { return b < a ? b : a; }
};
/// The greater of two values (NaN as for min_op).
struct max_op {
  template <class T>
  DEVCOL_HOST_DEVICE T operator()(T a, T b) const noexcept { return a < b ? b : a; }
};

/// The identity of min: +infinity for floating point (a finite maximum would beat an infinite row).
template <class T>
DEVCOL_HOST_DEVICE constexpr T highest() noexcept {
  if constexpr (requires { T::max(); }) {
    return T::max();
  } else if constexpr (std::is_floating_point_v<T>) {
    return ::cuda::std::numeric_limits<T>::infinity();
  } else {
    return ::cuda::std::numeric_limits<T>::max();
  }
}
/// The identity of max: -infinity for floating point.
template <class T>
DEVCOL_HOST_DEVICE constexpr T lowest() noexcept {
  if constexpr (requires { T::min(); }) {
    return T::min();
  } else if constexpr (std::is_floating_point_v<T>) {
    return -::cuda::std::numeric_limits<T>::infinity();
  } else {
    return ::cuda::std::numeric_limits<T>::lowest();
  }
}

/// `v`, or `identity` where it is NaN: what min and max of floating point combine, so that they skip NaN.
template <class T>
struct number_or {
  T identity;
  DEVCOL_HOST_DEVICE T operator()(T v) const noexcept { return is_nan(v) ? identity : v; }
};
/// Row `i`, or `identity` where it is null or NaN.
template <class T>
struct number_or_identity {
  column_view<T> view;
  T identity;
  DEVCOL_HOST_DEVICE T operator()(std::size_t i) const noexcept {
    return view.is_valid(i) && !is_nan(view[i]) ? view[i] : identity;
  }
};
/// Whether row `i` is valid and equal to `value`.
template <class T>
struct valid_and_equal {
  column_view<T> view;
  T value;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return view.is_valid(i) && view[i] == value; }
};

/// A value as `Acc`.
template <class Acc>
struct convert {
  template <class T>
  DEVCOL_HOST_DEVICE Acc operator()(T const& v) const noexcept { return static_cast<Acc>(v); }
};

#if DEVCOL_HOST_FAST_PATHS
/// The host fast path's step for a reduction operator, where it has one (sum, min, max).
template <class Op, class Acc>
struct host_fold_step {
  static constexpr bool exists = false;
};
template <class Acc>
struct host_fold_step<wrapping_plus, Acc> {
  static constexpr bool exists = true;
  using type = host::sum_step;
};
template <class Acc>
struct host_fold_step<min_op, Acc> {
  static constexpr bool exists = true;
  using type = host::min_step;
};
template <class Acc>
struct host_fold_step<max_op, Acc> {
  static constexpr bool exists = true;
  using type = host::max_step;
};
#endif

/// Reduces the valid rows of `col` as `Acc` with `op` from `identity`; empty when none is valid.
/// Without nulls it runs over the values alone, which vectorises; with nulls over rows and mask.
template <class Acc, class T, class Policy, class Op>
std::optional<Acc> reduce_valid(column<T, Policy> const& col, Acc identity, Op op, stream_ref stream) {
  if (col.size() == col.null_count()) { return std::nullopt; }
#if DEVCOL_HOST_FAST_PATHS
  if constexpr (std::is_arithmetic_v<T> && host_fold_step<Op, Acc>::exists) {
    column_view<T> const v = col.view();
    return host::fold(v.data(), v.size(), col.has_nulls() ? v.null_mask() : nullptr, v.mask_offset(), identity,
                      typename host_fold_step<Op, Acc>::type{});
  }
#endif
  executor exec(stream);
  if (!col.has_nulls()) {
    T const* first = col.data(access::read);
    return detail::transform_reduce_n(exec, first, col.size(), convert<Acc>{}, identity, op);
  }
  return detail::transform_reduce_n(exec, thrust::counting_iterator<std::size_t>(0), col.size(),
                                    value_or_identity<T, Acc>{col.view(), identity}, identity, op);
}

/**
 * The least (`op` min_op, `identity` highest()) or greatest valid row, floating point skipping NaN
 * as Arrow does; empty when no row is valid. One pass; for floating point a second one only when
 * the first found no number past the identity (±infinity), to tell a column whose numbers are all
 * that infinity from one that has only NaN (whose result is NaN).
 */
template <class T, class Policy, class Op>
std::optional<T> extreme(column<T, Policy> const& col, T identity, Op op, stream_ref stream) {
  if constexpr (!std::is_floating_point_v<T>) {
    return reduce_valid(col, identity, op, stream);
  } else {
    if (col.size() == col.null_count()) { return std::nullopt; }
    executor exec(stream);
    auto const rows = thrust::counting_iterator<std::size_t>(0);
    T found = identity;
#if DEVCOL_HOST_FAST_PATHS
    column_view<T> const v = col.view();
    found = host::fold(v.data(), v.size(), col.has_nulls() ? v.null_mask() : nullptr, v.mask_offset(), identity,
                       typename host_fold_step<Op, T>::type{});
#else
    if (!col.has_nulls()) {
      T const* first = col.data(access::read);
      found = detail::transform_reduce_n(exec, first, col.size(), number_or<T>{identity}, identity, op);
    } else {
      found = detail::transform_reduce_n(exec, rows, col.size(), number_or_identity<T>{col.view(), identity}, identity,
                                         op);
    }
#endif
    if (found != identity) { return found; }
    bool const identity_row = thrust::any_of(exec.policy(), rows, rows + static_cast<std::ptrdiff_t>(col.size()),
                                             valid_and_equal<T>{col.view(), identity});
    detail::read_back(exec);
    return identity_row ? found : ::cuda::std::numeric_limits<T>::quiet_NaN();
  }
}

/// Both extremes at once.
template <class T>
struct extremes {
  T lo;
  T hi;
};
/// A row as both extremes; NaN as the identities, so that minmax skips it.
template <class T>
struct to_extremes {
  DEVCOL_HOST_DEVICE extremes<T> operator()(T const& v) const noexcept {
    return is_nan(v) ? extremes<T>{highest<T>(), lowest<T>()} : extremes<T>{v, v};
  }
};
template <class T>
struct valid_to_extremes {
  column_view<T> view;
  DEVCOL_HOST_DEVICE extremes<T> operator()(std::size_t i) const noexcept {
    return view.is_valid(i) ? to_extremes<T>{}(view[i]) : extremes<T>{highest<T>(), lowest<T>()};
  }
};
struct merge_extremes {
  template <class T>
  DEVCOL_HOST_DEVICE extremes<T> operator()(extremes<T> const& a, extremes<T> const& b) const noexcept {
    return {min_op{}(a.lo, b.lo), max_op{}(a.hi, b.hi)};
  }
};

}  // namespace detail

/// @brief The sum of the valid rows, as sum_type_t<T>; floating point propagates NaN; an integer
/// total past 64 bits wraps (two's complement, as Arrow's `sum`). Synchronises `stream`.
/// @tparam T the element type: arithmetic, but not `int128_t` (decimal128's values, which GNU C++
/// counts as arithmetic: a 64-bit sum_type_t would cut its rows)
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, int128_t>)
[[nodiscard]] std::optional<sum_type_t<T>> sum(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::reduce_valid(col, sum_type_t<T>{0}, detail::wrapping_plus{}, stream);
}

/// @brief The product of the valid rows, as sum_type_t<T>; floating point propagates NaN; an
/// integer product past 64 bits wraps (two's complement). Synchronises `stream`.
/// @tparam T the element type: arithmetic, but not `int128_t` (as sum())
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, int128_t>)
[[nodiscard]] std::optional<sum_type_t<T>> product(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::reduce_valid(col, sum_type_t<T>{1}, detail::wrapping_multiplies{}, stream);
}

/// @brief The least valid row; floating point skips NaN, NaN only when every valid row is NaN
/// (Arrow's `min`). One pass (floating point: two when the result is +infinity). Synchronises `stream`
/// once per pass.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <ordered_fixed_width T, class Policy>
[[nodiscard]] std::optional<T> min(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::extreme(col, detail::highest<T>(), detail::min_op{}, stream);
}

/// @brief The greatest valid row; floating point skips NaN, NaN only when every valid row is NaN
/// (Arrow's `max`). One pass (floating point: two when the result is -infinity). Synchronises `stream`
/// once per pass.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <ordered_fixed_width T, class Policy>
[[nodiscard]] std::optional<T> max(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::extreme(col, detail::lowest<T>(), detail::max_op{}, stream);
}

/**
 * @brief The least and the greatest valid rows in one pass (Arrow's `min_max`), each as min() and
 * max() give it. Synchronises `stream`.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param stream the stream the work is ordered on
 */
template <ordered_fixed_width T, class Policy>
[[nodiscard]] std::optional<std::pair<T, T>> minmax(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (col.size() == col.null_count()) { return std::nullopt; }
  detail::executor exec(stream);
  detail::extremes<T> const init{detail::highest<T>(), detail::lowest<T>()};
  detail::extremes<T> found{};
#if DEVCOL_HOST_FAST_PATHS
  if constexpr (std::is_arithmetic_v<T>) {
    column_view<T> const v = col.view();
    detail::host::fold_minmax(v.data(), v.size(), col.has_nulls() ? v.null_mask() : nullptr, v.mask_offset(), init.lo,
                              init.hi, found.lo, found.hi);
  } else
#endif
  if (!col.has_nulls()) {
    T const* first = col.data(access::read);
    found = detail::transform_reduce_n(exec, first, col.size(), detail::to_extremes<T>{}, init,
                                       detail::merge_extremes{});
  } else {
    found = detail::transform_reduce_n(exec, thrust::counting_iterator<std::size_t>(0), col.size(),
                                       detail::valid_to_extremes<T>{col.view()}, init, detail::merge_extremes{});
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (found.hi < found.lo) {  // the identities: no valid row is a number
      return std::pair<T, T>{::cuda::std::numeric_limits<T>::quiet_NaN(), ::cuda::std::numeric_limits<T>::quiet_NaN()};
    }
  }
  return std::pair<T, T>{found.lo, found.hi};
}

/**
 * @brief Stand for min(), max() and minmax() of a column of a storage-only type (`float16`, the
 * intervals), whose rows have no order: each is a compile error naming the op.
 * @tparam T the element type, one without `<`
 * @tparam Policy the column's buffer policy
 */
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void min(column<T, Policy> const&, Args const&...) {
  static_assert(sizeof(T) == 0, "devcol::min: float16 and the intervals have no order (cast a float16 column to float first)");
}
/// @brief See min() of a storage-only type. @tparam T the element type @tparam Policy the buffer policy
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void max(column<T, Policy> const&, Args const&...) {
  static_assert(sizeof(T) == 0, "devcol::max: float16 and the intervals have no order (cast a float16 column to float first)");
}
/// @brief See min() of a storage-only type. @tparam T the element type @tparam Policy the buffer policy
template <fixed_width T, class Policy, class... Args> requires(!ordered_fixed_width<T>)
void minmax(column<T, Policy> const&, Args const&...) {
  static_assert(sizeof(T) == 0, "devcol::minmax: float16 and the intervals have no order (cast a float16 column to float first)");
}

/// @brief The mean of the valid rows, in double; floating point propagates NaN. Synchronises `stream`.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T>
[[nodiscard]] std::optional<double> mean(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  auto const total = detail::reduce_valid(col, 0.0, detail::wrapping_plus{}, stream);
  if (!total) { return std::nullopt; }
  return *total / static_cast<double>(col.size() - col.null_count());
}

/// @brief The number of valid rows: no kernel, no synchronisation (the null count is always known).
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
template <fixed_width T, class Policy>
[[nodiscard]] std::size_t count(column<T, Policy> const& col) noexcept {
  return col.size() - col.null_count();
}

/// @brief Whether any valid row is true (non-zero). Synchronises `stream`.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T>
[[nodiscard]] std::optional<bool> any(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::reduce_valid(col, false, cuda::std::logical_or<bool>{}, stream);
}

/// @brief Whether every valid row is true (non-zero). Synchronises `stream`.
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param col the input column
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
  requires std::is_arithmetic_v<T>
[[nodiscard]] std::optional<bool> all(column<T, Policy> const& col, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return detail::reduce_valid(col, true, cuda::std::logical_and<bool>{}, stream);
}

DEVCOL_NAMESPACE_END
