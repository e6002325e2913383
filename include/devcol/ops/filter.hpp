/**
 * @file filter.hpp
 * @brief `devcol::filter` (stream compaction by a bool column) and `devcol::concatenate`.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/null_mask.hpp>

#include <thrust/copy.h>
#include <thrust/functional.h>

#include <cuda/std/functional>
#include <thrust/count.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <ranges>
#include <span>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

#if DEVCOL_BACKEND_HOST
/**
 * The kept rows of `in` (where `keep` is true) into `out`, which holds exactly `kept` rows: one
 * branchless pass. Measured on 2^24 int64 rows with half kept: Thrust's OpenMP copy_if (its
 * generic flags, scan and scatter) 89 ms, Thrust's serial copy_if (a branch per row, half of them
 * mispredicted) 74 ms, Arrow C++'s filter 44 ms; this loop is in bench/RESULTS.md. On CUDA,
 * Thrust's copy_if is CUB's DeviceSelect and stays. `in` and `keep` are random-access iterators
 * (the strings filter compacts row numbers, by flags that may be null).
 */
template <class In, class Keep, class T>
void compact_flagged(In in, Keep keep, std::size_t n, T* out, std::size_t kept) noexcept {
  std::size_t j = 0;
  for (std::size_t i = 0; i < n && j < kept; ++i) {
    out[j] = in[i];
    j += keep[i] ? 1U : 0U;
  }
}
#endif

}  // namespace detail

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order: stream
 * compaction. One pass to count the kept rows (which synchronises `stream`, to size the result
 * exactly), one to copy values; with nulls, the kept rows' validity goes through one byte per row of
 * scratch (from `col`'s resource) and the result's nulls are counted (synchronises).
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> filter(column<T, Policy> const& col, column<bool, Policy> const& keep,
                                       stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  detail::executor exec(stream);
  if (!keep.has_nulls() && !col.has_nulls()) {  // the flags' bytes are the stencil: no row arithmetic
    bool const* flags = keep.data(access::read);
    auto const n = static_cast<std::size_t>(thrust::count(exec.policy(), flags, flags + keep.size(), true));
    auto out = col.template make_like<T>(n, stream);
    T const* in = col.data(access::read);
#if DEVCOL_BACKEND_HOST
    detail::compact_flagged(in, flags, col.size(), out.data(access::write, stream), n);
#else
    thrust::copy_if(exec.policy(), in, in + col.size(), flags, out.data(access::write, stream), ::cuda::std::identity{});
#endif
    return out;
  }
  auto const rows = thrust::counting_iterator<std::size_t>(0);
  auto const flags = thrust::make_transform_iterator(rows, detail::true_and_valid{keep.view()});
  auto const n = static_cast<std::size_t>(
      thrust::count(exec.policy(), flags, flags + static_cast<std::ptrdiff_t>(col.size()), true));
  auto out = col.template make_like<T>(n, stream);
  T const* in = col.data(access::read);
  thrust::copy_if(exec.policy(), in, in + col.size(), rows, out.data(access::write, stream), detail::true_and_valid{keep.view()});
  if (col.has_nulls()) {
    auto valid = col.template make_like<bool>(n, stream);
    auto const validity = thrust::make_transform_iterator(rows, detail::row_is_valid<T>{col.view()});
    thrust::copy_if(exec.policy(), validity, validity + static_cast<std::ptrdiff_t>(col.size()), rows,
                    valid.data(access::write, stream), detail::true_and_valid{keep.view()});
    detail::set_validity(out, detail::flag_set{valid.view()}, stream);
  }
  return out;
}

/**
 * @brief The rows of every column in `cols`, one after the other, in new memory from the first's
 * resource: one copy per input for the values; with nulls, a small index of the inputs is copied to
 * the device and one pass writes the result's mask words, then `stream` is synchronised (the host
 * index must outlive its copy). The null count is the inputs' sum: nothing is recounted. An empty
 * list gives an empty column.
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> concatenate(std::span<column<T, Policy> const> cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return column<T, Policy>{}; }
  std::size_t rows = 0;
  std::size_t nulls = 0;
  for (auto const& c : cols) {
    rows += c.size();
    nulls += c.null_count();
  }
  auto out = cols.front().template make_like<T>(rows, stream);
  T* dst = out.data(access::write, stream);
  for (auto const& c : cols) {
    copy_bytes(dst, c.data(access::read), c.size() * sizeof(T), stream);
    dst += c.size();
  }
  if (nulls == 0) { return out; }
  auto mask = detail::concatenated_mask(cols, rows, out.resource(), stream);
  return column<T, Policy>(out.data_buffer(), std::move(mask), rows, nulls);
}

/// @brief concatenate() of an initializer list or vector of columns.
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> concatenate(std::vector<column<T, Policy>> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<column<T, Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
