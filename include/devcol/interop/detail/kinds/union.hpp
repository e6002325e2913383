/**
 * @file union.hpp
 * @brief Arrow export and import of union columns (sparse "+us:<codes>", dense "+ud:<codes>"): no
 * validity buffer (buffers are the type ids and, dense, the offsets), null count 0, the offset kept,
 * the children whole; zero-copy both ways, the type ids and offsets content-checked on import.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/union_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds/list_view.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- the format ------------------------------------------------------------------------------

/// Whether `format` names a union ("+us:…" or "+ud:…").
[[nodiscard]] inline bool is_union_format(std::string_view format) noexcept {
  return format.starts_with("+us:") || format.starts_with("+ud:");
}

/// A union format's mode and type codes: "+us:3,7" is sparse with codes 3 and 7 ("+us:" has none).
/// @throws devcol::arrow_error naming the format when a code is not a number in 0..127 or repeats
template <int = 0>
[[nodiscard]] std::pair<union_mode, std::vector<std::int8_t>> parse_union_format(std::string_view format,
                                                                                      std::string const& path) {
  DEVCOL_ARROW_EXPECTS(is_union_format(format), path, ".format '", format, "' is not a union ('+us:' or '+ud:')");
  union_mode const mode = format[2] == 's' ? union_mode::sparse : union_mode::dense;
  std::vector<std::int8_t> codes;
  std::string_view rest = format.substr(4);
  while (!rest.empty()) {
    std::size_t const comma = rest.find(',');
    std::string_view const code = rest.substr(0, comma);
    int value = 0;
    bool ok = !code.empty() && code.size() <= 3;  // so the value cannot overflow
    for (std::size_t c = 0; ok && c < code.size(); ++c) {
      ok = code[c] >= '0' && code[c] <= '9';
      value = value * 10 + (code[c] - '0');
    }
    DEVCOL_ARROW_EXPECTS(ok && value <= 127, path, ".format '", format, "': type code '", code,
                         "' is not a number in 0..127");
    for (std::int8_t const earlier : codes) {
      DEVCOL_ARROW_EXPECTS(earlier != value, path, ".format '", format, "': type code ", value, " is declared twice");
    }
    codes.push_back(static_cast<std::int8_t>(value));
    if (comma == std::string_view::npos) { break; }
    rest = rest.substr(comma + 1);
    DEVCOL_ARROW_EXPECTS(!rest.empty(), path, ".format '", format, "' ends with a comma");
  }
  return {mode, std::move(codes)};
}

// ---- export ----------------------------------------------------------------------------------

/// The schema of a union: its format with the type codes, one named nullable child per member.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(union_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), col.num_children());
  for (std::size_t k = 0; k < col.num_children(); ++k) {
    publish(schema_of(col.child(k), col.name(k)), ARROW_FLAG_NULLABLE, node->children[k]);
  }
  return node;
}

/// The array of a union: the type ids (and, dense, the offsets) at the column's offset, no validity,
/// null count 0, the children whole. Zero-copy; a snapshot when exposed or not copy-on-write. A
/// column without buffers (0 rows) exports zeroed bytes as its type ids and offsets, at offset 0.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(union_column<Policy> const& col, stream_ref stream) {
  buffer<Policy> zero;
  if (col.type_ids_buffer().empty()) { zero = zeroed_export_buffer<Policy>(sizeof(std::int32_t), col.resource(), stream); }
  std::size_t const n = col.num_children();
  bool const dense = col.mode() == union_mode::dense;
  auto node = export_own_buffers<Policy>({&col.type_ids_buffer(), &col.offsets_buffer()}, dense ? 2 : 1, false,
                                         col.size(), col.null_count(), col.offset(), n, std::move(zero), stream);
  for (std::size_t k = 0; k < n; ++k) { publish(pinned_export_node(col.child(k), stream), node->children[k]); }
  return node;
}

/// Where a union's memory lives: its type ids', its first child's when it has none.
template <buffer_policy Policy>
arrow_device device_of(union_column<Policy> const& col) {
  void const* p = col.type_ids_buffer().data(access::read);
  return p != nullptr || col.num_children() == 0 ? device_of(p) : device_of(col.child(0));
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A union array: its format's codes as many as its children, 1 buffer (sparse: type ids) or 2
/// (dense: type ids, offsets) present for any row, a null count of 0 (or -1), a sparse union's
/// children each at least offset + length long; the children checked recursively. Reads no buffer.
/// @throws devcol::arrow_error naming the field and the value
template <int = 0>
void check_union(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded union is not supported");
  auto const [mode, codes] = parse_union_format(field.format, path);
  bool const dense = mode == union_mode::dense;
  char const* what = dense ? "dense union" : "sparse union";
  DEVCOL_ARROW_EXPECTS(field.children.size() == codes.size(), path, ".n_children is ", field.children.size(), ", the ",
                       what, " '", field.format, "' declares ", codes.size(), " type codes");
  std::int64_t const buffers = dense ? 2 : 1;
  DEVCOL_ARROW_EXPECTS(array.n_buffers == buffers, path, ".n_buffers is ", array.n_buffers, ", a ", what,
                       " array has ", buffers, dense ? " (type ids, offsets)" : " (type ids)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0, path, ".null_count is ", array.null_count, ", a ", what,
                       "'s is 0 (its nulls are its children's)");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / 4, path, ": ", rows, " rows overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[0] != nullptr, path, ".buffers[0] (type ids) is NULL for ", rows,
                       " rows");
  DEVCOL_ARROW_EXPECTS(!dense || rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (offsets) is NULL for ",
                       rows, " rows");
  DEVCOL_ARROW_EXPECTS(rows == 0 || !codes.empty(), path, ": ", rows, " rows of a ", what, " without children");
  for (std::size_t k = 0; k < field.children.size(); ++k) {
    ArrowArray const& child = *array.children[k];
    std::string const child_path = path + ".children[" + std::to_string(k) + "]";
    DEVCOL_ARROW_EXPECTS(dense || static_cast<std::uint64_t>(child.length) >= rows, child_path, ".length ",
                         child.length, " is short of the sparse union's offset ", array.offset, " + length ",
                         array.length);
    check_any<0>(child, field.children[k], child_path);
  }
}

// ---- import ----------------------------------------------------------------------------------

/// A checked union array as a column over the producer's type ids and offsets (copied only when the
/// offsets are misaligned) and its children imported whole, its offset kept, after one pass that
/// finds the first row whose type id is not a declared code or (dense) whose offset is negative or
/// past its child (read back: synchronises `stream`), and for a dense union one more on the host,
/// over a copy of the rows' type ids and offsets, for a child's offsets that decrease (Arrow
/// requires them in increasing order).
/// @throws devcol::arrow_error naming that row, its type id and offset, and the child's rows or the
/// earlier offset
template <buffer_policy Policy>
union_column<Policy> import_union(ArrowArray const& array, arrow_field const& field,
                                  std::shared_ptr<void const> const& keep, stream_ref stream, std::string const& path) {
  auto [mode, codes] = parse_union_format(field.format, path);
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  std::vector<std::string> names;
  std::vector<any_column<Policy>> children;
  for (std::size_t k = 0; k < field.children.size(); ++k) {
    names.push_back(field.children[k].name);
    children.push_back(import_any<Policy>(*array.children[k], field.children[k], keep, stream,
                                          path + ".children[" + std::to_string(k) + "]"));
  }
  buffer<Policy> ids;
  buffer<Policy> offsets;
  if (first + rows != 0) {
    ids = buffer<Policy>::borrow(array.buffers[0], first + rows, keep, stream);
    if (mode == union_mode::dense) {
      offsets = import_view_values<std::int32_t, Policy>(array.buffers[1], first + rows, keep, stream);
    }
  }
  union_column<Policy> out(mode, std::move(codes), std::move(names), std::move(children), std::move(ids),
                           std::move(offsets), rows, first);
  auto const bad = find_bad_union_row(out.type_ids(access::read), out.offsets(access::read), rows,
                                      out.children_table(), stream);
  if (bad.row != rows) {
    int const k = union_child_of(out.children_table(), bad.id);
    DEVCOL_ARROW_EXPECTS(k >= 0, path, ": row ", first + bad.row, " has type id ", static_cast<int>(bad.id),
                         ", not one of the type codes of '", field.format, "'");
    DEVCOL_ARROW_EXPECTS(false, path, ": row ", first + bad.row, " (type id ", static_cast<int>(bad.id), ") has offset ",
                         bad.offset, ", not within the ", devcol::size(out.child(static_cast<std::size_t>(k))),
                         " rows of child ", k);
  }
  if (mode == union_mode::dense && rows != 0) {
    std::vector<std::int8_t> host_ids(rows);
    std::vector<std::int32_t> host_offsets(rows);
    copy_bytes(host_ids.data(), out.type_ids(access::read), rows, stream);
    copy_bytes(host_offsets.data(), out.offsets(access::read), rows * sizeof(std::int32_t), stream);
    stream.synchronize();
    auto const down = find_decreasing_union_offset<0>(host_ids, host_offsets);
    DEVCOL_ARROW_EXPECTS(down.row == rows, path, ": row ", first + down.row, " (type id ", static_cast<int>(down.id),
                         ") has offset ", down.offset, ", below offset ", down.earlier,
                         " of an earlier row of that child: a dense union's offsets into each child must not decrease");
  }
  return out;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
