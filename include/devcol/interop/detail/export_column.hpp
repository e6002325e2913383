/**
 * @file export_column.hpp
 * @brief What every export shares, and the export of one fixed-width column: its array node
 * (zero-copy, or a snapshot when exposed or not copy-on-write), its schema node, the event, and
 * the publication of a finished export.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Bits [0, first + size) of a new bitmap from `col`'s resource: bit first + i is row i's value
/// (0 for a null row, whose byte is never read). One pass over the words, in order on `stream`.
template <buffer_policy Policy>
buffer<Policy> pack_bools(column<bool, Policy> const& col, std::size_t first, stream_ref stream) {
  std::size_t const bits = first + col.size();
  std::size_t const bytes = bitmask_allocation_size(bits);
  buffer<Policy> packed(bytes, stream, mr::default_alignment, col.resource());
  auto* words = static_cast<bitmask_word*>(packed.data(access::write, stream));
  executor exec(stream);
  thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                    thrust::counting_iterator<std::size_t>(bytes / sizeof(bitmask_word)), words,
                    pack_word<shifted_valid<true_and_valid>>{{true_and_valid{col.view()}, first}, bits});
  return packed;
}

/// What an export keeps: a handle on the column (or on a snapshot of it), and for bool the
/// bit-packed values.
template <fixed_width T, buffer_policy Policy>
struct exported_column {
  column<T, Policy> col;
  buffer<Policy> packed;
};

/// Where a column's memory lives (its values, or its mask when it has no values).
template <fixed_width T, buffer_policy Policy>
arrow_device device_of(column<T, Policy> const& col) {
  void const* p = col.data_buffer().data(access::read);
  return device_of(p != nullptr ? p : col.mask_buffer().data(access::read));
}

/// The private data of one column's ArrowArray: two buffers at the kept column's offset, no children.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_column_node(column<T, Policy> const& col, stream_ref stream) {
  // A handle keeps the memory immutable under copy-on-write: a later write through the caller's
  // column copies first (rule 3). Memory others may write (exposed, rule 12, or shared views whose
  // writes propagate) is exported as a snapshot instead: Arrow requires it not to change.
  column<T, Policy> kept = !col.copy_on_write() || col.is_exposed() ? col.deep_copy(stream) : col;
  // Packed bools start in the mask's word of the first row, so a slice costs its rows, not its offset.
  std::size_t const skipped_words = type_traits<T>::arrow_bit_packed ? kept.offset() / bits_per_word : 0;
  std::size_t const offset = kept.offset() - skipped_words * bits_per_word;
  buffer<Policy> packed;
  if constexpr (type_traits<T>::arrow_bit_packed) { packed = pack_bools(kept, offset, stream); }
  auto node = std::make_unique<holding_array_node<exported_column<T, Policy>>>(
      0, exported_column<T, Policy>{std::move(kept), std::move(packed)});
  auto const& held = node->kept;
  auto const* mask = static_cast<bitmask_word const*>(held.col.mask_buffer().data(access::read));
  node->length = static_cast<std::int64_t>(held.col.size());
  node->null_count = static_cast<std::int64_t>(held.col.null_count());
  node->offset = static_cast<std::int64_t>(offset);
  node->n_buffers = 2;
  node->buffers[0] = mask != nullptr ? mask + skipped_words : nullptr;
  node->buffers[1] = type_traits<T>::arrow_bit_packed ? held.packed.data(access::read) : held.col.data_buffer().data(access::read);
  return node;
}

/// Records on `stream` the event consumers of a device export wait on (CUDA only).
inline void record_ready(array_node& node, stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
  node.ready.emplace();
  node.ready->record(stream);
  node.ready_handle = node.ready->value();
#else
  (void)node;
  (void)stream;
#endif
}

/// Publishes a complete export: the schema, then the device array around `node`. Never throws.
/// (No schema when `schema_tree` is null: a stream's arrays share the stream's schema.)
inline void publish_device_array(std::unique_ptr<schema_node> schema_tree, std::int64_t schema_flags,
                                 std::unique_ptr<array_node> node, arrow_device device, ArrowSchema* schema,
                                 ArrowDeviceArray* array) noexcept {
  void* const sync_event = node->ready ? static_cast<void*>(&node->ready_handle) : nullptr;
  if (schema_tree != nullptr) { publish(std::move(schema_tree), schema_flags, schema); }
  *array = ArrowDeviceArray{};  // reserved bytes zeroed
  publish(std::move(node), &array->array);
  array->device_id = device.id;
  array->device_type = device.type;
  array->sync_event = sync_event;
}

inline void expect_outputs(void const* schema, void const* array, char const* what) {
  DEVCOL_EXPECTS(schema != nullptr && array != nullptr, what, ": the ArrowSchema (", schema,
                 ") and ArrowDeviceArray (", array, ") to export into must not be null");
}

template <arrow_fixed_width T>
std::unique_ptr<schema_node> column_schema_node(std::string name) {
  return std::make_unique<schema_node>(std::string(arrow_format_v<T>), std::move(name), 0);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
