/**
 * @file offsets.hpp
 * @brief The offsets machinery every variable-width op shares (strings and lists): the offsets of
 * a result from its rows' lengths by one exclusive scan, the map from each element of a result's
 * child (a byte of a strings column, an element of a list's child) back to its source, and the
 * rebasing of an input's offsets into a concatenation.
 *
 * How a variable-width gather or filter is built from these, in three steps:
 *  1. `scan_lengths<O>(lengths, rows, out, stream)`: `rows + 1` offsets of the result, the rows'
 *     lengths written in place and scanned exclusively (a null or dropped row has length 0); the
 *     total comes back to the host — the one synchronisation that sizing the child needs.
 *  2. allocate the child (`total` elements).
 *  3. fill it: element `e` of the result's child is element `child_source{...}(e)` of the source's
 *     child (a binary search of the result's offsets for its row, `row_of_element`, then the row's
 *     source start plus the position within the row). Kernels that copy whole rows (a memcpy per
 *     row) need only the row map; kernels that go element by element (coalesced, on CUDA) use
 *     `child_source` directly, e.g. `thrust::gather` over a transform iterator of it. When every
 *     row's source is contiguous memory of a trivially copyable type (strings' bytes, a list of
 *     fixed-width elements), `copy_rows` does this step with the right strategy for the backend.
 *
 * All of it is device code over raw pointers: usable in any kernel, no allocation of its own.
 */
#pragma once

#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>

#include <thrust/for_each.h>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cuda/std/limits>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i`'s length for `i < rows` as an offset of type `O` (-1 when it does not fit), 0 for the
/// one extra position past the last row: scanning `rows + 1` of these exclusively gives `rows + 1`
/// offsets, the last one the total.
template <class O, class Length>
struct length_as_offset {
  Length length;  // std::size_t
  std::size_t rows;
  DEVCOL_HOST_DEVICE O operator()(std::size_t i) const {
    if (i >= rows) { return O{0}; }
    auto const n = static_cast<std::uint64_t>(length(i));
    return n > static_cast<std::uint64_t>(::cuda::std::numeric_limits<O>::max()) ? O{-1} : static_cast<O>(n);
  }
};

/// An offset of type `O` as the 64-bit running total scan_lengths accumulates.
template <class O>
struct widen_offset {
  DEVCOL_HOST_DEVICE std::int64_t operator()(O o) const noexcept { return static_cast<std::int64_t>(o); }
};

/// scan_lengths' sum: -1 (a length that did not fit) absorbs whatever it meets, so every offset
/// from there on reads -1; plain addition on the rest. Associative, with 0 its identity.
struct add_lengths {
  DEVCOL_HOST_DEVICE std::int64_t operator()(std::int64_t a, std::int64_t b) const noexcept {
    return a < 0 || b < 0 ? std::int64_t{-1} : a + b;
  }
};

/// A running total (exact, in 64 bits) narrowed to an offset of type `O`; a total past `O`'s range
/// becomes -1. Totals only grow and -1 stays -1 (add_lengths), so the last offset is negative
/// exactly when some length or total overflowed.
template <class O>
struct narrow_offset {
  DEVCOL_HOST_DEVICE O operator()(std::int64_t total) const noexcept {
    return total > static_cast<std::int64_t>(::cuda::std::numeric_limits<O>::max()) ? O{-1} : static_cast<O>(total);
  }
};

/**
 * @brief Throws unless `fits`: whether the elements of a result of `rows` rows stay within
 * offsets of type `O` (the caller's own test: a running total, or a scanned offset that narrowing
 * left non-negative).
 * @throws devcol::logic_error naming the rows and the limit, and the 64-bit kind to use instead
 */
template <class O>
void expect_offsets_fit(bool fits, std::size_t rows, char const* op) {
  DEVCOL_EXPECTS(fits, op, ": the result's ", rows, " rows hold more than ", std::numeric_limits<O>::max(),
                 " elements, past ", sizeof(O) * 8,
                 "-bit offsets (use 64-bit offsets: large_strings_column, large_binary_column or large_list_column)");
}

/**
 * @brief Writes the `rows + 1` offsets of a variable-width result into `out` (device memory) from
 * its rows' lengths, and returns the last — the child's size. `length(i)` is row `i`'s length, a
 * device functor of `std::size_t`; a null or dropped row should have length 0 (devcol writes null
 * rows empty).
 *
 * Cost: one pass that writes the lengths into `out`, then one exclusive scan of `out` in place
 * (totals kept in 64 bits), then reading the last offset back synchronises `stream`: sizing the
 * child needs it on the host. The scan's kernel depends on `O` alone, not on what the lengths are
 * of, so every variable-width op shares it.
 * @throws devcol::logic_error naming the total when it overflows `O` (use 64-bit offsets:
 *         `large_strings_column`, `large_list_column`)
 */
