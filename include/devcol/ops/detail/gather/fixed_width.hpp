/**
 * @file fixed_width.hpp
 * @brief gather (take) and scatter of fixed-width columns, and what every kind's gather shares:
 * `out_of_bounds`, the index checks and the row map (`index_rows`). Users include
 * devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/detail/index_bounds.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/host/gather.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/column/detail/width_word.hpp>

#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scatter.h>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief What gather does with an index outside [0, size).
enum class out_of_bounds {
  throw_error,  ///< throw devcol::logic_error naming the first such index (checked first: one pass)
  nullify       ///< the row is null
};

namespace detail {

/// Gather's row map, for every column kind: result row `i` reads source row `indices[i]`, or
/// `none` for a null or out-of-bounds index.
template <class I>
struct index_rows {
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  column_view<I> indices;
  std::size_t source_rows;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && in_bounds(indices[i], source_rows) ? static_cast<std::size_t>(indices[i]) : none;
  }
};

/// The int64 at row `row` of `values`: a row map read through rows that a compaction picked (a
/// run-end encoded gather's source runs, a dense union's source offsets).
struct int64_at {
  std::int64_t const* values;
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t row) const noexcept { return values[row]; }
};

/// Row `i` of a fixed-width gather's values: the source row its index names, or `T{}` for none.
template <class T, class I>
struct gather_value {
  column_view<T> source;
  index_rows<I> rows;
  DEVCOL_HOST_DEVICE T operator()(std::size_t i) const noexcept {
    std::size_t const row = rows(i);
    return row != rows.none ? source[row] : T{};
  }
};
/// Row `i` of a gather's validity. It holds the source's validity, not its values' type, so every
/// element width shares one mask kernel per index type.
template <class I>
struct gather_valid {
  validity_view source;
  index_rows<I> rows;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    std::size_t const row = rows(i);
    return row != rows.none && source.is_valid(row);
  }
};

/// Where row `i` of the source goes.
template <class I>
struct scatter_map {
  column_view<I> indices;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept { return static_cast<std::size_t>(indices[i]); }
};
/// Row `r` of a scattered target reads the winning source row, or its own row where none won.
/// `View` is `column_view<W>` for the values (`W`, the element type's width word, so every type of
/// one width shares the kernel) or `validity_view` for the validity (one kernel for every type).
template <class View>
struct scattered_rows {
  View source;
  View target;
  std::int64_t const* winner;
  [[nodiscard]] DEVCOL_HOST_DEVICE bool won(std::size_t r) const noexcept { return winner[r] >= 0; }
  [[nodiscard]] DEVCOL_HOST_DEVICE std::size_t from(std::size_t r) const noexcept {
    return static_cast<std::size_t>(winner[r]);
  }
};
template <class W>
struct winner_value : scattered_rows<column_view<W>> {
  DEVCOL_HOST_DEVICE W operator()(std::size_t r) const noexcept {
    return this->won(r) ? this->source[this->from(r)] : this->target[r];
  }
};
struct winner_valid : scattered_rows<validity_view> {
  DEVCOL_HOST_DEVICE bool operator()(std::size_t r) const noexcept {
    return this->won(r) ? this->source.is_valid(this->from(r)) : this->target.is_valid(r);
  }
};

/// Throws naming index `index` (its text or its value) at `row` as out of bounds for `size` rows:
/// the one message of `op`'s bounds checks, on every path.
template <class Index>
[[noreturn]] void fail_index_outside(char const* op, Index const& index, std::size_t row, std::size_t size) {
  DEVCOL_FAIL(op, ": index ", index, " at row ", row, " is out of bounds for ", size, " rows");
}

/// Throws naming the first index that is out of bounds for `size` rows (one pass, one kernel for
/// every index type; synchronises).
template <class I>
void check_indices(column_view<I> indices, std::size_t size, char const* op, stream_ref stream) {
  if (auto const bad = first_index_outside(any_index_view(indices), size, stream)) {
    fail_index_outside(op, bad->second, bad->first, size);
  }
}

/// gather()'s checks before any work, for every kind: `policy` is one of out_of_bounds'
/// enumerators, and under throw_error every valid index lies within `size` rows (one pass;
/// synchronises `stream`).
template <class I>
void check_gather(out_of_bounds policy, column_view<I> indices, std::size_t size, stream_ref stream) {
  DEVCOL_EXPECTS_ENUMERATOR(policy, out_of_bounds::nullify, "gather", "out_of_bounds");
  if (policy == out_of_bounds::throw_error) { check_indices(indices, size, "gather", stream); }
}

#if DEVCOL_HOST_FAST_PATHS
/// Whether host_gather() gathers `T` rows: arithmetic types and int128_t (the width word of 16-byte
/// rows, which fixed-size binary and decimal128 gather as).
template <class T>
inline constexpr bool host_gathers = std::is_arithmetic_v<T> || std::is_same_v<T, int128_t>;

/// Throws as check_indices() does, naming the first valid index of `indices` outside [0, size):
/// the host fast path's, which found that one is, reads them in place.
template <class I>
[[noreturn]] void fail_first_outside(column_view<I> indices, std::size_t size) {
  using shown = std::conditional_t<std::is_signed_v<I>, long long, unsigned long long>;
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices.is_valid(i) && !host::index_in_bounds(indices[i], size)) {
      fail_index_outside("gather", static_cast<shown>(indices[i]), i, size);
    }
  }
  DEVCOL_FAIL("gather: an index is out of bounds for ", size, " rows");
}

/**
 * gather() on the host fast path (see host/gather.hpp), for host_gathers types: values and bounds
 * in one pass, and where nulls are possible (in `col`, in the indices, or from out-of-bounds
 * indices under `nullify`) the mask in that pass too. Under `throw_error`, an index out of bounds
 * is found again, in place, to name it. Every case takes this path, so that a call compiles no
 * Thrust gather beside it.
 */
