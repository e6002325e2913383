/**
 * @file run_end_encoded.hpp
 * @brief Arrow export and import of run-end encoded columns ("+r"): no buffers, two children (the
 * run ends, non-nullable int16/int32/int64, and the values), the logical offset and length kept;
 * zero-copy both ways, the run ends content-checked on import.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/run_end_encoded_column.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// The schema of a run-end encoded column: "+r" with a non-nullable child "run_ends" and a nullable
/// child "values", as Arrow C++ names them.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(run_end_encoded_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>("+r", std::move(name), 2);
  col.visit_run_ends([&](auto const& ends) { publish(schema_of(ends, "run_ends"), 0, node->children[0]); });
  publish(schema_of(col.values(), "values"), ARROW_FLAG_NULLABLE, node->children[1]);
  return node;
}

/// The array of a run-end encoded column: no buffers, null count 0, the logical offset and length,
/// both children whole. Zero-copy; a snapshot when exposed or not copy-on-write.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(run_end_encoded_column<Policy> const& col, stream_ref stream) {
  auto node = export_own_buffers<Policy>({}, 0, false, col.size(), col.null_count(), col.offset(), 2, {}, stream);
  col.visit_run_ends([&](auto const& ends) { publish(pinned_export_node(ends, stream), node->children[0]); });
  publish(pinned_export_node(col.values(), stream), node->children[1]);
  return node;
}

/// Where a run-end encoded column's memory lives: its run ends'.
template <buffer_policy Policy>
arrow_device device_of(run_end_encoded_column<Policy> const& col) {
  return col.visit_run_ends([](auto const& ends) { return device_of(static_cast<void const*>(ends.data(access::read))); });
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// A run-end encoded array: format "+r", no buffers, a null count of 0 (or -1), two children: run
/// ends of an int16, int32 or int64 format, at least one when there are rows, and at least as many
/// values (both checked recursively). Reads no buffer.
/// @throws devcol::arrow_error naming the field and the value
template <int = 0>
void check_run_end_encoded(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "+r", path, ".format '", field.format, "' is not run-end encoded ('+r')");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded run-end encoded array is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.size() == 2, path, ".n_children is ", field.children.size(),
                       ", a run-end encoded array has 2 (run_ends, values)");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 0, path, ".n_buffers is ", array.n_buffers,
                       ", a run-end encoded array has none");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0, path, ".null_count is ", array.null_count,
                       ", a run-end encoded array's is 0 (its nulls are its values')");
  arrow_field const& ends_field = field.children[0];
  DEVCOL_ARROW_EXPECTS(ends_field.dictionary.empty() &&
                           (ends_field.format == "s" || ends_field.format == "i" || ends_field.format == "l"),
                       path, ".children[0].format '", ends_field.format,
                       "': run ends are int16 ('s'), int32 ('i') or int64 ('l')");
  ArrowArray const& ends = *array.children[0];
  ArrowArray const& values = *array.children[1];
  DEVCOL_ARROW_EXPECTS(array.offset + array.length == 0 || ends.length > 0, path, ".children[0].length is 0 for rows [",
                       array.offset, ", ", array.offset + array.length, ")");
  DEVCOL_ARROW_EXPECTS(values.length >= ends.length, path, ".children[1].length is ", values.length, ", fewer than the ",
                       ends.length, " runs");
  check_any<0>(ends, ends_field, path + ".children[0]");
  check_any<0>(values, field.children[1], path + ".children[1]");
}

// ---- import ----------------------------------------------------------------------------------

/// A checked run-end encoded array as a column over the producer's children (imported whole), its
/// logical offset and length kept, once the run ends are checked: no nulls, the first positive,
/// strictly increasing, the last at least offset + length (one pass read back: synchronises `stream`).
/// @throws devcol::arrow_error naming the run end and its value
template <buffer_policy Policy>
run_end_encoded_column<Policy> import_run_end_encoded(ArrowArray const& array, arrow_field const& field,
                                                      std::shared_ptr<void const> const& keep, stream_ref stream,
                                                      std::string const& path) {
  std::string const ends_path = path + ".children[0]";
  auto ends_any = import_any<Policy>(*array.children[0], field.children[0], keep, stream, ends_path);
  auto values = import_any<Policy>(*array.children[1], field.children[1], keep, stream, path + ".children[1]");
  auto const rows = static_cast<std::int64_t>(array.offset) + static_cast<std::int64_t>(array.length);
  auto checked = [&](auto& c) -> run_ends_column<Policy> {
    DEVCOL_ARROW_EXPECTS(c.null_count() == 0, ends_path, ".null_count is ", c.null_count(), ": run ends may not be null");
    auto const s = summarise_run_ends(c, stream);
    DEVCOL_ARROW_EXPECTS(c.empty() || s.first > 0, ends_path, ": run end 0 is ", s.first, ", not positive");
    DEVCOL_ARROW_EXPECTS(s.bad == increasing_summary::none, ends_path, ": run end ", s.bad, " is ", s.here,
                         ", not below run end ", s.bad + 1, " (", s.next, ")");
    DEVCOL_ARROW_EXPECTS(s.last >= rows, ends_path, ": the last run end is ", s.last, ", short of the ", rows,
                         " rows that offset ", array.offset, " and length ", array.length, " name");
    return run_ends_column<Policy>(std::move(c));
  };
  // Only the three run-end types are asked for, so no other kind's branch is compiled.
  auto ends = [&]() -> run_ends_column<Policy> {
    if (auto* c = devcol::get_if<column<std::int16_t, Policy>>(&ends_any)) { return checked(*c); }
    if (auto* c = devcol::get_if<column<std::int32_t, Policy>>(&ends_any)) { return checked(*c); }
    if (auto* c = devcol::get_if<column<std::int64_t, Policy>>(&ends_any)) { return checked(*c); }
    DEVCOL_ARROW_EXPECTS(false, ends_path, ": run ends are int16, int32 or int64");  // check_run_end_encoded did
    return run_ends_column<Policy>{};
  }();
  return run_end_encoded_column<Policy>(std::move(ends), std::move(values), static_cast<std::size_t>(array.length),
                                        static_cast<std::size_t>(array.offset));
}

}  // namespace detail
DEVCOL_NAMESPACE_END
