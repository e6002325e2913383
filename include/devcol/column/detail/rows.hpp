/**
 * @file rows.hpp
 * @brief What every column kind does with its rows' validity: the checks on an adopted mask and
 * null count, the null count of a slice, and a mask copied for a range of rows.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/memory/resource.hpp>

#include <cstddef>
#include <string_view>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Throws unless `null_count` is possible for `size` rows with (or without) a mask.
inline void check_null_count(std::string_view what, std::size_t null_count, std::size_t size, bool has_mask) {
  DEVCOL_EXPECTS(null_count <= size && (null_count == 0 || has_mask), what, ": null count ", null_count,
                 " is impossible for ", size, has_mask ? " rows" : " rows without a mask");
}

/// Throws unless `mask` (empty: none) holds whole aligned words for bits [offset, offset + size):
/// mask readers load whole words.
template <class Buffer>
void check_mask(std::string_view what, Buffer const& mask, std::size_t offset, std::size_t size) {
  if (mask.empty()) { return; }
  std::size_t const words = words_for(offset + size);
  DEVCOL_EXPECTS(mask.size() >= words * sizeof(bitmask_word), what, ": a mask of ", mask.size(),
                 " bytes cannot hold the ", words, " words of bits [", offset, ", ", offset + size, ")");
  DEVCOL_EXPECTS(mask.offset() % sizeof(bitmask_word) == 0, what, ": a mask at byte offset ", mask.offset(),
                 " is not aligned to its ", sizeof(bitmask_word), "-byte words");
}

/// Throws unless [begin, end) is within `size` rows.
inline void check_rows(std::string_view what, std::size_t begin, std::size_t end, std::size_t size) {
  DEVCOL_EXPECTS(begin <= end && end <= size, what, ": [", begin, ", ", end, ") is not within the ", size,
                 " rows of the column");
}

/// The nulls among rows [begin, end) of a column with `nulls` of `size` rows whose row 0 is bit
/// `offset` of `mask`: no kernel when the column has none or only nulls; else one pass, synchronised.
template <class Buffer>
[[nodiscard]] std::size_t nulls_in(Buffer const& mask, std::size_t offset, std::size_t size, std::size_t nulls,
                                   std::size_t begin, std::size_t end, stream_ref stream) {
  if (nulls == 0) { return 0; }
  if (nulls == size) { return end - begin; }
  return count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), offset + begin, offset + end,
                          stream);
}

/// Bits [begin, end) of `mask` in a fresh mask from its resource, starting at bit 0 (empty for an
/// empty mask). One pass, in order on `stream`.
template <class Buffer>
[[nodiscard]] Buffer copy_mask_bits(Buffer const& mask, std::size_t begin, std::size_t end, stream_ref stream) {
  if (mask.empty()) { return Buffer{}; }
  std::size_t const bytes = bitmask_allocation_size(end - begin);
  Buffer out(bytes, stream, mr::default_alignment, mask.resource());
  copy_bitmask(static_cast<bitmask_word const*>(mask.data(access::read)), begin, end,
               static_cast<bitmask_word*>(out.data(access::write, stream)), bytes, stream);
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