template <class O, class Length>
[[nodiscard]] std::size_t scan_lengths(Length length, std::size_t rows, O* out, char const* op, stream_ref stream) {
  executor exec(stream);
  tabulate(exec, rows + 1, out, length_as_offset<O, Length>{length, rows});
  exclusive_scan_n(exec, thrust::make_transform_iterator(static_cast<O const*>(out), widen_offset<O>{}), rows + 1,
                   thrust::make_transform_output_iterator(out, narrow_offset<O>{}), std::int64_t{0}, add_lengths{});
  O last{};
  copy_bytes(&last, out + rows, sizeof(O), stream);
  stream.synchronize();
  expect_offsets_fit<O>(last >= 0, rows, op);
  return static_cast<std::size_t>(last);
}

/// The row holding element `e` of a child whose `rows + 1` offsets start at `offsets` (relative to
/// offsets[0]): the last row whose start is at or before `e`, by binary search; empty rows are
/// skipped, since an element is never in one. Requires offsets[0] <= e < offsets[rows] - offsets[0].
template <class O>
DEVCOL_HOST_DEVICE std::size_t row_of_element(O const* offsets, std::size_t rows, std::size_t e) noexcept {
  std::size_t lo = 0;  // offsets[lo] - offsets[0] <= e
  std::size_t hi = rows;  // offsets[hi] - offsets[0] > e
  O const base = offsets[0];
  while (hi - lo > 1) {
    std::size_t const mid = lo + (hi - lo) / 2;
    if (static_cast<std::size_t>(offsets[mid] - base) <= e) { lo = mid; } else { hi = mid; }
  }
  return lo;
}

/**
 * @brief The child row map: element `e` of a result's child comes from element
 * `source_start(row) + (e - result_offsets[row])` of the source's child, `row` being the result row
 * holding `e` (row_of_element). `result_offsets` are the `rows + 1` offsets scan_lengths wrote;
 * `source_start(row)` is where that row's elements begin in the source child (a device functor of
 * `std::size_t` returning an absolute element index), e.g. the source offset of the gathered row.
 */
template <class O, class SourceStart>
struct child_source {
  O const* result_offsets;
  std::size_t rows;
  SourceStart source_start;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t e) const {
    std::size_t const row = row_of_element(result_offsets, rows, e);
    return static_cast<std::size_t>(source_start(row)) + (e - static_cast<std::size_t>(result_offsets[row] - result_offsets[0]));
  }
};

/// An input's offset `o` moved into a concatenation: the input's child starts at `first`, and is
/// placed at element `base` of the result's child.
template <class O>
struct moved_offset {
  O first;
  O base;
  DEVCOL_HOST_DEVICE O operator()(O o) const noexcept { return o - first + base; }
};

#if DEVCOL_BACKEND_HOST
/// Copies row `r`'s elements, a memcpy per row (the host backend's strategy).
template <class T, class O, class RowStart>
struct copy_row {
  T* out;
  O const* offsets;
  RowStart start;
  void operator()(std::size_t r) const {
    auto const n = static_cast<std::size_t>(offsets[r + 1] - offsets[r]);
    if (n != 0) { std::memcpy(out + (offsets[r] - offsets[0]), start(r), n * sizeof(T)); }
  }
};
#else
/// Element `e` of the result, read from its row's source (the CUDA backend's strategy).
template <class T, class O, class RowStart>
struct element_from_row {
  O const* offsets;
  std::size_t rows;
  RowStart start;
  DEVCOL_HOST_DEVICE T operator()(std::size_t e) const {
    std::size_t const r = row_of_element(offsets, rows, e);
    return start(r)[e - static_cast<std::size_t>(offsets[r] - offsets[0])];
  }
};
#endif

/**
 * @brief Fills a result's child (`out`, `total` elements of trivially copyable `T`) from its rows'
 * sources: row `r` (elements [offsets[r], offsets[r + 1]) relative to offsets[0], from scan_lengths)
 * is copied from `start(r)`, a device functor returning the `T const*` of the row's first source
 * element; it is called only for rows with elements.
 *
 * One pass over the result, one strategy per backend: on the host backend (OpenMP) a `memcpy` per
 * row, spread over threads by row — far faster there than moving element by element; on CUDA one
 * thread per element (coalesced writes, reads within a row adjacent), finding its row by a binary
 * search of the offsets (`row_of_element`), as cuDF gathers short strings. In order on `stream`,
 * no synchronisation.
 */
template <class T, class O, class RowStart>
void copy_rows(T* out, O const* offsets, std::size_t rows, std::size_t total, RowStart start, stream_ref stream) {
  if (total == 0) { return; }
  executor exec(stream);
#if DEVCOL_BACKEND_HOST
  thrust::for_each(exec.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(rows),
                   copy_row<T, O, RowStart>{out, offsets, start});
#else
  detail::tabulate(exec, total, out, element_from_row<T, O, RowStart>{offsets, rows, start});
#endif
}

}  // namespace detail
DEVCOL_NAMESPACE_END
