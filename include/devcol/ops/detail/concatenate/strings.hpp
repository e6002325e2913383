/**
 * @file strings.hpp
 * @brief concatenate of strings columns: offsets rebased per input, bytes copied, masks joined.
 * Users include devcol/ops/concatenate.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/masks.hpp>
#include <devcol/ops/detail/offsets.hpp>

#include <cstddef>
#include <limits>
#include <span>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/**
 * @brief The rows of every column in `cols`, one after the other, in new buffers from the first's
 * resource. Reads each input's first and last offsets to the host in one batch (one
 * synchronisation: they size the characters), then per input one pass rebasing its offsets and one
 * copy of its bytes; with nulls, the mask as the fixed-width concatenate writes it (one pass, then a
 * synchronisation). The null count is the inputs' sum. An empty list gives an empty column.
 * @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
 * @tparam Policy the buffer policy of the input and of the result
 * @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
 * @param cols the inputs, in order
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming the total when 32-bit offsets cannot hold the bytes
 */
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> concatenate(std::span<basic_strings_column<O, Policy, E> const> cols,
                                                          stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  using buffer_type = typename basic_strings_column<O, Policy, E>::buffer_type;
  if (cols.empty()) { return basic_strings_column<O, Policy, E>{}; }
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
    detail::transform_n(exec, in, c.size() + 1, out_offsets + row,
                        detail::moved_offset<O>{ends[2 * k], static_cast<O>(base)});
    std::size_t const bytes = static_cast<std::size_t>(ends[2 * k + 1] - ends[2 * k]);
    copy_bytes(out_chars + base, c.chars(access::read) + ends[2 * k], bytes, stream);
    row += c.size();
    base += bytes;
  }
  buffer_type mask;
  if (nulls != 0) { mask = detail::concatenated_mask<buffer_type>(inputs, rows, resource, stream); }
  return basic_strings_column<O, Policy, E>(std::move(offsets), std::move(chars), std::move(mask), rows, nulls);
}

/// @brief concatenate() of a vector of strings columns.
/// @tparam O the offset type: `std::int32_t` (strings, list) or `std::int64_t` (large_strings, large_list)
/// @tparam Policy the buffer policy of the input and of the result
/// @tparam E what the bytes are (utf8 or binary: the same op, the result of the input's type)
/// @param cols the inputs, in order
/// @param stream the stream the work is ordered on
template <arrow_offset O, class Policy, encoding E>
[[nodiscard]] basic_strings_column<O, Policy, E> concatenate(std::vector<basic_strings_column<O, Policy, E>> const& cols,
                                                          stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  return concatenate(std::span<basic_strings_column<O, Policy, E> const>(cols), stream);
}

DEVCOL_NAMESPACE_END
