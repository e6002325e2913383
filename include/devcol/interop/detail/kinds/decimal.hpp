/**
 * @file decimal.hpp
 * @brief Arrow export and import of decimal columns: the format "d:P,S[,bitwidth]" read from
 * untrusted input, the schema and array nodes, the structure checks and the import.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/decimal_column.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_buffers.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds/fixed_width.hpp>

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// What a decimal format string says.
struct decimal_format {
  int precision = 0;
  int scale = 0;
  int bit_width = 128;  ///< 32, 64, 128 or 256 ("d:P,S" without a width is decimal128)
};

/**
 * Reads an untrusted decimal format "d:P,S" or "d:P,S,W": P and S decimal integers (S may be
 * negative), W one of 32, 64, 128, 256; nothing else before, between or after. Checks the precision
 * against the width (1..9, 1..18, 1..38, 1..76).
 * @throws devcol::arrow_error naming `path`, the format and what is wrong
 */
template <int = 0>
[[nodiscard]] decimal_format parse_decimal_format(std::string_view format, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(format.starts_with("d:"), path, ".format '", format, "' is not a decimal ('d:P,S[,bitwidth]')");
  std::string_view rest = format.substr(2);
  int fields[3] = {0, 0, 128};
  std::size_t n = 0;
  while (true) {
    DEVCOL_ARROW_EXPECTS(n < 3, path, ".format '", format, "' has more than 3 decimal parameters");
    char const* const first = rest.data();
    char const* const last = rest.data() + rest.size();
    char const* const comma = std::find(first, last, ',');
    // from_chars accepts a leading '-' only; no '+', no spaces, no empty field.
    auto const [end, err] = std::from_chars(first, comma, fields[n]);
    DEVCOL_ARROW_EXPECTS(err == std::errc{} && end == comma && comma != first, path, ".format '", format,
                         "': parameter ", n + 1, " ('", std::string_view(first, static_cast<std::size_t>(comma - first)),
                         "') is not a decimal integer that fits an int");
    ++n;
    if (comma == last) { break; }
    rest = std::string_view(comma + 1, static_cast<std::size_t>(last - comma - 1));
  }
  DEVCOL_ARROW_EXPECTS(n >= 2, path, ".format '", format, "' lacks a scale ('d:P,S[,bitwidth]')");
  decimal_format out{fields[0], fields[1], fields[2]};
  DEVCOL_ARROW_EXPECTS(out.bit_width == 32 || out.bit_width == 64 || out.bit_width == 128 || out.bit_width == 256, path,
                       ".format '", format, "': bit width ", out.bit_width, " is not 32, 64, 128 or 256");
  int const max = out.bit_width == 32 ? 9 : out.bit_width == 64 ? 18 : out.bit_width == 128 ? 38 : 76;
  DEVCOL_ARROW_EXPECTS(out.precision >= 1 && out.precision <= max, path, ".format '", format, "': precision ",
                       out.precision, " is not within [1, ", max, "] for decimal", out.bit_width);
  return out;
}

/// Calls `f(std::type_identity<Rep>{}, decimal_format)` for the representation a decimal format
/// names (for importers that learn the kind at run time). @throws as parse_decimal_format
template <class F>
decltype(auto) visit_decimal_format(std::string_view format, std::string const& path, F&& f) {
  decimal_format const d = parse_decimal_format(format, path);
  if (d.bit_width == 32) { return f(std::type_identity<std::int32_t>{}, d); }
  if (d.bit_width == 64) { return f(std::type_identity<std::int64_t>{}, d); }
  if (d.bit_width == 256) { return f(std::type_identity<int256_t>{}, d); }
  return f(std::type_identity<int128_t>{}, d);
}

/// The schema node of a decimal column: its format ("d:P,S[,W]") and `name`, no children.
template <decimal_rep Rep, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(decimal_column<Rep, Policy> const& col, std::string name) {
  return std::make_unique<schema_node>(col.arrow_format(), std::move(name), 0);
}

/// The array node of a decimal column: the values column's (validity, values at the offset),
/// zero-copy with a copy-on-write handle, a snapshot when exposed or not copy-on-write.
template <decimal_rep Rep, buffer_policy Policy>
std::unique_ptr<array_node> export_node(decimal_column<Rep, Policy> const& col, stream_ref stream) {
  return export_column_node(col.values(), stream);
}

/// Where a decimal column's memory lives.
template <decimal_rep Rep, buffer_policy Policy>
arrow_device device_of(decimal_column<Rep, Policy> const& col) {
  return device_of(col.values());
}

/// Checks that an array (structure already checked) is a decimal of width `Rep` that devcol can
/// read: its format parses and names `Rep`'s width; two buffers. Reads no buffer.
template <decimal_rep Rep>
void check_decimal(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  decimal_format const d = parse_decimal_format(field.format, path);
  DEVCOL_ARROW_EXPECTS(d.bit_width == decimal_bit_width_v<Rep>, path, ".format '", field.format, "' is decimal",
                       d.bit_width, ", not decimal", decimal_bit_width_v<Rep>);
  check_values_layout(array, field, path, "decimal", sizeof(Rep));
}

/**
 * A checked decimal array's rows [offset, offset + length) as a column: values borrowed from the
 * producer (copied only when misaligned for `Rep`), validity borrowed or copied as for fixed-width
 * columns, the precision and scale from the format; null_count -1 is counted (one pass, synchronises).
 */
template <decimal_rep Rep, buffer_policy Policy>
decimal_column<Rep, Policy> import_decimal(ArrowArray const& array, arrow_field const& field,
                                           std::shared_ptr<void const> const& keep, stream_ref stream) {
  decimal_format const d = parse_decimal_format(field.format, "array");
  return decimal_column<Rep, Policy>(
      import_column<Rep, Policy>(array, static_cast<std::size_t>(array.offset), static_cast<std::size_t>(array.length),
                                 array.null_count, keep, stream),
      d.precision, d.scale);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
