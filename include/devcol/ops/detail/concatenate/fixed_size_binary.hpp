/**
 * @file fixed_size_binary.hpp
 * @brief concatenate of fixed-size binary columns (every input of one width). Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/check.hpp>
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
 * resource: one copy per input; with nulls, a small index of the inputs is copied to the device,
 * one pass writes the mask and `stream` is synchronised. The null count is the inputs' sum. An
 * empty list gives an empty column of width 0.
 * @tparam Policy the buffer policy of the input and of the result
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both widths when two inputs differ
 */
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> concatenate(std::span<fixed_size_binary_column<Policy> const> cols,
                                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  if (cols.empty()) { return fixed_size_binary_column<Policy>{}; }
  std::size_t const width = cols.front().width();
  std::size_t rows = 0;
  std::size_t nulls = 0;
  for (auto const& c : cols) {
    DEVCOL_EXPECTS(c.width() == width, "concatenate: ", cols.front().type_name(), " and ", c.type_name(), " differ");
    rows += c.size();
    nulls += c.null_count();
  }
  fixed_size_binary_column<Policy> out(width, rows, stream, mask_state::unallocated, cols.front().resource());
  if (width * rows != 0) {
    std::byte* dst = out.data(access::write, stream);
    for (auto const& c : cols) {
      if (c.empty()) { continue; }
      copy_bytes(dst, c.data(access::read) + c.offset() * width, c.size() * width, stream);
      dst += c.size() * width;
    }
  }
  if (nulls != 0) { out.replace_null_mask(detail::concatenated_mask(cols, rows, out.resource(), stream), nulls); }
  return out;
}

/// @brief concatenate() of a vector of fixed-size binary columns.
/// @tparam Policy the buffer policy of the input and of the result
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> concatenate(std::vector<fixed_size_binary_column<Policy>> const& cols,
                                                           stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<fixed_size_binary_column<Policy> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
