/**
 * @file export_strings.hpp
 * @brief The Arrow schema and array subtrees of a strings column (utf8 "u", large utf8 "U"), for
 * to_arrow and for the exporters of tables and nested columns that hold strings.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The schema node of a strings column: format "u" or "U", the name, no children.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(basic_strings_column<O, Policy> const& /*col*/, std::string name) {
  return std::make_unique<schema_node>(std::string(strings_format_v<O>), std::move(name), 0);
}

/// What a strings export keeps: a handle on the column (or a snapshot), and for a column without
/// buffers the zeroed bytes standing in for its one offset and its data.
template <arrow_offset O, buffer_policy Policy>
struct exported_strings {
  basic_strings_column<O, Policy> col;
  buffer<Policy> zeros;
};

/**
 * @brief The array node of a strings column: three buffers (validity, offsets, data) at the column's
 * offset, zero-copy: O(1) for any slice, the offsets as they are (never rebased). The node holds a
 * handle on the column, so its memory stays as exported (a later write through the column copies
 * first, rule 3); an exposed column or one under a policy without copy-on-write is exported as a
 * snapshot (deep_copy: one synchronisation, a copy of its rows), since Arrow requires the memory not
 * to change. A column without buffers (empty) exports a one-element {0} offsets buffer and a
 * non-NULL empty data buffer: 64 zeroed bytes from the column's resource, in order on `stream`.
 * @throws what allocation and copying throw
 */
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<array_node> export_node(basic_strings_column<O, Policy> const& col, stream_ref stream) {
  basic_strings_column<O, Policy> kept = !col.copy_on_write() || col.is_exposed() ? col.deep_copy(stream) : col;
  buffer<Policy> zeros;
  bool const no_offsets = kept.offsets_buffer().empty();
  if (no_offsets || kept.chars_buffer().empty()) {
    zeros = buffer<Policy>(64, stream, mr::default_alignment, kept.resource());
    fill_bytes(zeros.data(access::write, stream), 0, 64, stream);
  }
  auto node = std::make_unique<holding_array_node<exported_strings<O, Policy>>>(
      0, exported_strings<O, Policy>{std::move(kept), std::move(zeros)});
  auto const& held = node->kept;
  void const* const zero = held.zeros.data(access::read);
  node->length = static_cast<std::int64_t>(held.col.size());
  node->null_count = static_cast<std::int64_t>(held.col.null_count());
  node->offset = no_offsets ? 0 : static_cast<std::int64_t>(held.col.offset());
  node->n_buffers = 3;
  node->buffers[0] = held.col.mask_buffer().data(access::read);
  node->buffers[1] = no_offsets ? zero : held.col.offsets_buffer().data(access::read);
  node->buffers[2] = held.col.chars_buffer().empty() ? zero : held.col.chars_buffer().data(access::read);
  return node;
}

/// Where an exported strings node's memory lives (its offsets are never NULL).
inline arrow_device device_of_node(array_node const& node) { return device_of(node.buffers[1]); }

}  // namespace detail
DEVCOL_NAMESPACE_END