template <class T, class Policy, class I, class IndexPolicy>
[[nodiscard]] column<T, Policy> host_gather(column<T, Policy> const& col, column<I, IndexPolicy> const& indices,
                                            out_of_bounds policy, stream_ref stream) {
  std::size_t const n = indices.size();
  column_view<T> const source = col.view();
  column_view<I> const index = indices.view();
  if (col.size() == 0) {  // every row null (the kernel reads the source without a branch)
    if (policy == out_of_bounds::throw_error && indices.null_count() != n) { fail_first_outside(index, 0); }
    auto nulls = col.template make_like<T>(n, stream, n == 0 ? mask_state::unallocated : mask_state::all_null);
    if (n != 0) { std::fill_n(nulls.data(access::write, stream), n, T{}); }
    return nulls;
  }
  auto out = col.template make_like<T>(n, stream);
  std::size_t const chunks = host::chunk_count(n);
  std::vector<std::size_t> outside(chunks, 0);
  std::vector<std::size_t> valid(chunks, 0);
  auto total = [](std::vector<std::size_t> const& counts) {
    std::size_t sum = 0;
    for (auto const c : counts) { sum += c; }
    return sum;
  };
  // Returns how many valid indices are out of bounds.
  auto pass = [&](bitmask_word* words) {
    T* const values = out.data(access::write, stream);
    host::gather_kernel<T, I> kernel{source.data(),
                                     source.size(),
                                     col.has_nulls() ? source.null_mask() : nullptr,
                                     source.mask_offset(),
                                     index.data(),
                                     indices.has_nulls() ? index.null_mask() : nullptr,
                                     index.mask_offset(),
                                     values,
                                     words,
                                     outside.data(),
                                     valid.data(),
                                     host::streams(values, n * sizeof(T), host::simd_level::baseline)};
    host::run_chunks(kernel, n, chunks);
    return total(outside);
  };
  if (!col.has_nulls() && !indices.has_nulls()) {
    std::size_t const bad = pass(nullptr);  // the common case: no mask unless an index is out of bounds
    if (bad == 0) { return out; }
    if (policy == out_of_bounds::throw_error) { fail_first_outside(index, col.size()); }
  }
  std::size_t const bytes = bitmask_allocation_size(n);
  buffer<Policy> mask(bytes, stream, mr::default_alignment, out.resource());
  auto* words = static_cast<bitmask_word*>(mask.data(access::write, stream));
  for (std::size_t w = (n + bits_per_word - 1) / bits_per_word; w < bytes / sizeof(bitmask_word); ++w) { words[w] = 0; }
  if (pass(words) != 0 && policy == out_of_bounds::throw_error) { fail_first_outside(index, col.size()); }
  std::size_t const valid_rows = total(valid);
  if (valid_rows != n) { out.replace_null_mask(std::move(mask), n - valid_rows); }
  return out;
}
#endif

}  // namespace detail

