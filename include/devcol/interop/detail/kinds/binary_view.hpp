/**
 * @file binary_view.hpp
 * @brief Arrow for string view ("vu") and binary view ("vz") columns: the schema and the
 * zero-copy array node, the structure checks (no buffer read) and the import (the buffer sizes and
 * the views checked, then everything borrowed).
 *
 * The C Data Interface gives a view array N + 3 buffers: validity, views, the N data buffers, and a
 * last buffer of N int64 data-buffer sizes. The C Device Data Interface says nothing special of
 * that last buffer, so devcol treats it as every other buffer of the array: in the array's device
 * memory (on CUDA it is copied to the host on import, and exported in device memory), as Arrow C++
 * and nanoarrow place it when they move a view array to a device.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/binary_view_column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>

#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// The Arrow format of a view column with bytes `E`: "vu" or "vz".
template <encoding E>
inline constexpr std::string_view view_format_v = E == encoding::utf8 ? "vu" : "vz";
/// The pyarrow name of a view column with bytes `E`: "string_view" or "binary_view".
template <encoding E>
inline constexpr std::string_view view_type_name_v = E == encoding::utf8 ? "string_view" : "binary_view";

// ---- export ----------------------------------------------------------------------------------

template <buffer_policy Policy, encoding E>
inline constexpr std::string_view leaf_format_v<basic_binary_view_column<Policy, E>> = view_format_v<E>;

/// The schema node of a view column: format "vu" or "vz", the name, no children.
template <buffer_policy Policy, encoding E>
std::unique_ptr<schema_node> schema_of(basic_binary_view_column<Policy, E> const& /*col*/, std::string name) {
  return leaf_schema(leaf_format_v<basic_binary_view_column<Policy, E>>, std::move(name));
}

/// `col`'s rows as a view column of encoding `To` on the same buffers, so that both encodings share
/// one export and import body: only the format differs. Aliases, as strings' with_encoding takes.
template <encoding To, buffer_policy Policy, encoding E>
basic_binary_view_column<Policy, To> with_encoding(basic_binary_view_column<Policy, E> const& col) {
  std::vector<buffer<Policy>> data;
  data.reserve(col.data_buffers().size());
  for (buffer<Policy> const& b : col.data_buffers()) { data.push_back(b.alias()); }
  return basic_binary_view_column<Policy, To>(col.views_buffer().alias(), std::move(data), col.mask_buffer().alias(),
                                              col.size(), col.null_count(), col.offset());
}

/**
 * @brief The array node of a view column: validity, views (at the column's offset), every data
 * buffer, and the buffer sizes, zero-copy but for the sizes: N int64 in a buffer from the column's
 * resource (at least 64 bytes, zeroed past the sizes), copied from the host in order on `stream`,
 * which is then synchronised. An empty views or data buffer is pointed at that buffer too, so no
 * buffer is NULL. The node holds a handle on the column (a later write through the column copies
 * first, rule 3); an exposed column or one under a policy without copy-on-write is exported as a
 * snapshot (deep_copy), since Arrow requires the memory not to change.
 * @throws what allocation and copying throw
 */
template <buffer_policy Policy, encoding E>
std::unique_ptr<array_node> export_node(basic_binary_view_column<Policy, E> const& col, stream_ref stream) {
  if constexpr (E != encoding::utf8) {
    return export_node(with_encoding<encoding::utf8>(col), stream);  // the same buffers: one body
  } else {
    using column_type = basic_binary_view_column<Policy, E>;
    column_type kept = export_handle(col, stream);
    std::size_t const n = kept.num_data_buffers();
    buffer<Policy> sizes = zeroed_export_buffer<Policy>(std::max<std::size_t>(64, n * sizeof(std::int64_t)),
                                                        kept.resource(), stream);
    if (n != 0) {
      std::vector<std::int64_t> host(n);
      for (std::size_t i = 0; i < n; ++i) { host[i] = static_cast<std::int64_t>(kept.data_buffer(i).size()); }
      copy_bytes(sizes.data(access::write, stream), host.data(), n * sizeof(std::int64_t), stream);
      stream.synchronize();  // the host sizes go when this returns
    }
    std::unique_ptr<array_node> node;
    auto const& held = hold_in(node, 0, exported<column_type>{std::move(kept), std::move(sizes)});
    void const* const made = held.made.data(access::read);
    // No rows: offset 0, since Arrow C++'s importer sizes the views buffer of an empty array at 0
    // bytes and its ValidateFull then refuses any offset (its own export of an empty slice too).
    describe_rows(*node, held.col, held.col.views_buffer().empty() || held.col.size() == 0 ? 0 : held.col.offset(),
                  held.col.mask_buffer().data(access::read), static_cast<std::int64_t>(n + 3));
    node->variadic_buffers.reserve(n + 3);
    node->variadic_buffers.push_back(node->buffers[0]);
    node->variadic_buffers.push_back(held.col.views_buffer().empty() ? made
                                                                     : held.col.views_buffer().data(access::read));
    for (std::size_t i = 0; i < n; ++i) {
      auto const& d = held.col.data_buffer(i);
      node->variadic_buffers.push_back(d.empty() ? made : d.data(access::read));
    }
    node->variadic_buffers.push_back(made);
    return node;
  }
}

