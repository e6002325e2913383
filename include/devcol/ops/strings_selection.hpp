/**
 * @file strings_selection.hpp
 * @brief `gather`, `filter` and `concatenate` of strings columns: the overloads of the
 * fixed-width ones (gather.hpp, filter.hpp) for `basic_strings_column`, same names, same argument
 * order. Variable-width rows cannot be moved in place: each builds new offsets by one scan of the
 * rows' lengths (ops/detail/offsets.hpp), then copies the bytes.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/offsets.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/filter.hpp>
#include <devcol/ops/gather.hpp>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <tuple>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Filter's row map: result row `i` reads the source row the compaction wrote at `i`.
struct listed_rows {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::size_t const* rows;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept { return rows[i]; }
};

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
template <class O, class Policy, class Rows>
basic_strings_column<O, Policy> gather_strings(basic_strings_column<O, Policy> const& col, Rows rows, std::size_t n,
                                               bool masked, char const* op, stream_ref stream) {
  using buffer_type = typename basic_strings_column<O, Policy>::buffer_type;
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
  return basic_strings_column<O, Policy>(std::move(offsets), std::move(chars), std::move(mask), n, nulls);
}

/// Source row `i` shifted into the result: offset `o` of an input whose bytes start at `first`,
/// placed at byte `base` of the result.
template <class O>
struct moved_offset {
  O first;
  O base;
  DEVCOL_HOST_DEVICE O operator()(O o) const noexcept { return o - first + base; }
};

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
 * @throws devcol::logic_error naming the first out-of-bounds index (with out_of_bounds::throw_error),
 *         or the total when 32-bit offsets cannot hold the result's bytes
 */
template <arrow_offset O, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] basic_strings_column<O, Policy> gather(basic_strings_column<O, Policy> const& col,
                                                     column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                     out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  bool const masked = col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify;
  return detail::gather_strings(col, detail::index_rows<I>{indices.view(), col.size()}, indices.size(), masked,
                                "gather", stream);
}

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order, as a new
 * strings column from `col`'s resource.
 *
 * Cost: one pass to count the kept rows (synchronises `stream`: it sizes the row list), one to list
 * them (`std::size_t` per kept row of scratch from `col`'s resource; on the host backend a
 * branchless serial loop, on CUDA CUB's select), then gather()'s scan, its read of the total
 * (synchronises) and its pass over the bytes; with nulls in `col`, the mask pass and count
 * (synchronises). Never more bytes than `col`'s: 32-bit offsets cannot overflow.
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_strings_column<O, Policy> filter(basic_strings_column<O, Policy> const& col,
                                                     column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  detail::executor exec(stream);
  auto const all = thrust::counting_iterator<std::size_t>(0);
  auto const flags = thrust::make_transform_iterator(all, detail::true_and_valid{keep.view()});
  auto const n = static_cast<std::size_t>(
      thrust::count(exec.policy(), flags, flags + static_cast<std::ptrdiff_t>(col.size()), true));
  typename basic_strings_column<O, Policy>::buffer_type listed(n * sizeof(std::size_t), stream, mr::default_alignment,
                                                               col.resource());
  auto* rows = static_cast<std::size_t*>(listed.data(access::write, stream));
#if DEVCOL_BACKEND_HOST
  detail::compact_flagged(all, flags, col.size(), rows, n);
#else
  thrust::copy_if(exec.policy(), all, all + static_cast<std::ptrdiff_t>(col.size()), all, rows,
                  detail::true_and_valid{keep.view()});
#endif
  return detail::gather_strings(col, detail::listed_rows{rows}, n, col.has_nulls(), "filter", stream);
}

/**
 * @brief The rows of every column in `cols`, one after the other, in new buffers from the first's
 * resource. Reads each input's first and last offsets to the host in one batch (one
 * synchronisation: they size the characters), then per input one pass rebasing its offsets and one
 * copy of its bytes; with nulls, the mask as the fixed-width concatenate writes it (one pass, then a
 * synchronisation). The null count is the inputs' sum. An empty list gives an empty column.
 * @throws devcol::logic_error naming the total when 32-bit offsets cannot hold the bytes
 */
template <arrow_offset O, class Policy>
[[nodiscard]] basic_strings_column<O, Policy> concatenate(std::span<basic_strings_column<O, Policy> const> cols,
                                                          stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename basic_strings_column<O, Policy>::buffer_type;
  if (cols.empty()) { return basic_strings_column<O, Policy>{}; }
  // Each input's first and last offsets, in one batch of copies and one synchronisation.
  std::vector<O> ends(2 * cols.size(), O{0});
  std::size_t rows = 0;
  std::size_t nulls = 0;
  for (std::size_t k = 0; k < cols.size(); ++k) {
    auto const& c = cols[k];
    rows += c.size();
    nulls += c.null_count();
    if (c.size() == 0) { continue; }
    copy_bytes(&ends[2 * k], c.offsets(access::read), sizeof(O), stream);
    copy_bytes(&ends[2 * k + 1], c.offsets(access::read) + c.size(), sizeof(O), stream);
  }
  stream.synchronize();
  std::size_t total = 0;
  for (std::size_t k = 0; k < cols.size(); ++k) { total += static_cast<std::size_t>(ends[2 * k + 1] - ends[2 * k]); }
  DEVCOL_EXPECTS(total <= static_cast<std::size_t>(std::numeric_limits<O>::max()), "concatenate: ", total,
                 " bytes overflow ", sizeof(O) * 8, "-bit offsets (use 64-bit offsets: large_strings_column)");
  auto const resource = cols.front().resource();
  buffer_type offsets((rows + 1) * sizeof(O), stream, mr::default_alignment, resource);
  buffer_type chars(total, stream, mr::default_alignment, resource);
  auto* out_offsets = static_cast<O*>(offsets.data(access::write, stream));
  auto* out_chars = static_cast<char*>(chars.data(access::write, stream));
  fill_bytes(out_offsets, 0, sizeof(O), stream);  // the first offset, when every input is empty
  detail::executor exec(stream);
  std::size_t row = 0;
  std::size_t base = 0;
  std::vector<detail::concatenated_input> inputs;
  for (std::size_t k = 0; k < cols.size(); ++k) {
    auto const& c = cols[k];
    inputs.push_back({c.has_nulls() ? c.null_mask(access::read) : nullptr, c.offset(), row});
    if (c.size() == 0) { continue; }
    O const* in = c.offsets(access::read);
    // size + 1 offsets: the next input's first rebased offset is this one's last, the same value.
    thrust::transform(exec.policy(), in, in + c.size() + 1, out_offsets + row,
                      detail::moved_offset<O>{ends[2 * k], static_cast<O>(base)});
    std::size_t const bytes = static_cast<std::size_t>(ends[2 * k + 1] - ends[2 * k]);
    copy_bytes(out_chars + base, c.chars(access::read) + ends[2 * k], bytes, stream);
    row += c.size();
    base += bytes;
  }
  buffer_type mask;
  if (nulls != 0) { mask = detail::concatenated_mask<buffer_type>(inputs, rows, resource, stream); }
  return basic_strings_column<O, Policy>(std::move(offsets), std::move(chars), std::move(mask), rows, nulls);
}

/// @brief concatenate() of a vector of strings columns.
template <arrow_offset O, class Policy>
[[nodiscard]] basic_strings_column<O, Policy> concatenate(std::vector<basic_strings_column<O, Policy>> const& cols,
                                                          stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<basic_strings_column<O, Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
