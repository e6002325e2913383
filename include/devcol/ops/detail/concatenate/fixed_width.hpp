/**
 * @file fixed_width.hpp
 * @brief concatenate of fixed-width columns. Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <cstddef>
#include <span>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of every column in `cols`, one after the other, in new memory from the first's
 * resource: one copy per input for the values; with nulls, a small index of the inputs is copied to
 * the device and one pass writes the result's mask words, then `stream` is synchronised (the host
 * index must outlive its copy). The null count is the inputs' sum: nothing is recounted. An empty
 * list gives an empty column.
 * @tparam T the element type
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
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
/// @tparam T the element type
/// @tparam Policy the buffer policy of the input and of the result
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <fixed_width T, class Policy>
[[nodiscard]] column<T, Policy> concatenate(std::vector<column<T, Policy>> const& cols, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<column<T, Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
