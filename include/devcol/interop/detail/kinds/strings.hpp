/**
 * @file strings.hpp
 * @brief Arrow for strings and binary columns (utf8 "u", large utf8 "U", binary "z", large
 * binary "Z": one layout, one code path), the schema and zero-copy array nodes, the structure checks (no buffer read) and the import (offsets content checked, then
 * borrowed).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/strings_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/offsets.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

template <arrow_offset O, buffer_policy Policy, encoding E>
inline constexpr std::string_view leaf_format_v<basic_strings_column<O, Policy, E>> = strings_format_v<O, E>;

/// The schema node of a strings or binary column: format "u", "U", "z" or "Z", the name, no children.
template <arrow_offset O, buffer_policy Policy, encoding E>
std::unique_ptr<schema_node> schema_of(basic_strings_column<O, Policy, E> const& /*col*/, std::string name) {
  return leaf_schema(leaf_format_v<basic_strings_column<O, Policy, E>>, std::move(name));
}

/// `col`'s rows as a strings column of encoding `To` on the same buffers, so that both encodings
/// share one export and import body per offset width: the layout is the same, only the format
/// differs. Aliases, O(1): exposed buffers stay exposed (not copied as rule 12 copies them, on their
/// allocation's stream), so the export snapshots them on its own stream as it does any column's.
template <encoding To, arrow_offset O, buffer_policy Policy, encoding E>
basic_strings_column<O, Policy, To> with_encoding(basic_strings_column<O, Policy, E> const& col) {
  return basic_strings_column<O, Policy, To>(col.offsets_buffer().alias(), col.chars_buffer().alias(),
                                             col.mask_buffer().alias(), col.size(), col.null_count(), col.offset());
}

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
template <arrow_offset O, buffer_policy Policy, encoding E>
std::unique_ptr<array_node> export_node(basic_strings_column<O, Policy, E> const& col, stream_ref stream) {
  if constexpr (E != encoding::utf8) {
    return export_node(with_encoding<encoding::utf8>(col), stream);  // the same buffers: one body per width
  } else {
    basic_strings_column<O, Policy, E> kept = export_handle(col, stream);
    buffer<Policy> zeros;
    bool const no_offsets = kept.offsets_buffer().empty();
    if (no_offsets || kept.chars_buffer().empty()) {
      zeros = zeroed_export_buffer<Policy>(64, kept.resource(), stream);
    }
    std::unique_ptr<array_node> node;
    auto const& held =
        hold_in(node, 0, exported<basic_strings_column<O, Policy, E>>{std::move(kept), std::move(zeros)});
    void const* const zero = held.made.data(access::read);
    describe_rows(*node, held.col, no_offsets ? 0 : held.col.offset(), held.col.mask_buffer().data(access::read), 3);
    node->buffers[1] = no_offsets ? zero : held.col.offsets_buffer().data(access::read);
    node->buffers[2] = held.col.chars_buffer().empty() ? zero : held.col.chars_buffer().data(access::read);
    return node;
  }
}

/// Where a strings column's memory lives: its offsets' (the current device when it has none).
template <arrow_offset O, buffer_policy Policy, encoding E>
arrow_device device_of(basic_strings_column<O, Policy, E> const& col) {
  return device_of(col.offsets_buffer().data(access::read));
}

/// Where an exported strings node's memory lives (its offsets are never NULL).
inline arrow_device device_of_node(array_node const& node) { return device_of(node.buffers[1]); }

// ---- structure checks and import ---------------------------------------------------------------

/**
 * @brief Checks that an array (its tree's structure already checked) is a strings array (binary
 * with `E = encoding::binary`) with offsets `O` devcol can import: the format, no dictionary or children, three buffers, a validity
 * buffer if there are nulls, offsets unless there are no rows, no size overflow. Reads no buffer.
 * @throws devcol::arrow_error naming the field and the value
 */
