/**
 * @file binary_view.hpp
 * @brief concatenate of string view and binary view columns: the views one after the other, every
 * input's data buffers kept (shared), the later inputs' out-of-line views renumbered to their
 * buffers' new indices. Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>
#include <devcol/ops/detail/masks.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {
/// A view whose data buffer is now `shift` buffers further on (inline views are bytes: kept).
struct shift_buffer_index {
  std::int32_t shift;
  DEVCOL_HOST_DEVICE binary_view_row operator()(binary_view_row v) const noexcept {
    if (!v.is_inline()) { v.buffer_index += shift; }
    return v;
  }
};
}  // namespace detail

/**
 * @brief The rows of every column in `cols`, one after the other, as a view column of the same
 * type, in new memory from the first's resource: one copy of each input's views, and for every
 * input after one with data buffers one pass adding the number of buffers before it to its
 * out-of-line views' buffer indices; the data buffers of every input are kept, shared, in input
 * order (O(1) each, none read or copied). With nulls, a small index of the inputs is copied to the
 * device, one pass writes the mask and `stream` is synchronised. The null count is the inputs' sum.
 * An empty list gives an empty column.
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (string view or binary view)
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error when the data buffers of all inputs are more than an int32 index names
 */
template <class Policy, encoding E>
[[nodiscard]] basic_binary_view_column<Policy, E> concatenate(std::span<basic_binary_view_column<Policy, E> const> cols,
                                                              stream_ref stream = {}) {
  using column_type = basic_binary_view_column<Policy, E>;
  using buffer_type = typename column_type::buffer_type;
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return column_type{}; }
  std::size_t rows = 0;
  std::size_t nulls = 0;
  std::vector<buffer_type> data;
  for (auto const& c : cols) {
    rows += c.size();
    nulls += c.null_count();
    data.insert(data.end(), c.data_buffers().begin(), c.data_buffers().end());
  }
  DEVCOL_EXPECTS(data.size() <= INT32_MAX, "concatenate: ", data.size(),
                 " data buffers in all are more than a view's int32 buffer index names");
  buffer_type views;
  if (rows != 0) {
    views = buffer_type(rows * sizeof(binary_view_row), stream, mr::default_alignment, cols.front().resource());
    auto* dst = static_cast<binary_view_row*>(views.data(access::write, stream));
    std::size_t base = 0;
    detail::executor exec(stream);
    for (auto const& c : cols) {
      if (!c.empty()) {
        binary_view_row const* src = c.views(access::read) + c.offset();
        if (base == 0) {
          copy_bytes(dst, src, c.size() * sizeof(binary_view_row), stream);
        } else {
          detail::transform_n(exec, src, c.size(), dst, detail::shift_buffer_index{static_cast<std::int32_t>(base)});
        }
        dst += c.size();
      }
      base += c.num_data_buffers();
    }
  }
  column_type out(std::move(views), std::move(data), buffer_type{}, rows, 0, 0);
  if (nulls != 0) { out.replace_null_mask(detail::concatenated_mask(cols, rows, out.resource(), stream), nulls); }
  return out;
}

/// @brief concatenate() of a vector of view columns (see the span overload).
/// @tparam Policy the buffer policy of the input and of the result
/// @tparam E what the bytes are
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <class Policy, encoding E>
[[nodiscard]] basic_binary_view_column<Policy, E> concatenate(std::vector<basic_binary_view_column<Policy, E>> const& cols,
                                                              stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<basic_binary_view_column<Policy, E> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
