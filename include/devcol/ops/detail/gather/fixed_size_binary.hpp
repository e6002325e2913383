/**
 * @file fixed_size_binary.hpp
 * @brief gather of fixed-size binary columns: one work item per row moves its `width()` bytes, so
 * the index is read and checked once per row rather than once per byte (a thread per byte ran at
 * 0.15x Arrow C++ per core). Users include devcol/ops/gather.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/gather/fixed_width.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <cuda/std/cstring>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

#include <concepts>
#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Row `i` of a gather of fixed-size rows: the `width` bytes of source row indices[i], zeros for a
/// null or out-of-bounds index. `W` is the width when the caller knows it is 1, 2, 4, 8 or 16 and
/// both buffers are aligned to it, so the copy is one `W`-byte load and store; 0: any width, a
/// `memcpy` of `width` bytes per row.
template <class I, std::size_t W>
struct gather_binary_row {
  fixed_size_binary_column_view source;
  column_view<I> indices;
  std::byte* out;
  DEVCOL_HOST_DEVICE void operator()(std::size_t i) const noexcept {
    std::size_t const w = W != 0 ? W : source.width();
    std::byte* const dst = out + i * w;
    if (!indices.is_valid(i) || !in_bounds(indices[i], source.size())) {
      ::cuda::std::memset(dst, 0, w);
      return;
    }
    std::byte const* const src = source[static_cast<std::size_t>(indices[i])];
    if constexpr (W != 0) {
      // A constant size with known alignment is what lets both compilers emit a single wide move
      // instead of a call or a byte loop.
      ::cuda::std::memcpy(__builtin_assume_aligned(dst, W), __builtin_assume_aligned(src, W), W);
    } else {
      ::cuda::std::memcpy(dst, src, w);
    }
  }
};

/// Runs gather_binary_row<I, W> over `rows` rows, with W the width when it is a power of two up to
/// 16 and the source and output rows are aligned to it, else 0 (the generic copy).
template <class I>
void gather_binary_rows(fixed_size_binary_column_view source, column_view<I> indices, std::byte* out,
                        std::size_t rows, stream_ref stream) {
  executor exec(stream);
  auto const run = [&]<std::size_t W>() {
    thrust::for_each(exec.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(rows),
                     gather_binary_row<I, W>{source, indices, out});
  };
  std::size_t const w = source.width();
  bool const aligned = ((reinterpret_cast<std::uintptr_t>(source.data()) | reinterpret_cast<std::uintptr_t>(out)) % w) == 0;
  switch (aligned ? w : 0) {
    case 1: return run.template operator()<1>();
    case 2: return run.template operator()<2>();
    case 4: return run.template operator()<4>();
    case 8: return run.template operator()<8>();
    case 16: return run.template operator()<16>();
    default: return run.template operator()<0>();
  }
}
/// Row `i` of a gather of fixed-size rows is valid: its index and the source row are.
template <class I>
struct gather_binary_valid {
  fixed_size_binary_column_view source;
  column_view<I> indices;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && in_bounds(indices[i], source.size()) &&
           source.is_valid(static_cast<std::size_t>(indices[i]));
  }
};
}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`): one pass over the result's rows,
 * each moving `width()` bytes, into a new column from `col`'s resource. A null index gives a null row (zero bytes). With
 * `throw_error` the indices are checked first (one pass; synchronises `stream`). Nulls in the result
 * are written to a mask and counted (synchronises `stream`).
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam I the integral type of the indices
 * @tparam IndexPolicy the buffer policy of `indices` (any)
 * @param col the input column
 * @param indices the source row of each result row; a null index gives a null row
 * @param stream the stream the work is ordered on
 * @param policy what an index outside [0, size) does: throw, or give a null row
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] fixed_size_binary_column<Policy> gather(fixed_size_binary_column<Policy> const& col,
                                                      column<I, IndexPolicy> const& indices, stream_ref stream = {},
                                                      out_of_bounds policy = out_of_bounds::throw_error) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  fixed_size_binary_column<Policy> out(col.width(), indices.size(), stream, mask_state::unallocated, col.resource());
  if (col.width() != 0 && indices.size() != 0) {
    detail::gather_binary_rows(col.view(), indices.view(), out.data(access::write, stream), indices.size(), stream);
  }
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    detail::set_validity(out, detail::gather_binary_valid<I>{col.view(), indices.view()}, stream);
    if (out.null_count() == 0) { out.replace_null_mask({}, 0); }
  }
  return out;
}

DEVCOL_NAMESPACE_END
