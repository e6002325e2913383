/**
 * @file fixed_size_binary.hpp
 * @brief filter of fixed-size binary columns: rows of 1, 2, 4, 8 or 16 aligned bytes go through the
 * fixed-width filter of an unsigned integer of that width (one pass with the host fast paths);
 * other widths compact the kept row numbers, then gather them. Users include devcol/ops/filter.hpp.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/fixed_size_binary_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/ops/detail/filter/fixed_width.hpp>
#include <devcol/ops/detail/gather/fixed_size_binary.hpp>
#include <devcol/ops/detail/validity.hpp>

#include <cstddef>
#include <cstdint>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The rows of `col` where `keep` is true, through the fixed-width filter of `U` (whose width is
/// the column's and to whose alignment its rows are aligned): the column's buffers are aliased as a
/// `column<U>`, and the result's buffers adopted back. O(1) besides the filter itself.
template <class U, class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> filter_as_words(fixed_size_binary_column<Policy> const& col,
                                                               column<bool, Policy> const& keep, stream_ref stream) {
  column<U, Policy> const words(col.data_buffer().alias(), col.mask_buffer().alias(), col.size(), col.null_count(),
                                col.offset());
  column<U, Policy> const kept = devcol::filter(words, keep, stream);
  return fixed_size_binary_column<Policy>(sizeof(U), kept.data_buffer().alias(), kept.mask_buffer().alias(),
                                          kept.size(), kept.null_count(), kept.offset());
}

}  // namespace detail

/**
 * @brief The rows of `col` where `keep` is true (a null flag drops the row), in order. Rows of 1,
 * 2, 4, 8 or 16 bytes aligned to their width (a uuid, say) cost what filter(column) of an integer
 * of that width costs. Other rows: the kept row numbers by one compaction (counting them first
 * synchronises `stream`; an int64 per kept row of scratch from `col`'s resource), then a gather of
 * those rows (one pass over their bytes; with nulls, the mask is written and counted, which
 * synchronises).
 * @tparam Policy the buffer policy of the input and of the result
 * @param col the input column
 * @param keep true for each row to keep; a null flag drops the row
 * @param stream the stream the work is ordered on
 * @throws devcol::logic_error naming both sizes if they differ
 */
template <class Policy>
[[nodiscard]] fixed_size_binary_column<Policy> filter(fixed_size_binary_column<Policy> const& col,
                                                      column<bool, Policy> const& keep, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  detail::expect_same_size(col.size(), keep.size(), "filter");
  if (col.size() != 0) {
    std::size_t const w = col.width();
    bool const aligned = reinterpret_cast<std::uintptr_t>(col.view().data()) % (w != 0 ? w : 1) == 0;
    switch (aligned ? w : 0) {
      case 1: return detail::filter_as_words<std::uint8_t>(col, keep, stream);
      case 2: return detail::filter_as_words<std::uint16_t>(col, keep, stream);
      case 4: return detail::filter_as_words<std::uint32_t>(col, keep, stream);
      case 8: return detail::filter_as_words<std::uint64_t>(col, keep, stream);
      case 16: return detail::filter_as_words<int128_t>(col, keep, stream);
      default: break;
    }
  }
  auto const kept = detail::kept_positions<Policy>(keep, col.resource(), stream);
  return devcol::gather(col, kept, stream, out_of_bounds::nullify);
}

DEVCOL_NAMESPACE_END
