/**
 * @file export_column.hpp
 * @brief The array node of a fixed-width column's export (what to_arrow and every kind built on a
 * `column<T>`, such as decimals, export): zero-copy under copy-on-write, bools bit-packed.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <memory>
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

}  // namespace detail
DEVCOL_NAMESPACE_END