namespace detail {
/// gather() of fixed-width rows, for the types that are their own width word.
template <class T, class Policy, class I, class IndexPolicy>
[[nodiscard]] column<T, Policy> gather_fixed_width(column<T, Policy> const& col, column<I, IndexPolicy> const& indices,
                                                   stream_ref stream, out_of_bounds policy) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS_ENUMERATOR(policy, out_of_bounds::nullify, "gather", "out_of_bounds");
#if DEVCOL_HOST_FAST_PATHS
  if constexpr (detail::host_gathers<T>) {
    return detail::host_gather(col, indices, policy, stream);
  } else
#endif
  {
    detail::check_gather(policy, indices.view(), col.size(), stream);
    auto out = col.template make_like<T>(indices.size(), stream);
    T* rows = out.data(access::write, stream);
    detail::executor exec(stream);
    exec.reads(col.data(access::read), col.size() * sizeof(T));
    exec.reads(indices.data(access::read), indices.size() * sizeof(I));
    exec.writes(rows, indices.size() * sizeof(T));
    detail::tabulate(exec, indices.size(), rows, detail::gather_value<T, I>{col.view(), {indices.view(), col.size()}});
    if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
      detail::set_validity(out, detail::gather_valid<I>{col.view(), {indices.view(), col.size()}}, stream);
      if (out.null_count() == 0) { out.replace_null_mask({}, 0); }
    }
    return out;
  }
}
}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`): one pass over the indices, a new
 * column from `col`'s resource. Types of one width share one body, their unsigned word's: gather
 * moves bytes and reads no value as a number. A null index gives a null row. With `throw_error` the
 * indices are checked first (one pass; synchronises `stream`). Nulls in the result (from `col`, the indices or
 * `nullify`) are written to a mask and counted (synchronises `stream`).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <fixed_width T, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] column<T, Policy> gather(column<T, Policy> const& col, column<I, IndexPolicy> const& indices,
                                       stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  if constexpr (detail::moves_as_word<T>) {
    return detail::from_words<T>(detail::gather_fixed_width(detail::as_words(col), indices, stream, policy));
  } else {
    return detail::gather_fixed_width(col, indices, stream, policy);
  }
}

/**
 * @brief `target[indices[i]] = source[i]` for each `i`, value and validity together, in place
 * through write access (a target that shares memory is copied first). Null indices are skipped.
 * When indices repeat, one of their source rows wins, unspecified which, and the row takes both its
 * value and its validity. Costs: a check of the indices (one pass; synchronises), an `int64` per
 * target row of scratch from `target`'s resource (which source row wins), one pass to write, and
 * with nulls one over the new mask and its count (synchronises).
 * A `source` in `target`'s memory (the same column, or an alias of it) is copied first, so that
 * scattering a column into itself permutes it. Strong guarantee: if it throws, `target` is as it
 * was (a shared target is copied aside first).
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices, of at most 64 bits
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param source the rows to write, one per index
 * @param indices the target row of each source row; a null index skips the row
 * @param target the column written in place
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming the first out-of-bounds index (checked before anything is
 *         written), or both sizes if `source` and `indices` differ, or if either column has nulls
 *         and `target` shares its buffers under shared views (its validity would change under the
 *         other columns' null counts); devcol::out_of_memory
 */
template <fixed_width T, class Policy, std::integral I, class IndexPolicy>
void scatter(column<T, Policy> const& source, column<I, IndexPolicy> const& indices, column<T, Policy>& target,
             stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  // The memory this write gives target (its copy, a new mask) keeps target's sharing mode, not the
  // option in force (rule 9).
  detail::keep_sharing_mode<Policy> const keep(target.copy_on_write());
  detail::expect_same_size(source.size(), indices.size(), "scatter");
  if (source.has_nulls() || target.has_nulls()) { detail::expect_validity_writable(target, "scatter"); }
  detail::check_indices(indices.view(), target.size(), "scatter", stream);
  detail::executor exec(stream);
  auto const rows = thrust::counting_iterator<std::size_t>(0);
  auto winners = target.template make_like<std::int64_t>(target.size(), stream);
  std::int64_t* winner = winners.data(access::write, stream);
  thrust::fill(exec.policy(), winner, winner + target.size(), std::int64_t{-1});
  thrust::scatter_if(exec.policy(), thrust::counting_iterator<std::int64_t>(0),
                     thrust::counting_iterator<std::int64_t>(static_cast<std::int64_t>(source.size())),
                     thrust::make_transform_iterator(rows, detail::scatter_map<I>{indices.view()}), rows, winner,
                     detail::row_is_valid{indices.view()});
  // Strong guarantee: everything that allocates (the copy-on-write copy, the new mask) happens
  // before the target is written, and a copy is made aside and moved in at the end.
  column<T, Policy> own = target.writes_copy() ? target.deep_copy(stream) : column<T, Policy>{};
  column<T, Policy>& out = target.writes_copy() ? own : target;
  column_view<T> const before = out.view();
  // A source in the memory written (the target itself, or an alias of it) is read from a copy:
  // its rows would otherwise be overwritten while others still read them.
  bool const overlaps =
      detail::bytes_overlap(source.data(access::read), source.size() * sizeof(T), before.data(), out.size() * sizeof(T));
  column<T, Policy> const source_copy = overlaps ? source.deep_copy(stream) : column<T, Policy>{};
  column_view<T> const from = overlaps ? source_copy.view() : source.view();
  std::optional<detail::new_mask<Policy>> mask;
  if (from.null_count() != 0 || out.has_nulls()) {
    mask = detail::make_validity(out, detail::winner_valid{{from, before, winner}}, stream);
  }
  // out owns its memory alone here: no copy, no allocation. The rows move as their width's word.
  using word = detail::width_word_t<T>;
  auto* values = reinterpret_cast<word*>(out.data(access::write, stream));
  detail::transform_n(
      exec, rows, out.size(), values,
      detail::winner_value<word>{{detail::word_view(from), detail::word_view(before), winner}});
  if (mask) { out.replace_null_mask(std::move(mask->mask), mask->nulls); }
  if (&out == &own) { target = std::move(own); }
}

DEVCOL_NAMESPACE_END
