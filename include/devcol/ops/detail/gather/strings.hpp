/**
 * @file strings.hpp
 * @brief gather of strings columns (`basic_strings_column`), and `detail::gather_strings`, the
 * body that filter and sort of strings share: variable-width rows cannot move in place, so the new
 * offsets come from one scan of the rows' lengths (ops/detail/offsets.hpp), then the bytes are
 * copied. Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/offsets.hpp>

#include <concepts>
#include <cstddef>
#include <tuple>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What a strings gather reads of row `i` through the row map `Rows` (none: a null row).
template <class O, class Rows>
struct gathered_strings {
  strings_column_view<O> source;
  Rows rows;
  [[nodiscard]] DEVCOL_HOST_DEVICE bool valid(std::size_t i) const noexcept {
    std::size_t const r = rows(i);
    return r != Rows::none && source.is_valid(r);
  }
};
/// A gathered row's length (0 for a null row: devcol writes nulls empty).
template <class O, class Rows>
struct gathered_length : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept {
    return this->valid(i) ? this->source.length(this->rows(i)) : 0;
  }
};
/// A gathered row's validity.
template <class O, class Rows>
struct gathered_valid : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return this->valid(i); }
};
/// A gathered row's first source byte (called only for rows with bytes).
template <class O, class Rows>
struct gathered_start : gathered_strings<O, Rows> {
  DEVCOL_HOST_DEVICE char const* operator()(std::size_t i) const noexcept {
    return this->source.chars() + this->source.offsets()[this->rows(i)];
  }
};

/**
 * The `n` rows of `col` that `rows` maps to (none: a null row), in new buffers from `col`'s
 * resource: one scan of the lengths to the offsets and one read of the total (synchronises), one
 * pass over the bytes (copy_rows); when `masked`, one pass over the mask words and the count of its
 * nulls (synchronises).
 */
template <class O, class Policy, encoding E, class Rows>
basic_strings_column<O, Policy, E> gather_strings(basic_strings_column<O, Policy, E> const& col, Rows rows, std::size_t n,
                                               bool masked, char const* op, stream_ref stream) {
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  auto const view = col.view();
  buffer_type offsets((n + 1) * sizeof(O), stream, mr::default_alignment, col.resource());
  auto* out_offsets = static_cast<O*>(offsets.data(access::write, stream));
  std::size_t const total = scan_lengths<O>(gathered_length<O, Rows>{{view, rows}}, n, out_offsets, op, stream);
  buffer_type chars(total, stream, mr::default_alignment, col.resource());
  copy_rows(static_cast<char*>(chars.data(access::write, stream)), out_offsets, n, total,
            gathered_start<O, Rows>{{view, rows}}, stream);
  buffer_type mask;
  std::size_t nulls = 0;
  if (masked) {
    std::tie(mask, nulls) = build_mask<buffer_type>(gathered_valid<O, Rows>{{view, rows}}, n, col.resource(), stream);
  }
  return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), std::move(mask), n, nulls);
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`) as a new strings column from
 * `col`'s resource; a null index gives a null row (stored empty). With `throw_error` the indices
 * are checked first (one pass; synchronises `stream`).
 *
 * Cost: one exclusive scan of the gathered lengths into the new offsets, whose last value is read
 * back to size the characters (synchronises `stream`); one pass over the result's bytes (host
 * backend: a `memcpy` per row over OpenMP threads; CUDA: a thread per byte); with nulls (in `col`,
 * in the indices, or from `nullify`), one pass writing the mask and one counting it (synchronises).
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @tparam I the integral type of the indices
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index (with out_of_bounds::throw_error),
 *         or the total when 32-bit offsets cannot hold the result's bytes
 */
template <arrow_offset O, class Policy, encoding E, std::integral I, class IndexPolicy>
[[nodiscard]] basic_strings_column<O, Policy, E> gather(basic_strings_column<O, Policy, E> const& col,
                                                     column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                     out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  bool const masked = col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify;
  return detail::gather_strings(col, detail::index_rows<I>{indices.view(), col.size()}, indices.size(), masked,
                                "gather", stream);
}

DEVCOL_NAMESPACE_END
