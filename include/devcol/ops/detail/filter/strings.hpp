/**
 * @file strings.hpp
 * @brief filter of strings columns: the kept rows listed, then gathered (detail::gather_strings).
 * Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/ops/detail/gather/strings.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Filter's row map: result row `i` reads the source row the compaction wrote at `i`.
struct listed_rows {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t const* rows;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept { return rows[i]; }
};

}  // namespace detail

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order, as a new
 * strings column from `col`'s resource.
 *
 * Cost: one pass to count the kept rows (synchronises `stream`: it sizes the row list), one to list
 * them (`std::size_t` per kept row of scratch from `col`'s resource; on the host backend a
 * branchless serial loop, on CUDA CUB's select), then gather()'s scan, its read of the total
 * (synchronises) and its pass over the bytes; with nulls in `col`, the mask pass and count
 * (synchronises). Never more bytes than `col`'s: 32-bit offsets cannot overflow.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> filter(basic_strings_column<O, Policy, E> const& col,
                                                     column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  std::size_t const n = detail::kept_count(keep, stream);
  typename basic_strings_column<O, Policy, E>::buffer_type listed(n * sizeof(std::size_t), stream, mr::default_alignment,
                                                               col.resource());
  auto* rows = static_cast<std::size_t*>(listed.data(access::write, stream));
  auto const all = thrust::counting_iterator<std::size_t>(0);
#if DEVCOL_BACKEND_HOST
  detail::compact_flagged(all, thrust::make_transform_iterator(all, detail::true_and_valid{keep.view()}), col.size(),
                          rows, n);
#else
  detail::executor exec(stream);
  detail::copy_if_n(exec, all, all, col.size(), rows, detail::true_and_valid{keep.view()});
#endif
  return detail::gather_strings(col, detail::listed_rows{rows}, n, col.has_nulls(), "filter", stream);
}

DEVCOL_NAMESPACE_END