/// Where a view column's memory lives: its views' (the current device when it has none).
template <buffer_policy Policy, encoding E>
arrow_device device_of(basic_binary_view_column<Policy, E> const& col) {
  return device_of(col.views_buffer().data(access::read));
}

// ---- structure checks and import ---------------------------------------------------------------

/**
 * @brief Checks that an array (its tree's structure already checked) is a string view (binary view
 * with `E = encoding::binary`) array devcol can import: the format, no dictionary or children, at
 * least 3 buffers (validity, views, sizes: the last one, which Arrow requires even without data
 * buffers), a validity buffer if there are nulls, views unless there are no rows, a sizes buffer
 * when there are data buffers, no size overflow. Reads no buffer.
 * @throws devcol::arrow_error naming the field and the value
 */
template <int = 0>
void check_binary_view_layout(ArrowArray const& array, arrow_field const& field, std::string const& path,
                              std::string_view format, std::string_view type) {
  DEVCOL_ARROW_EXPECTS((field.format == format), path, ".format '", field.format, "' is not ", type, " ('", format,
                       "')");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": dictionary-encoded ", type,
                       " is not supported (decode it first)");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(), ", a ", type,
                       " array has none");
  DEVCOL_ARROW_EXPECTS(array.n_buffers >= 3, path, ".n_buffers is ", array.n_buffers, ", a ", type,
                       " array has at least 3 (validity, views, the data buffers, then their sizes): the buffer sizes "
                       "are missing");
  DEVCOL_ARROW_EXPECTS(array.n_buffers - 3 <= INT32_MAX, path, ".n_buffers is ", array.n_buffers,
                       ", more data buffers than a view's int32 index names");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / sizeof(binary_view_row), path, ": the ", rows, " views of 16 bytes overflow");
  DEVCOL_ARROW_EXPECTS(array.length == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (views) is NULL for ",
                       array.length, " rows");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 3 || array.buffers[array.n_buffers - 1] != nullptr, path, ".buffers[",
                       array.n_buffers - 1, "] (the sizes of ", array.n_buffers - 3, " data buffers) is NULL");
}
/// check_binary_view_layout for bytes `E`: both view types share one body.
template <encoding E>
void check_binary_view(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  check_binary_view_layout(array, field, path, view_format_v<E>, view_type_name_v<E>);
}

/// Whether a view is not one that `n` data buffers of `sizes` bytes hold: a negative length, or out
/// of line with a buffer index outside [0, n) or bytes past its buffer's end.
struct bad_view {
  binary_view_row const* views;
  std::int64_t const* sizes;
  std::int64_t n;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    binary_view_row const v = views[i];
    if (v.size < 0) { return true; }
    if (v.is_inline()) { return false; }
    if (v.buffer_index < 0 || v.buffer_index >= n || v.offset < 0) { return true; }
    return static_cast<std::int64_t>(v.offset) + v.size > sizes[v.buffer_index];
  }
};

/// Whether row `i` is valid and its view bad: what an import refuses (a null row's view is
/// unspecified in Arrow, and Arrow C++'s validation skips it).
struct valid_bad_view {
  bad_view bad;
  bitmask_word const* mask;  // null: every row valid
  std::size_t first;         // the rows' first bit in `mask`
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return (mask == nullptr || bit_is_set(mask, first + i)) && bad(i);
  }
};

/// Row `i`'s view, or the empty string's where bad_view rejects it (only null rows, by then), so
/// that no kernel ever follows a null row's view outside the data buffers.
struct cleared_view {
  bad_view bad;
  DEVCOL_HOST_DEVICE binary_view_row operator()(std::size_t i) const noexcept {
    return bad(i) ? binary_view_row{} : bad.views[i];
  }
};

/**
 * @brief Rows [offset, offset + length) of a checked view array as a column over its memory: the
 * views and data buffers borrowed (kept alive by `keep`), the validity as import_bits takes it.
 * The sizes buffer is read to the host (one copy; synchronises `stream`): every size not negative,
 * a data buffer NULL only when empty. Then every row's view is checked (one search over the rows,
 * synchronising `stream`, over a device copy of the sizes): length not negative, and an
 * out-of-line view naming one of the data buffers and bytes within it. A null row's view is
 * unspecified in Arrow, so where only null rows' views fail (a second search tells), the rows'
 * views are copied with those made the empty string's, which every kernel may then read. Views
 * misaligned for their 4-byte fields are first copied too (only the rows'; the validity bits are
 * then shifted to match). `null_count` -1 is counted (one pass; synchronises).
 * @throws devcol::arrow_error naming the field and value, what allocation throws
 */
