/**
 * @file fixed_width.hpp
 * @brief filter (stream compaction by a bool column) of fixed-width columns, and the host
 * backend's compaction loop that the strings filter shares. Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/host/filter.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/column/detail/width_word.hpp>

#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

#if DEVCOL_BACKEND_HOST
/**
 * The kept rows of `in` (where `keep` is true) into `out`, which holds exactly `kept` rows: one
 * branchless pass. Measured on 2^24 int64 rows with half kept: Thrust's OpenMP copy_if (its
 * generic flags, scan and scatter) 89 ms, Thrust's serial copy_if (a branch per row, half of them
 * mispredicted) 74 ms, Arrow C++'s filter 44 ms; this loop is in bench/RESULTS.md. On CUDA,
 * CUB's DeviceSelect does it (copy_if_n). `in` and `keep` are random-access iterators
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

/// The number of rows `keep` keeps (true and not null): one count, which synchronises `stream`.
template <class KeepPolicy>
std::size_t kept_count(column<bool, KeepPolicy> const& keep, stream_ref stream) {
  executor exec(stream);
  return count_if_n(exec, thrust::counting_iterator<std::size_t>(0), keep.size(), true_and_valid{keep.view()});
}

/// The positions of the rows `keep` keeps (true and not null), as int64 from `resource`: a count
/// (synchronises `stream`) and one compaction.
template <class Policy, class KeepPolicy>
column<std::int64_t, Policy> kept_positions(column<bool, KeepPolicy> const& keep,
                                            typename buffer<Policy>::resource_type resource, stream_ref stream) {
  std::size_t const n = kept_count(keep, stream);
  executor exec(stream);
  auto const rows = thrust::counting_iterator<std::size_t>(0);
  column<std::int64_t, Policy> out(n, stream, mask_state::unallocated, std::move(resource));
#if DEVCOL_BACKEND_HOST  // one branchless pass; Thrust's OpenMP copy_if makes three (see compact_flagged)
  compact_flagged(thrust::counting_iterator<std::int64_t>(0),
                  thrust::make_transform_iterator(rows, true_and_valid{keep.view()}), keep.size(),
                  out.data(access::write, stream), n);
#else
  copy_if_n(exec, thrust::counting_iterator<std::int64_t>(0), rows, keep.size(), out.data(access::write, stream),
            true_and_valid{keep.view()});
#endif
  return out;
}

}  // namespace detail

namespace detail {
/// filter() of fixed-width rows, for the types that are their own width word.
template <class T, class Policy>
[[nodiscard]] column<T, Policy> filter_fixed_width(column<T, Policy> const& col, column<bool, Policy> const& keep,
                                                   stream_ref stream) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
#if DEVCOL_HOST_FAST_PATHS
  {  // values and validity in one pass per thread, after one counting each thread's kept rows (host/filter.hpp)
    column_view<T> const v = col.view();
    column_view<bool> const k = keep.view();
    detail::host::filter_flags const flags{k.data(), keep.has_nulls() ? k.null_mask() : nullptr, k.mask_offset()};
    auto const plan = detail::host::plan_filter(flags, k.size());
    std::size_t const n = plan.kept();
    auto out = col.template make_like<T>(n, stream);
    if (!col.has_nulls()) {
      (void)detail::host::compact(plan, v.data(), nullptr, 0, flags, v.size(), out.data(access::write, stream), nullptr, 0);
      return out;
    }
    std::size_t const bytes = bitmask_allocation_size(n);
    buffer<Policy> mask(bytes, stream, mr::default_alignment, out.resource());
    std::size_t const valid = detail::host::compact(plan, v.data(), v.null_mask(), v.mask_offset(), flags, v.size(),
                                                    out.data(access::write, stream),
                                                    static_cast<bitmask_word*>(mask.data(access::write, stream)),
                                                    bytes / sizeof(bitmask_word));
    if (valid != n) { out.replace_null_mask(std::move(mask), n - valid); }
    return out;
  }
#else
  detail::executor exec(stream);
  if (!keep.has_nulls() && !col.has_nulls()) {  // the flags' bytes are the stencil: no row arithmetic
    bool const* flags = keep.data(access::read);
    std::size_t const n = detail::count_if_n(exec, flags, keep.size(), detail::is_true{});
    auto out = col.template make_like<T>(n, stream);
    T const* in = col.data(access::read);
#  if DEVCOL_BACKEND_HOST
    detail::compact_flagged(in, flags, col.size(), out.data(access::write, stream), n);
#  else
    detail::copy_if_n(exec, in, flags, col.size(), out.data(access::write, stream), ::cuda::std::identity{});
#  endif
    return out;
  }
  // With nulls, the kept rows' positions, then a gather by them: the kernels every filter and
  // every gather by int64 rows share, where compacting values and validity directly would compile
  // two compactions per width. The passes are as many.
  auto const positions = kept_positions<Policy>(keep, col.resource(), stream);
  std::size_t const n = positions.size();
  auto out = col.template make_like<T>(n, stream);
  detail::index_rows<std::int64_t> const rows{positions.view(), col.size()};
  detail::tabulate(exec, n, out.data(access::write, stream), detail::gather_value<T, std::int64_t>{col.view(), rows});
  if (col.has_nulls()) { detail::set_validity(out, detail::gather_valid<std::int64_t>{col.view(), rows}, stream); }
  return out;
#endif
}
}  // namespace detail

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order: stream
 * compaction; types of one width share one body, their unsigned word's. One pass to count the
 * kept rows (which synchronises `stream`, to size the result exactly), one to copy values; when
 * `col` or `keep` has nulls, on CUDA and the Thrust path, the kept rows' positions go to int64
 * scratch (from `col`'s resource) and the values, and with nulls in `col` the validity, are gathered
 * by them, and the result's nulls are counted (synchronises). On the host backend's fast paths both passes
 * split the rows over OpenMP's threads, and the second writes the values and the validity words
 * together, with no scratch.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> filter(column<T, Policy> const& col, column<bool, Policy> const& keep,
                                       stream_ref stream = {}) {
  if constexpr (detail::moves_as_word<T>) {
    return detail::from_words<T>(detail::filter_fixed_width(detail::as_words(col), keep, stream));
  } else {
    return detail::filter_fixed_width(col, keep, stream);
  }
}

DEVCOL_NAMESPACE_END