template <int = 0>
void check_strings_layout(ArrowArray const& array, arrow_field const& field, std::string const& path,
                          std::string_view format, std::string_view type, std::size_t offset_bytes) {
  DEVCOL_ARROW_EXPECTS((field.format == format), path, ".format '", field.format, "' is not ", type, " ('", format,
                       "')");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": dictionary-encoded ", type,
                       " is not supported (decode it first)");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(), ", a ",
                       type, " array has none");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 3, path, ".n_buffers is ", array.n_buffers, ", a ", type,
                       " array has 3 (validity, offsets, data)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / offset_bytes, path, ": the ", rows + 1, " offsets of ", offset_bytes,
                       " bytes overflow");
  DEVCOL_ARROW_EXPECTS(array.length == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (offsets) is NULL for ",
                       array.length, " rows");
}
/// check_strings_layout for offsets `O` and bytes `E`: every strings and binary type shares one body.
template <arrow_offset O, encoding E = encoding::utf8>
void check_strings(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  check_strings_layout(array, field, path, strings_format_v<O, E>, strings_type_name_v<O, E>, sizeof(O));
}

/**
 * @brief Rows [offset, offset + length) of a checked strings (binary, with `E = encoding::binary`)
 * array as a column over its memory:
 * the offsets and data borrowed (kept alive by `keep`), the validity as import_bits takes it.
 * Offsets misaligned for `O` are first copied (only the rows'; the validity bits are then shifted
 * to match); then their content is checked (check_offsets: one kernel, one copy; synchronises
 * `stream`): first not negative, none decreasing, and a NULL data buffer only if there are no bytes. A NULL offsets buffer (no rows) gives an empty column. `null_count` -1 is counted (one
 * pass; synchronises).
 * @throws devcol::arrow_error naming the field and value, what allocation throws
 */
template <arrow_offset O, buffer_policy Policy, encoding E = encoding::utf8>
basic_strings_column<O, Policy, E> import_strings(ArrowArray const& array, arrow_field const& field,
                                                  std::shared_ptr<void const> const& keep, stream_ref stream,
                                                  std::string const& path = "array") {
  if constexpr (E != encoding::utf8) {  // the same layout: one body per offset width
    return with_encoding<E>(import_strings<O, Policy>(array, field, keep, stream, path));
  } else {
    using buffer_type = buffer<Policy>;
    auto const first = static_cast<std::size_t>(array.offset);
    auto const rows = static_cast<std::size_t>(array.length);
    if (array.buffers[1] == nullptr) { return basic_strings_column<O, Policy, E>{}; }  // no rows (checked)
    auto const* offsets = static_cast<O const*>(array.buffers[1]);
    // Realigned before anything reads them, as the list importer does: the check's kernel must not
    // read an O at a misaligned address (a fault on a GPU).
    bool const shift = reinterpret_cast<std::uintptr_t>(offsets) % alignof(O) != 0;
    buffer_type offsets_buffer;
    if (shift) {  // misaligned: copy the rows' offsets (still absolute positions in the data)
      offsets_buffer = buffer_type((rows + 1) * sizeof(O), stream);
      copy_bytes(offsets_buffer.data(access::write, stream), offsets + first, (rows + 1) * sizeof(O), stream);
    } else {
      offsets_buffer = buffer_type::borrow(offsets, (first + rows + 1) * sizeof(O), keep, stream);
    }
    auto const* rows_offsets = static_cast<O const*>(offsets_buffer.data(access::read)) + (shift ? 0 : first);
    std::int64_t const hi = check_offsets(rows_offsets, rows + 1, first, std::nullopt, path, stream).second;
    DEVCOL_ARROW_EXPECTS(hi == 0 || array.buffers[2] != nullptr, path, ".buffers[2] (data) is NULL for the ", hi,
                         " bytes the offsets reach");
    buffer_type chars;
    if (hi != 0) { chars = buffer_type::borrow(array.buffers[2], static_cast<std::size_t>(hi), keep, stream); }
    auto [mask, nulls] = import_validity<Policy>(array, first, rows, array.null_count, shift, keep, stream);
    return basic_strings_column<O, Policy, E>(std::move(offsets_buffer), std::move(chars), std::move(mask), rows, nulls,
                                           shift ? 0 : first);
  }
}

}  // namespace detail
DEVCOL_NAMESPACE_END