template <buffer_policy Policy, encoding E>
basic_binary_view_column<Policy, E> import_binary_view(ArrowArray const& array, arrow_field const& field,
                                                       std::shared_ptr<void const> const& keep, stream_ref stream,
                                                       std::string const& path = "array") {
  if constexpr (E != encoding::utf8) {  // the same layout: one body
    return with_encoding<E>(import_binary_view<Policy, encoding::utf8>(array, field, keep, stream, path));
  } else {
    using buffer_type = buffer<Policy>;
    auto const first = static_cast<std::size_t>(array.offset);
    auto const rows = static_cast<std::size_t>(array.length);
    auto const n = static_cast<std::size_t>(array.n_buffers - 3);
    std::vector<std::int64_t> sizes(n);
    if (n != 0) {
      copy_bytes(sizes.data(), array.buffers[array.n_buffers - 1], n * sizeof(std::int64_t), stream);
      stream.synchronize();
    }
    std::vector<buffer_type> data;
    data.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      DEVCOL_ARROW_EXPECTS(sizes[i] >= 0, path, ".buffers[", array.n_buffers - 1, "][", i,
                           "] (the size of data buffer ", i, ") is ", sizes[i]);
      DEVCOL_ARROW_EXPECTS(sizes[i] == 0 || array.buffers[i + 2] != nullptr, path, ".buffers[", i + 2,
                           "] (data buffer ", i, ") is NULL for ", sizes[i], " bytes");
      data.push_back(sizes[i] == 0 ? buffer_type{}
                                   : buffer_type::borrow(array.buffers[i + 2], static_cast<std::size_t>(sizes[i]), keep,
                                                         stream));
    }
    if (rows == 0) {
      return basic_binary_view_column<Policy, E>(buffer_type{}, std::move(data), buffer_type{}, 0, 0, 0);
    }
    auto const* views = static_cast<binary_view_row const*>(array.buffers[1]);
    // Realigned before anything reads them, as the strings importer does with its offsets: the
    // check's kernel must not read an int32 at a misaligned address (a fault on a GPU).
    bool shift = reinterpret_cast<std::uintptr_t>(views) % alignof(binary_view_row) != 0;
    buffer_type views_buffer;
    if (shift) {
      views_buffer = buffer_type(rows * sizeof(binary_view_row), stream);
      copy_bytes(views_buffer.data(access::write, stream), static_cast<std::byte const*>(array.buffers[1]) +
                                                                first * sizeof(binary_view_row),
                 rows * sizeof(binary_view_row), stream);
    } else {
      views_buffer = buffer_type::borrow(views, (first + rows) * sizeof(binary_view_row), keep, stream);
    }
    auto const* row_views = static_cast<binary_view_row const*>(views_buffer.data(access::read)) + (shift ? 0 : first);
    buffer_type device_sizes;
    if (n != 0) {
      device_sizes = buffer_type(n * sizeof(std::int64_t), stream);
      copy_bytes(device_sizes.data(access::write, stream), sizes.data(), n * sizeof(std::int64_t), stream);
    }
    executor exec(stream);
    bad_view const bad{row_views, static_cast<std::int64_t const*>(device_sizes.data(access::read)),
                       static_cast<std::int64_t>(n)};
    auto [mask, nulls] = import_validity<Policy>(array, first, rows, array.null_count, shift, keep, stream);
    std::size_t bad_row = find_first_n(exec, rows, bad);  // `rows` when every view is good
    if (bad_row != rows && mask.data(access::read) != nullptr) {  // a null row's view may be anything
      bad_row = find_first_n(exec, rows, valid_bad_view{bad, static_cast<bitmask_word const*>(mask.data(access::read)),
                                                        shift ? 0 : first});
      if (bad_row == rows) {
        buffer_type cleared(rows * sizeof(binary_view_row), stream);
        tabulate(exec, rows, static_cast<binary_view_row*>(cleared.data(access::write, stream)), cleared_view{bad});
        if (!shift) {
          mask = import_validity<Policy>(array, first, rows, static_cast<std::int64_t>(nulls), true, keep, stream).first;
          shift = true;
        }
        views_buffer = std::move(cleared);
      }
    }
    if (bad_row != rows) {
      binary_view_row v{};
      copy_bytes(&v, row_views + bad_row, sizeof(v), stream);
      stream.synchronize();
      std::string const where = path + ".buffers[1][" + std::to_string(first + bad_row) + "] (the view of row " +
                                std::to_string(bad_row) + ")";
      DEVCOL_ARROW_EXPECTS(v.size >= 0, where, " has length ", v.size);
      DEVCOL_ARROW_EXPECTS(v.buffer_index >= 0 && static_cast<std::size_t>(v.buffer_index) < n, where,
                           " names data buffer ", v.buffer_index, " of ", n);
      DEVCOL_ARROW_EXPECTS(false, where, " reaches bytes [", v.offset, ", ",
                           static_cast<std::int64_t>(v.offset) + v.size, ") of data buffer ", v.buffer_index,
                           ", which has ", sizes[static_cast<std::size_t>(v.buffer_index)]);
    }
    return basic_binary_view_column<Policy, E>(std::move(views_buffer), std::move(data), std::move(mask), rows, nulls,
                                               shift ? 0 : first);
  }
}

}  // namespace detail
DEVCOL_NAMESPACE_END
