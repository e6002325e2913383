/**
 * @file import_buffers.hpp
 * @brief What the importers of every kind share: the structure checks of validity and value
 * buffers, and the adoption of a producer's bitmap (borrowed when devcol can read whole words of
 * it, else copied).
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Checks what every layout of two buffers (validity, values) shares, for an array (structure
/// already checked) of `type` with `value_bytes` bytes per row (0: bit-packed): no dictionary, no
/// children, two buffers, a bitmap for nulls, values for rows (unless `bytes_per_row_zero`: rows of
/// no bytes, as a fixed-size binary of width 0 has, need no buffer), sizes that do not overflow.
template <int = 0>
void check_values_layout(ArrowArray const& array, arrow_field const& field, std::string const& path,
                         std::string_view type, std::size_t value_bytes, bool bytes_per_row_zero = false) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": dictionary-encoded ", type,
                       " is not supported (decode it first)");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(), ", a ", type,
                       " array has none");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 2, path, ".n_buffers is ", array.n_buffers, ", a ", type,
                       " array has 2 (validity, values)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(value_bytes == 0 || rows <= SIZE_MAX / value_bytes, path, ": ", rows, " rows of ", value_bytes,
                       " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || bytes_per_row_zero || array.buffers[1] != nullptr, path,
                       ".buffers[1] (values) is NULL for ", rows, " rows");
}

/// The checks every layout with a validity bitmap shares.
template <int = 0>
void check_validity(ArrowArray const& array, std::int64_t buffers, std::string const& path, char const* what) {
  DEVCOL_ARROW_EXPECTS(array.n_buffers == buffers, path, ".n_buffers is ", array.n_buffers, ", a ", what, " array has ",
                       buffers);
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
}

/**
 * @brief Bits [0, first + bits) of a producer's bitmap as a buffer devcol can read whole words of:
 * borrowed when `bitmap` is word-aligned and its bytes end on a word, or are known to be `padded`
 * (devcol reads whole 64-bit words, and the specification only recommends padding), else copied
 * into fresh words (one pass over the bitmap, 1/64 of the bytes of int64 values). If `shift`, bits
 * [first, first + bits) are moved to start at bit 0 (a copy).
 */
template <buffer_policy Policy>
buffer<Policy> import_bits(void const* bitmap, std::size_t first, std::size_t bits, bool shift, bool padded,
                           std::shared_ptr<void const> const& keep, stream_ref stream) {
  std::size_t const end = first + bits;
  std::size_t const word_bytes = words_for(end) * sizeof(bitmask_word);
  buffer<Policy> words;
  std::size_t const producer_bytes = (end + 7) / 8;  // what the producer's bitmap surely holds
  if (reinterpret_cast<std::uintptr_t>(bitmap) % sizeof(bitmask_word) == 0 && (padded || producer_bytes == word_bytes)) {
    words = buffer<Policy>::borrow(bitmap, word_bytes, keep, stream);
  } else {
    words = buffer<Policy>(word_bytes, stream);
    void* out = words.data(access::write, stream);
    fill_bytes(out, 0, word_bytes, stream);
    copy_bytes(out, bitmap, producer_bytes, stream);
  }
  if (!shift || first == 0) { return words; }
  return copy_bits<buffer<Policy>>(static_cast<bitmask_word const*>(words.data(access::read)), first, end,
                                   policy_resource<typename Policy::resource>(), stream);
}

/// Whether `array` is one devcol exported: its bitmaps hold whole words (devcol allocates them
/// padded to 64 bytes, and borrows others only when they end on a word).
template <int = 0>
bool exported_by_devcol(ArrowArray const& array) noexcept {
  return array.release == &release_array_node<>;
}

/**
 * @brief The validity of rows [first, first + rows) of a checked array, as every importer takes it:
 * no bitmap, no mask and 0 nulls; else the bitmap as import_bits takes it (moved to start at bit 0
 * if `shift`) and `null_count`, or when that is negative the nulls counted (one pass; synchronises).
 */
template <buffer_policy Policy>
std::pair<buffer<Policy>, std::size_t> import_validity(ArrowArray const& array, std::size_t first, std::size_t rows,
                                                       std::int64_t null_count, bool shift,
                                                       std::shared_ptr<void const> const& keep, stream_ref stream) {
  if (array.buffers[0] == nullptr) { return {}; }
  buffer<Policy> mask = import_bits<Policy>(array.buffers[0], first, rows, shift, exported_by_devcol(array), keep, stream);
  std::size_t const offset = shift ? 0 : first;
  std::size_t const nulls =
      null_count >= 0 ? static_cast<std::size_t>(null_count)
                      : count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), offset, offset + rows, stream);
  return {std::move(mask), nulls};
}

/// A producer's validity bitmap for rows [offset, offset + length) and its null count (counted
/// when the producer gave -1).
template <buffer_policy Policy>
std::pair<buffer<Policy>, std::size_t> import_validity(ArrowArray const& array, std::shared_ptr<void const> const& keep,
                                                       stream_ref stream) {
  if (array.buffers[0] == nullptr || array.length == 0) { return {buffer<Policy>{}, 0}; }
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  auto mask = import_bits<Policy>(array.buffers[0], first, rows, false, exported_by_devcol(array), keep, stream);
  std::size_t const nulls =
      array.null_count >= 0
          ? static_cast<std::size_t>(array.null_count)
          : count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), first, first + rows, stream);
  return {std::move(mask), nulls};
}

}  // namespace detail
DEVCOL_NAMESPACE_END
