/**
 * @file gather.hpp
 * @brief `devcol::gather` (take) and `devcol::scatter`.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/column_view.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/validity.hpp>
#include <devcol/ops/null_mask.hpp>

#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>

#include <concepts>
#include <cstddef>
#include <optional>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN

/// @brief What gather does with an index outside [0, size).
enum class out_of_bounds {
  throw_error,  ///< throw devcol::logic_error naming the first such index (checked first: one pass)
  nullify       ///< the row is null
};

namespace detail {

template <class I>
DEVCOL_HOST_DEVICE bool in_bounds(I index, std::size_t size) noexcept {
  if constexpr (std::is_signed_v<I>) {
    if (index < 0) { return false; }
  }
  return static_cast<std::size_t>(index) < size;
}

/// Whether row `i` of the indices is null or out of bounds.
template <class I>
struct bad_index {
  column_view<I> indices;
  std::size_t size;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && !in_bounds(indices[i], size);
  }
};

template <class T, class I>
struct gather_value {
  column_view<T> source;
  column_view<I> indices;
  DEVCOL_HOST_DEVICE T operator()(std::size_t i) const noexcept {
    I const index = indices[i];
    return indices.is_valid(i) && in_bounds(index, source.size()) ? source[static_cast<std::size_t>(index)] : T{};
  }
};

template <class T, class I>
struct gather_valid {
  column_view<T> source;
  column_view<I> indices;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    I const index = indices[i];
    return indices.is_valid(i) && in_bounds(index, source.size()) && source.is_valid(static_cast<std::size_t>(index));
  }
};

/// Where row `i` of the source goes.
template <class I>
struct scatter_map {
  column_view<I> indices;
  DEVCOL_HOST_DEVICE std::size_t operator()(std::size_t i) const noexcept { return static_cast<std::size_t>(indices[i]); }
};
/// Whether row `i`'s index is not null.
template <class I>
struct index_is_valid {
  column_view<I> indices;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return indices.is_valid(i); }
};
/// Throws naming the first index that is out of bounds for `size` rows (one pass; synchronises).
template <class I>
void check_indices(column_view<I> indices, std::size_t size, char const* op, stream_ref stream) {
  executor exec(stream);
  auto const first = thrust::find_if(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                                     thrust::counting_iterator<std::size_t>(indices.size()), bad_index<I>{indices, size});
  std::size_t const row = *first;
  if (row == indices.size()) { return; }
  I index{};
  copy_bytes(&index, indices.data() + row, sizeof(I), stream);
  stream.synchronize();
  DEVCOL_FAIL(op, ": index ", static_cast<long long>(index), " at row ", row, " is out of bounds for ", size, " rows");
}

}  // namespace detail

/**
 * @brief Row `indices[i]` of `col` for each `i` (Arrow's `take`): one pass over the indices, a new
 * column from `col`'s resource. A null index gives a null row. Nulls in the result (from `col`, the
 * indices or `nullify`) are written to a mask and counted (synchronises `stream`).
 * @throws devcol::logic_error naming the first out-of-bounds index, with out_of_bounds::throw_error
 */
template <fixed_width T, class Policy, std::integral I, class IndexPolicy>
[[nodiscard]] column<T, Policy> gather(column<T, Policy> const& col, column<I, IndexPolicy> const& indices,
                                       stream_ref stream = {}, out_of_bounds policy = out_of_bounds::throw_error) {
  if (policy == out_of_bounds::throw_error) { detail::check_indices(indices.view(), col.size(), "gather", stream); }
  auto out = col.template make_like<T>(indices.size(), stream);
  detail::executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(indices.size()), out.data(access::write, stream),
                    detail::gather_value<T, I>{col.view(), indices.view()});
  if (col.has_nulls() || indices.has_nulls() || policy == out_of_bounds::nullify) {
    detail::set_validity(out, detail::gather_valid<T, I>{col.view(), indices.view()}, stream);
    if (out.null_count() == 0) { out = drop_null_mask(out); }
  }
  return out;
}

/**
 * @brief `target[indices[i]] = source[i]` for each `i`, values and validity, in place through
 * write access. Null indices are skipped. Two `indices` equal: which source row wins is unspecified.
 * @throws devcol::logic_error naming the first out-of-bounds index (checked before anything is written),
 *         or both sizes if `source` and `indices` differ
 */
template <fixed_width T, class Policy, std::integral I, class IndexPolicy>
void scatter(column<T, Policy> const& source, column<I, IndexPolicy> const& indices, column<T, Policy>& target,
             stream_ref stream = {}) {
  detail::expect_same_size(source.size(), indices.size(), "scatter");
  detail::check_indices(indices.view(), target.size(), "scatter", stream);
  detail::executor exec(stream);
  bool const masks = source.has_nulls() || target.has_nulls();
  // Validity first, as one byte per row (bits of one word may not be written from two threads).
  std::optional<column<bool, Policy>> valid;
  if (masks) {
    valid = target.template make_like<bool>(target.size(), stream);
    thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                      thrust::counting_iterator<std::size_t>(target.size()), valid->data(access::write, stream),
                      detail::row_is_valid<T>{target.view()});
  }
  T* rows = target.data(access::write, stream);
  auto const map = detail::scatter_map<I>{indices.view()};
  thrust::scatter_if(exec.policy(), source.data(access::read), source.data(access::read) + source.size(),
                     thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), map),
                     thrust::counting_iterator<std::size_t>(0), rows, detail::index_is_valid<I>{indices.view()});
  if (masks) {
    auto source_valid = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                                        detail::row_is_valid<T>{source.view()});
    thrust::scatter_if(exec.policy(), source_valid, source_valid + static_cast<std::ptrdiff_t>(source.size()),
                       thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0), map),
                       thrust::counting_iterator<std::size_t>(0), valid->data(access::write, stream),
                       detail::index_is_valid<I>{indices.view()});
    column<T, Policy> values(target.data_buffer(), {}, target.size(), 0, target.offset());
    detail::set_validity(values, detail::flag_set{valid->view()}, stream);
    target = std::move(values);
  }
}

DEVCOL_NAMESPACE_END
