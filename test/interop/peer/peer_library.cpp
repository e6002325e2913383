// devcol_peer: devcol's Arrow exports and imports behind a small C API, for test_pyarrow_peer.py,
// which loads this library with ctypes and passes the addresses of the C structs as integers.
//
// Every function but devcol_peer_live_allocations returns 0 on success and writes its answer (JSON)
// into `out`; else it writes a message there and returns
//   1  devcol refused the input (devcol::arrow_error)
//   2  another exception
//   3  `out` is too small (the message says how much is needed)
//
// The test columns: row i of a 100-row base column holds value_at<T>(i), null when i % 7 == 3;
// exports take rows [13, 83), so the Arrow offset (13) is not a multiple of 8. The Python test
// computes the same values on its own. Decimals hold the unscaled decimal_at<Rep>(i) (beyond 64
// bits for decimal128, both signs), fixed-size binary rows the bytes (31 i + 7 b) mod 256.
#include <devcol/devcol.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#define DEVCOL_PEER_API extern "C" __attribute__((visibility("default")))

namespace {

namespace mr = devcol::mr;

constexpr std::size_t base_rows = 100;
constexpr std::size_t first_row = 13;
constexpr std::size_t last_row = 83;

/// Everything this library allocates comes from here, so the test can see that pyarrow released
/// every export (and devcol every import's copies).
mr::resource_handle const& tracker_handle() {
  static mr::resource_handle const handle = mr::make_resource_handle<mr::tracking<mr::host_aligned>>("devcol_peer");
  return handle;
}

template <class T>
T value_at(std::size_t i) {
  auto const k = static_cast<std::int64_t>(i);
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 0;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(k - 50) * 0.25F;
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(k - 50) * 1048576.125;
  } else if constexpr (std::is_integral_v<T>) {
    // Spread over the whole range, negative and above INT64_MAX included; wraps modulo 2^bits.
    return static_cast<T>(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL + 11U);
  } else if constexpr (requires { typename T::clock; }) {
    return T(typename T::duration((k - 50) * 1000000007));
  } else {
    return T((k - 50) * 1000000007);
  }
}

bool null_at(std::size_t i) { return i % 7 == 3; }

template <class T>
devcol::column<T> base_column() {
  std::vector<std::optional<T>> rows(base_rows);
  for (std::size_t i = 0; i < base_rows; ++i) {
    if (!null_at(i)) { rows[i] = value_at<T>(i); }
  }
  return devcol::make_column<T>(rows);
}

/// The fixed-width kinds come first in devcol::any_column: 19 of them.
constexpr std::size_t fixed_width_kinds = 19;
static_assert(requires { typename devcol::any_column_kind_t<fixed_width_kinds - 1>::value_type; });

/// Calls f(std::type_identity<T>{}) for the column type whose devcol name is `name` ("int64",
/// "timestamp[ms]", ...); false when no type has that name.
template <class F>
bool with_type(std::string_view name, F&& f) {
  bool found = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using T = typename devcol::any_column_kind_t<I>::value_type;
          if (!found && devcol::type_name_v<T> == name) {
            found = true;
            f(std::type_identity<T>{});
          }
        }(),
        ...);
  }(std::make_index_sequence<fixed_width_kinds>{});
  return found;
}

/// Rows [first, last) of a table of all 19 types, each column named after its type.
devcol::table test_table(std::size_t first, std::size_t last) {
  devcol::table t;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using T = typename devcol::any_column_kind_t<I>::value_type;
          t.add(std::string(devcol::type_name_v<T>), base_column<T>().slice(first, last));
        }(),
        ...);
  }(std::make_index_sequence<fixed_width_kinds>{});
  return t;
}

/// The unscaled value of row i of the decimal test columns: fits precision 9 / 18 / 38.
template <class Rep>
Rep decimal_at(std::size_t i) {
  auto const k = static_cast<std::int64_t>(i) - 50;
  if constexpr (sizeof(Rep) == 4) {
    return static_cast<Rep>(k * 1234567);
  } else if constexpr (sizeof(Rep) == 8) {
    return static_cast<Rep>(k * 12345678901234LL);
  } else {
    devcol::int128_t ten30 = 1;
    for (int d = 0; d < 30; ++d) { ten30 *= 10; }
    return static_cast<Rep>(k) * ten30 + static_cast<Rep>(i * 7);
  }
}

template <class Rep>
devcol::decimal_column<Rep> base_decimal_column(int precision, int scale) {
  std::vector<std::optional<Rep>> rows(base_rows);
  for (std::size_t i = 0; i < base_rows; ++i) {
    if (!null_at(i)) { rows[i] = decimal_at<Rep>(i); }
  }
  return devcol::make_decimal_column<Rep>(rows, precision, scale);
}

devcol::fixed_size_binary_column<> base_binary_column(std::size_t width) {
  std::vector<std::optional<std::string>> rows(base_rows);
  for (std::size_t i = 0; i < base_rows; ++i) {
    if (null_at(i)) { continue; }
    std::string s(width, '\0');
    for (std::size_t b = 0; b < width; ++b) { s[b] = static_cast<char>((31 * i + 7 * b) & 0xFF); }
    rows[i] = s;
  }
  return devcol::make_fixed_size_binary_column(rows, width);
}

/// Calls f(std::type_identity<Rep>{}) for the decimal representation of `bits` (32, 64, 128).
template <class F>
void with_decimal_bits(int bits, F&& f) {
  if (bits == 32) {
    f(std::type_identity<std::int32_t>{});
  } else if (bits == 64) {
    f(std::type_identity<std::int64_t>{});
  } else {
    DEVCOL_EXPECTS(bits == 128, "devcol_peer: no decimal of ", bits, " bits");
    f(std::type_identity<devcol::int128_t>{});
  }
}

// --- JSON -----------------------------------------------------------------------------------------

template <class T>
void append_value(std::string& out, T const& v) {
  char buffer[64];
  std::to_chars_result r{};
  if constexpr (std::is_same_v<T, bool>) {
    out += v ? "true" : "false";
    return;
  } else if constexpr (std::is_floating_point_v<T>) {
    r = std::to_chars(buffer, buffer + sizeof buffer, static_cast<double>(v));  // shortest round trip
  } else if constexpr (std::is_integral_v<T>) {
    r = std::to_chars(buffer, buffer + sizeof buffer, +v);
  } else if constexpr (requires { v.time_since_epoch(); }) {
    r = std::to_chars(buffer, buffer + sizeof buffer, v.time_since_epoch().count());
  } else if constexpr (requires { v.count(); }) {
    r = std::to_chars(buffer, buffer + sizeof buffer, v.count());
  } else {  // halffloat, intervals: as devcol's host form prints them (a number, or {field: value, ...})
    std::ostringstream text;
    text << devcol::detail::widen(v);
    out += text.str();
    return;
  }
  out.append(buffer, r.ptr);
}

void append_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; }
    out += c;
  }
  out += '"';
}

/// {"type": ..., "size": ..., "null_count": ..., "offset": ..., "data": address, "values": [...]}
template <class T>
void append_column(std::string& out, devcol::column<T> const& col) {
  out += "{\"type\": ";
  append_string(out, devcol::type_name_v<T>);
  out += ", \"size\": " + std::to_string(col.size()) + ", \"null_count\": " + std::to_string(col.null_count()) +
         ", \"offset\": " + std::to_string(col.offset()) +
         ", \"data\": " + std::to_string(reinterpret_cast<std::uintptr_t>(col.data(devcol::access::read))) +
         ", \"values\": [";
  bool first = true;
  for (auto const& row : devcol::to_host(col)) {
    if (!first) { out += ", "; }
    first = false;
    if (row) {
      append_value(out, *row);
    } else {
      out += "null";
    }
  }
  out += "]}";
}

/// A host_value as JSON: null, a number, a bool, a string, a list as an array, a struct as an object.
void append_host_value(std::string& out, devcol::host_value const& v) {
  std::visit(
      [&](auto const& x) {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::monostate>) {
          out += "null";
        } else if constexpr (std::is_same_v<X, std::string>) {
          append_string(out, x);
        } else if constexpr (std::is_same_v<X, devcol::host_value::list>) {
          out += '[';
          for (std::size_t i = 0; i < x.size(); ++i) {
            if (i != 0) { out += ", "; }
            append_host_value(out, x[i]);
          }
          out += ']';
        } else if constexpr (std::is_same_v<X, devcol::host_value::fields>) {
          out += '{';
          for (std::size_t i = 0; i < x.size(); ++i) {
            if (i != 0) { out += ", "; }
            append_string(out, x[i].first);
            out += ": ";
            append_host_value(out, x[i].second);
          }
          out += '}';
        } else {
          append_value(out, x);
        }
      },
      v.value());
}

/// Any other kind: {"type": ..., "size": ..., "null_count": ..., "offset": ..., "values": [...]}.
template <class C>
void append_column(std::string& out, C const& col) {
  out += "{\"type\": ";
  append_string(out, devcol::type_name(col));
  out += ", \"size\": " + std::to_string(col.size()) + ", \"null_count\": " + std::to_string(col.null_count()) +
         ", \"offset\": " + std::to_string(col.offset()) + ", \"values\": ";
  append_host_value(out, devcol::host_value(devcol::host_value::list(devcol::to_host_values(col))));
  out += '}';
}

/// The fields every column kind describes: size, null count, offset and the address data() gives.
template <class Column>
void append_frame(std::string& out, Column const& col) {
  out += ", \"size\": " + std::to_string(col.size()) + ", \"null_count\": " + std::to_string(col.null_count()) +
         ", \"offset\": " + std::to_string(col.offset()) +
         ", \"data\": " + std::to_string(reinterpret_cast<std::uintptr_t>(col.data(devcol::access::read)));
}

/// `, "values": [...]}`: each host row written by `write`, null rows as null.
template <class Rows, class Write>
void append_rows(std::string& out, Rows const& rows, Write write) {
  out += ", \"values\": [";
  bool first = true;
  for (auto const& row : rows) {
    if (!first) { out += ", "; }
    first = false;
    if (row) {
      write(*row);
    } else {
      out += "null";
    }
  }
  out += "]}";
}

/// {"type": "decimal128(38, 2)", "precision": ..., "scale": ..., <frame>, "values": [unscaled integers]}
template <class Rep>
void append_decimal_column(std::string& out, devcol::decimal_column<Rep> const& col) {
  out += "{\"type\": ";
  append_string(out, col.type_name());
  out += ", \"precision\": " + std::to_string(col.precision()) + ", \"scale\": " + std::to_string(col.scale());
  append_frame(out, col);
  append_rows(out, devcol::to_host(col), [&](Rep v) { out += devcol::format_decimal(v, 0); });  // JSON integers of any size
}

/// {"type": "fixed_size_binary[N]", "width": N, <frame>, "values": ["hex", ...]} (data: the buffer's
/// first byte, row 0 being offset rows in, as Arrow's)
void append_binary_column(std::string& out, devcol::fixed_size_binary_column<> const& col) {
  constexpr char hex[] = "0123456789abcdef";
  out += "{\"type\": ";
  append_string(out, col.type_name());
  out += ", \"width\": " + std::to_string(col.width());
  append_frame(out, col);
  append_rows(out, devcol::to_host(col), [&](std::string const& bytes) {
    out += '"';
    for (char c : bytes) {
      auto const b = static_cast<unsigned char>(c);
      out += hex[b >> 4];
      out += hex[b & 0xF];
    }
    out += '"';
  });
}

/// {"num_rows": ..., "columns": [{"name": ..., <the column's fields>}, ...]}
void append_table(std::string& out, devcol::table const& t) {
  out += "{\"num_rows\": " + std::to_string(t.num_rows()) + ", \"columns\": [";
  for (std::size_t i = 0; i < t.num_columns(); ++i) {
    if (i != 0) { out += ", "; }
    out += "{\"name\": ";
    append_string(out, t.name(i));
    out += ", \"column\": ";
    devcol::visit(
        [&](auto const& col) {
          using C = std::decay_t<decltype(col)>;
          if constexpr (requires { col.scale(); }) {
            append_decimal_column(out, col);
          } else if constexpr (std::is_same_v<C, devcol::fixed_size_binary_column<>>) {
            append_binary_column(out, col);
          } else {
            append_column(out, col);
          }
        },
        t[i]);
    out += '}';
  }
  out += "]}";
}

// --- the C API's frame -----------------------------------------------------------------------------

int answer(std::string const& text, char* out, std::size_t out_size, int code) {
  if (out == nullptr || out_size == 0) { return 3; }
  if (text.size() >= out_size) {
    std::string const message = "the answer needs " + std::to_string(text.size() + 1) + " bytes, the buffer has " +
                                std::to_string(out_size);
    std::size_t const n = std::min(message.size(), out_size - 1);
    std::memcpy(out, message.data(), n);
    out[n] = '\0';
    return 3;
  }
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return code;
}

/// Runs `f` (which returns the answer) with the tracker as the default resource; exceptions become
/// codes and messages.
template <class F>
int guarded(char* out, std::size_t out_size, F&& f) noexcept {
  try {
    mr::scoped_default use_tracker{tracker_handle()};
    return answer(f(), out, out_size, 0);
  } catch (devcol::arrow_error const& e) {
    return answer(e.what(), out, out_size, 1);
  } catch (std::exception const& e) {
    return answer(e.what(), out, out_size, 2);
  } catch (...) {
    return answer("unknown exception", out, out_size, 2);
  }
}

/// The nested test columns, 100 rows with nulls at every level and empty lists: "list_struct"
/// (list<struct<a: string, b: int64>>), "list" (list<int64>), "large_list" (large_list<string>),
/// "struct" (struct<x: float64, y: bool>), "dictionary" (dictionary<values=string, indices=int32>).
devcol::any_column<> nested_column(std::string_view kind) {
  constexpr std::size_t rows = 100;
  std::vector<std::int32_t> offsets{0};
  std::vector<std::optional<std::string>> a;
  std::vector<std::optional<std::int64_t>> b;
  std::vector<bool> inner_valid;
  std::vector<bool> valid;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t k = 0; k < (i * 7) % 4; ++k) {
      std::size_t const e = a.size();
      a.push_back(e % 5 == 1 ? std::nullopt : std::optional<std::string>(std::string(e % 3, 'q') + std::to_string(e)));
      b.push_back(e % 6 == 4 ? std::nullopt : std::optional<std::int64_t>(static_cast<std::int64_t>(e * 3) - 20));
      inner_valid.push_back(e % 9 != 7);
    }
    offsets.push_back(static_cast<std::int32_t>(a.size()));
    valid.push_back(!null_at(i));
  }
  if (kind == "list_struct") {
    return devcol::make_list_column(
        offsets,
        devcol::make_struct_column({{"a", devcol::make_strings_column(a)}, {"b", devcol::make_column<std::int64_t>(b)}},
                                   inner_valid),
        valid);
  }
  if (kind == "list") { return devcol::make_list_column(offsets, devcol::make_column<std::int64_t>(b), valid); }
  if (kind == "large_list") {
    return devcol::make_large_list_column(std::vector<std::int64_t>(offsets.begin(), offsets.end()),
                                          devcol::make_strings_column(a), valid);
  }
  std::vector<std::optional<double>> x;
  std::vector<std::optional<bool>> y;
  std::vector<std::optional<std::int32_t>> indices;
  for (std::size_t i = 0; i < rows; ++i) {
    x.push_back(i % 4 == 1 ? std::nullopt : std::optional<double>(static_cast<double>(i) / 4));
    y.push_back(i % 5 == 2 ? std::nullopt : std::optional<bool>(i % 2 == 0));
    indices.push_back(null_at(i) ? std::nullopt : std::optional<std::int32_t>(static_cast<std::int32_t>(i % 3)));
  }
  if (kind == "struct") {
    return devcol::make_struct_column({{"x", devcol::make_column<double>(x)}, {"y", devcol::make_column<bool>(y)}},
                                      valid);
  }
  DEVCOL_EXPECTS(kind == "dictionary", "no nested test column named '", kind, "'");
  return devcol::make_dictionary_column(devcol::make_column<std::int32_t>(indices),
                                        devcol::make_strings_column({"red", std::nullopt, "blue"}));
}

/// {"type": ..., "size": ..., "null_count": ..., "offset": ..., "values": [...]} of any column.
void append_any(std::string& out, devcol::any_column<> const& col) {
  devcol::visit([&](auto const& c) { append_column(out, c); }, col);
}

}  // namespace

/// Allocations of this library still live (exports not yet released, imports' copies).
DEVCOL_PEER_API std::size_t devcol_peer_live_allocations() {
  return tracker_handle().target<mr::tracking<mr::host_aligned>>()->outstanding_count();
}

/// Exports rows [13, 83) of the test column of type `type` (a devcol type name) named `type`.
DEVCOL_PEER_API int devcol_peer_export_column(char const* type, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                              std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string_view const name = type != nullptr ? type : "";
    bool const found = with_type(name, [&]<class T>(std::type_identity<T>) {
      devcol::to_arrow(base_column<T>().slice(first_row, last_row), schema, array, {}, std::string(name));
    });
    DEVCOL_EXPECTS(found, "devcol_peer_export_column: no column type named '", name, "'");
    return std::string("{}");
  });
}

/// Exports rows [first, last) of the test table (19 columns, one per type, named after it).
DEVCOL_PEER_API int devcol_peer_export_table(std::size_t first, std::size_t last, ArrowSchema* schema,
                                             ArrowDeviceArray* array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    devcol::to_arrow(test_table(first, last), schema, array);
    return std::string("{}");
  });
}

/// Exports a stream of three batches of the test table: rows [0, 30), [37, 61) and [61, 100).
DEVCOL_PEER_API int devcol_peer_export_stream(ArrowDeviceArrayStream* stream, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    devcol::to_arrow_stream(std::vector<devcol::table>{test_table(0, 30), test_table(37, 61), test_table(61, 100)},
                            stream);
    return std::string("{}");
  });
}

/// Imports a column of type `type` (taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_column(char const* type, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                              std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    std::string_view const name = type != nullptr ? type : "";
    bool const found = with_type(name, [&]<class T>(std::type_identity<T>) {
      append_column(json, devcol::from_arrow<T>(schema, array));
    });
    DEVCOL_EXPECTS(found, "devcol_peer_import_column: no column type named '", name, "'");
    return json;
  });
}

/// Imports a record batch as a table (taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_table(ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                             std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    append_table(json, devcol::table_from_arrow(schema, array));
    return json;
  });
}

/// Reads a whole stream (taking it over) and describes its tables: {"batches": [<table>, ...]}.
DEVCOL_PEER_API int devcol_peer_import_stream(ArrowDeviceArrayStream* stream, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json = "{\"batches\": [";
    bool first = true;
    for (auto const& t : devcol::tables_from_arrow(stream)) {
      if (!first) { json += ", "; }
      first = false;
      append_table(json, t);
    }
    return json + "]}";
  });
}

/// Exports rows [13, 83) of the decimal test column of `bits` (32, 64, 128) as decimal(precision, scale).
DEVCOL_PEER_API int devcol_peer_export_decimal(int bits, int precision, int scale, ArrowSchema* schema,
                                               ArrowDeviceArray* array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    with_decimal_bits(bits, [&]<class Rep>(std::type_identity<Rep>) {
      devcol::to_arrow(base_decimal_column<Rep>(precision, scale).slice(first_row, last_row), schema, array, {}, "d");
    });
    return std::string("{}");
  });
}

/// Imports a decimal array of `bits` (taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_decimal(int bits, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                               std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    with_decimal_bits(bits, [&]<class Rep>(std::type_identity<Rep>) {
      append_decimal_column(json, devcol::from_arrow<devcol::decimal_column<Rep>>(schema, array));
    });
    return json;
  });
}

/// Exports rows [13, 83) of the fixed-size binary test column of `width` bytes.
DEVCOL_PEER_API int devcol_peer_export_fixed_size_binary(std::size_t width, ArrowSchema* schema,
                                                         ArrowDeviceArray* array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    devcol::to_arrow(base_binary_column(width).slice(first_row, last_row), schema, array, {}, "w");
    return std::string("{}");
  });
}

/// Imports a fixed-size binary array (taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_fixed_size_binary(ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                                         std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    append_binary_column(json, devcol::from_arrow<devcol::fixed_size_binary_column<>>(schema, array));
    return json;
  });
}

/// Exports rows [13, 83) of the nested test column `kind` (see nested_column) and describes what
/// it exported: {"type": ..., "values": [...]} (pyarrow's to_pylist of the import must match).
DEVCOL_PEER_API int devcol_peer_export_nested(char const* kind, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                              std::size_t out_size) {
  return guarded(out, out_size, [&] {
    auto const col = devcol::slice(nested_column(kind != nullptr ? kind : ""), first_row, last_row);
    std::string json;
    append_any(json, col);
    devcol::to_arrow(col, schema, array, {}, "nested");
    return json;
  });
}

/// Imports an array of any kind (any_from_arrow, taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_any(ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                           std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    append_any(json, devcol::any_from_arrow(schema, array));
    return json;
  });
}

// --- strings (utf8 "u" when `large` is 0, large utf8 "U" otherwise) ---------------------------------

namespace {

/// Row i of the strings test column: ("x" + i + "é") repeated i % 4 times (every fourth row empty,
/// two-byte UTF-8 in the others); null when null_at(i). The Python test builds the same.
std::string string_at(std::size_t i) {
  std::string one = "x" + std::to_string(i) + "\xC3\xA9";
  std::string s;
  for (std::size_t k = 0; k < i % 4; ++k) { s += one; }
  return s;
}

template <class O>
devcol::basic_strings_column<O> base_strings() {
  std::vector<std::optional<std::string>> rows(base_rows);
  for (std::size_t i = 0; i < base_rows; ++i) {
    if (!null_at(i)) { rows[i] = string_at(i); }
  }
  return devcol::make_strings_column<O>(rows);
}

/// {"type": ..., "size": ..., "null_count": ..., "offset": ..., "data": address, "values": [...]}
template <class O>
void append_strings(std::string& out, devcol::basic_strings_column<O> const& col) {
  out += sizeof(O) == 4 ? "{\"type\": \"string\"" : "{\"type\": \"large_string\"";
  out += ", \"size\": " + std::to_string(col.size()) + ", \"null_count\": " + std::to_string(col.null_count()) +
         ", \"offset\": " + std::to_string(col.offset()) +
         ", \"data\": " + std::to_string(reinterpret_cast<std::uintptr_t>(col.chars(devcol::access::read)));
  append_rows(out, devcol::to_host(col), [&](std::string const& row) { append_string(out, row); });
}

}  // namespace

/// Exports rows [first, last) of the 100-row strings test column, named "s".
DEVCOL_PEER_API int devcol_peer_export_strings(int large, std::size_t first, std::size_t last, ArrowSchema* schema,
                                               ArrowDeviceArray* array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    if (large != 0) {
      devcol::to_arrow(base_strings<std::int64_t>().slice(first, last), schema, array, {}, "s");
    } else {
      devcol::to_arrow(base_strings<std::int32_t>().slice(first, last), schema, array, {}, "s");
    }
    return std::string("{}");
  });
}

/// Imports a utf8 (or large utf8) array (taking both structs over) and describes it.
DEVCOL_PEER_API int devcol_peer_import_strings(int large, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                               std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string json;
    if (large != 0) {
      append_strings(json, devcol::from_arrow<devcol::large_strings_column>(schema, array));
    } else {
      append_strings(json, devcol::from_arrow<devcol::strings_column>(schema, array));
    }
    return json;
  });
}

// --- devcol's ops on pyarrow's columns, for test_pyarrow_float_semantics.py --------------------------
//
// Each takes over an array that pyarrow exported (float32, float64, int32 or int64, named by `type`;
// reduce and inclusive_scan take every integer type, for test_pyarrow_integer_overflow.py), runs one
// devcol op on it and gives the result back: a column as an Arrow export into
// `result_schema` / `result_array` (which pyarrow imports), scalars as JSON, where floats are JSON
// numbers, NaN, Infinity or -Infinity (Python's json reads all of them; a float always has a '.' or
// an exponent, so -0.0 keeps its sign).

namespace {

/// Calls f(std::type_identity<T>{}) for the value type named `name`.
template <class F>
void with_op_type(std::string_view name, F&& f) {
  if (name == "float32") {
    f(std::type_identity<float>{});
  } else if (name == "float64") {
    f(std::type_identity<double>{});
  } else if (name == "int32") {
    f(std::type_identity<std::int32_t>{});
  } else if (name == "int64") {
    f(std::type_identity<std::int64_t>{});
  } else {
    DEVCOL_FAIL("devcol_peer: no op test type named '", name, "'");
  }
}

/// Calls f(std::type_identity<T>{}) for the one of `Ts` whose devcol name (type_name_v) is `name`;
/// whether there was one.
template <class... Ts, class F>
bool with_type_named(std::string_view name, F&& f) {
  bool found = false;
  auto const one = [&]<class T>(std::type_identity<T> t) {
    if (!found && devcol::type_name_v<T> == name) {
      found = true;
      f(t);
    }
  };
  (one(std::type_identity<Ts>{}), ...);
  return found;
}

/// Calls f(std::type_identity<T>{}) for the value type named `name`: with_op_type's types and the
/// other integers, signed and unsigned, 8 to 64 bits. Only the reductions and scans take these (their
/// wrapping differs by width and signedness); sort, compare and the rest stay on with_op_type's four,
/// each type there being one more instantiation of every op in this one translation unit.
template <class F>
void with_number_type(std::string_view name, F&& f) {
  if (!with_type_named<std::int8_t, std::int16_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>(name, f)) {
    with_op_type(name, f);
  }
}

std::string_view text(char const* s) { return s != nullptr ? std::string_view(s) : std::string_view(); }

devcol::order direction_of(int descending) { return descending != 0 ? devcol::order::descending : devcol::order::ascending; }
devcol::null_order nulls_of(int nulls_first) { return nulls_first != 0 ? devcol::null_order::first : devcol::null_order::last; }

devcol::cmp cmp_named(std::string_view name) {
  constexpr std::pair<std::string_view, devcol::cmp> names[] = {
      {"equal", devcol::cmp::equal},           {"not_equal", devcol::cmp::not_equal},
      {"less", devcol::cmp::less},             {"less_equal", devcol::cmp::less_equal},
      {"greater", devcol::cmp::greater},       {"greater_equal", devcol::cmp::greater_equal}};
  for (auto const& [n, op] : names) {
    if (n == name) { return op; }
  }
  DEVCOL_FAIL("devcol_peer: no comparison named '", name, "'");
}

devcol::scan_op scan_named(std::string_view name) {
  if (name == "sum") { return devcol::scan_op::sum; }
  if (name == "min") { return devcol::scan_op::min; }
  DEVCOL_EXPECTS(name == "max", "devcol_peer: no scan named '", name, "'");
  return devcol::scan_op::max;
}

/// Releases the structs an entry point was given if it fails before from_arrow() took them over
/// (which marks them released), so that a refused call leaks nothing either.
struct release_unless_taken {
  ArrowSchema* schema;
  ArrowDeviceArray* array;
  release_unless_taken(ArrowSchema* s, ArrowDeviceArray* a) noexcept : schema(s), array(a) {}
  release_unless_taken(release_unless_taken const&) = delete;
  release_unless_taken& operator=(release_unless_taken const&) = delete;
  ~release_unless_taken() {
    if (array != nullptr && array->array.release != nullptr) { array->array.release(&array->array); }
    if (schema != nullptr && schema->release != nullptr) { schema->release(schema); }
  }
};

/// A number as JSON that Python reads back exactly (see the section's comment).
template <class V>
void append_number(std::string& out, V v) {
  if constexpr (std::is_floating_point_v<V>) {
    auto const d = static_cast<double>(v);
    if (d != d) {
      out += "NaN";
      return;
    }
    if (d == std::numeric_limits<double>::infinity() || d == -std::numeric_limits<double>::infinity()) {
      out += d > 0 ? "Infinity" : "-Infinity";
      return;
    }
    std::size_t const start = out.size();
    append_value(out, d);
    if (out.find_first_of(".e", start) == std::string::npos) { out += ".0"; }
  } else {
    append_value(out, v);
  }
}

template <class V>
void append_optional(std::string& out, std::optional<V> const& v) {
  if (v) {
    append_number(out, *v);
  } else {
    out += "null";
  }
}

}  // namespace

/// Reduces the array: {"count": n, "min": x, "max": x, "minmax": [lo, hi], "sum": x, "mean": x,
/// "product": x}, null where devcol finds no valid row.
DEVCOL_PEER_API int devcol_peer_reduce(char const* type, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                       std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    std::string json;
    with_number_type(text(type), [&]<class T>(std::type_identity<T>) {
      auto const col = devcol::from_arrow<T>(schema, array);
      json += "{\"count\": " + std::to_string(devcol::count(col)) + ", \"min\": ";
      append_optional(json, devcol::min(col));
      json += ", \"max\": ";
      append_optional(json, devcol::max(col));
      json += ", \"minmax\": ";
      if (auto const both = devcol::minmax(col)) {
        json += '[';
        append_number(json, both->first);
        json += ", ";
        append_number(json, both->second);
        json += ']';
      } else {
        json += "null";
      }
      json += ", \"sum\": ";
      append_optional(json, devcol::sum(col));
      json += ", \"mean\": ";
      append_optional(json, devcol::mean(col));
      json += ", \"product\": ";
      append_optional(json, devcol::product(col));
      json += '}';
    });
    return json;
  });
}

/// Exports the inclusive scan ("sum", "min" or "max") of the array.
DEVCOL_PEER_API int devcol_peer_inclusive_scan(char const* type, char const* op, ArrowSchema* schema,
                                               ArrowDeviceArray* array, ArrowSchema* result_schema,
                                               ArrowDeviceArray* result_array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    devcol::scan_op const scan = scan_named(text(op));
    with_number_type(text(type), [&]<class T>(std::type_identity<T>) {
      devcol::to_arrow(devcol::inclusive_scan(devcol::from_arrow<T>(schema, array), scan), result_schema,
                       result_array, {}, "scan");
    });
    return std::string("{}");
  });
}

/// Exports sort (`indices` 0) or argsort (`indices` 1) of the array, in the order and null placement given.
DEVCOL_PEER_API int devcol_peer_sort(char const* type, int indices, int descending, int nulls_first,
                                     ArrowSchema* schema, ArrowDeviceArray* array, ArrowSchema* result_schema,
                                     ArrowDeviceArray* result_array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      auto const col = devcol::from_arrow<T>(schema, array);
      if (indices != 0) {
        devcol::to_arrow(devcol::argsort(col, direction_of(descending), {}, nulls_of(nulls_first)), result_schema,
                         result_array, {}, "indices");
      } else {
        devcol::to_arrow(devcol::sort(col, direction_of(descending), {}, nulls_of(nulls_first)), result_schema,
                         result_array, {}, "sorted");
      }
    });
    return std::string("{}");
  });
}

/// Whether the array is sorted, for each order and null placement:
/// {"is_sorted": [ascending nulls last, ascending nulls first, descending nulls last, descending nulls first]}.
DEVCOL_PEER_API int devcol_peer_is_sorted(char const* type, ArrowSchema* schema, ArrowDeviceArray* array, char* out,
                                          std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    std::string json = "{\"is_sorted\": [";
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      auto const col = devcol::from_arrow<T>(schema, array);
      for (int k = 0; k < 4; ++k) {
        if (k != 0) { json += ", "; }
        json += devcol::is_sorted(col, direction_of(k / 2), {}, nulls_of(k % 2)) ? "true" : "false";
      }
    });
    return json + "]}";
  });
}

/// Exports `row cmp scalar` (the scalar converted to the array's type: the test passes values that
/// the type holds exactly).
DEVCOL_PEER_API int devcol_peer_compare_scalar(char const* type, char const* cmp, double scalar, ArrowSchema* schema,
                                               ArrowDeviceArray* array, ArrowSchema* result_schema,
                                               ArrowDeviceArray* result_array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    devcol::cmp const op = cmp_named(text(cmp));
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      devcol::to_arrow(devcol::compare(devcol::from_arrow<T>(schema, array), op, static_cast<T>(scalar)),
                       result_schema, result_array, {}, "compared");
    });
    return std::string("{}");
  });
}

/// Exports fill_null of the array with `scalar` (converted to the array's type, as compare_scalar's).
DEVCOL_PEER_API int devcol_peer_fill_null(char const* type, double scalar, ArrowSchema* schema, ArrowDeviceArray* array,
                                          ArrowSchema* result_schema, ArrowDeviceArray* result_array, char* out,
                                          std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      devcol::to_arrow(devcol::fill_null(devcol::from_arrow<T>(schema, array), static_cast<T>(scalar)), result_schema,
                       result_array, {}, "filled");
    });
    return std::string("{}");
  });
}

namespace {
/// Exports `op(values, selector)`: the array of the named type, selected by an array of `S` (both
/// structs of each taken over), as the result named `name`.
template <class S, class Op>
int exported_selection(char const* type, ArrowSchema* schema, ArrowDeviceArray* array, ArrowSchema* selector_schema,
                       ArrowDeviceArray* selector_array, ArrowSchema* result_schema, ArrowDeviceArray* result_array,
                       char const* name, char* out, std::size_t out_size, Op op) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    release_unless_taken const selector_input{selector_schema, selector_array};
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      auto const values = devcol::from_arrow<T>(schema, array);
      devcol::to_arrow(op(values, devcol::from_arrow<S>(selector_schema, selector_array)), result_schema, result_array,
                       {}, name);
    });
    return std::string("{}");
  });
}
}  // namespace

/// Exports gather of the array by int32 indices (a null index gives a null row; an index out of
/// bounds throws), taking all four structs over.
DEVCOL_PEER_API int devcol_peer_gather(char const* type, ArrowSchema* schema, ArrowDeviceArray* array,
                                       ArrowSchema* indices_schema, ArrowDeviceArray* indices_array,
                                       ArrowSchema* result_schema, ArrowDeviceArray* result_array, char* out,
                                       std::size_t out_size) {
  return exported_selection<std::int32_t>(type, schema, array, indices_schema, indices_array, result_schema,
                                          result_array, "gathered", out, out_size,
                                          [](auto const& values, auto const& indices) { return devcol::gather(values, indices); });
}

/// Exports filter of the array by a bool array of the same length (a null flag drops the row),
/// taking all four structs over.
DEVCOL_PEER_API int devcol_peer_filter(char const* type, ArrowSchema* schema, ArrowDeviceArray* array,
                                       ArrowSchema* flags_schema, ArrowDeviceArray* flags_array,
                                       ArrowSchema* result_schema, ArrowDeviceArray* result_array, char* out,
                                       std::size_t out_size) {
  return exported_selection<bool>(type, schema, array, flags_schema, flags_array, result_schema, result_array, "kept",
                                  out, out_size,
                                  [](auto const& values, auto const& keep) { return devcol::filter(values, keep); });
}

/// Exports `a_row cmp b_row` of two arrays of the same type and length (taking all four structs over).
DEVCOL_PEER_API int devcol_peer_compare_columns(char const* type, char const* cmp, ArrowSchema* schema_a,
                                                ArrowDeviceArray* array_a, ArrowSchema* schema_b,
                                                ArrowDeviceArray* array_b, ArrowSchema* result_schema,
                                                ArrowDeviceArray* result_array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input_a{schema_a, array_a};
    release_unless_taken const input_b{schema_b, array_b};
    devcol::cmp const op = cmp_named(text(cmp));
    with_op_type(text(type), [&]<class T>(std::type_identity<T>) {
      auto const a = devcol::from_arrow<T>(schema_a, array_a);
      devcol::to_arrow(devcol::compare(a, op, devcol::from_arrow<T>(schema_b, array_b)), result_schema, result_array,
                       {}, "compared");
    });
    return std::string("{}");
  });
}

// --- schema fidelity and the newer fixed-width kinds: a record batch through devcol and back ----

namespace {

/// Whether `T` is a date or time of day: the new kinds with an order (compare, sort).
template <class T>
constexpr bool dated = std::is_same_v<T, devcol::date32> || std::is_same_v<T, devcol::date64> ||
                       std::is_same_v<T, devcol::time32_s> || std::is_same_v<T, devcol::time32_ms> ||
                       std::is_same_v<T, devcol::time64_us> || std::is_same_v<T, devcol::time64_ns>;

/// Row i of the gather indices over n rows: (7 i + 3) mod n, null when i % 5 == 4. The Python test
/// builds the same.
devcol::column<std::int32_t> gather_indices(std::size_t n) {
  std::vector<std::optional<std::int32_t>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 5 != 4) { rows[i] = static_cast<std::int32_t>((7 * i + 3) % n); }
  }
  return devcol::make_column<std::int32_t>(rows);
}

/// Row i of the filter flags: kept unless i % 3 == 1, null (dropped) when i % 4 == 2.
devcol::column<bool> filter_flags(std::size_t n) {
  std::vector<std::optional<bool>> rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 4 != 2) { rows[i] = i % 3 != 1; }
  }
  return devcol::make_column<bool>(rows);
}

/// Whether `C` is a newer kind with an order (compare, sort): a date or time of day, binary or
/// decimal256.
template <class C>
constexpr bool newer_ordered() {
  if constexpr (devcol::detail::is_plain_column<C>) {
    return dated<typename C::value_type>;
  } else if constexpr (devcol::kind_of<C> == devcol::kind::decimal) {
    return std::is_same_v<typename C::rep_type, devcol::int256_t>;
  } else {
    return devcol::kind_of<C> == devcol::kind::binary;
  }
}

/// `op` on one column: none, gather, filter, concatenate (of its first third and the rest),
/// is_null; sort and compare (with itself reversed) on dates, times, binary and decimal256 (nothing
/// for other kinds).
std::optional<devcol::any_column<>> apply_op(devcol::any_column<> const& col, std::string_view op) {
  std::size_t const n = devcol::size(col);
  if (op == "none") { return col; }
  if (op == "gather") { return devcol::gather(col, gather_indices(n), {}); }
  if (op == "filter") { return devcol::filter(col, filter_flags(n)); }
  if (op == "concatenate") {
    return devcol::concatenate(std::vector{devcol::slice(col, 0, n / 3), devcol::slice(col, n / 3, n)});
  }
  if (op == "is_null") { return devcol::any_column<>{devcol::is_null(col)}; }
  DEVCOL_EXPECTS(op == "sort" || op == "compare", "devcol_peer_round_trip: no op named '", op, "'");
  return devcol::visit(
      [&](auto const& c) -> std::optional<devcol::any_column<>> {
        using C = std::remove_cvref_t<decltype(c)>;
        if constexpr (newer_ordered<C>()) {
          if (op == "sort") { return devcol::any_column<>{devcol::sort(c)}; }
          std::vector<std::int32_t> reversed(n);
          for (std::size_t i = 0; i < n; ++i) { reversed[i] = static_cast<std::int32_t>(n - 1 - i); }
          auto const flipped = devcol::gather(c, devcol::make_column<std::int32_t>(reversed));
          return devcol::any_column<>{devcol::compare(c, devcol::cmp::less, flipped)};
        }
        return std::nullopt;
      },
      col);
}

}  // namespace

/// Imports a record batch as a table (each column's field_info and the schema's metadata kept),
/// applies `op` to every column (see apply_op; a column an op leaves out is dropped), keeps each
/// column's field_info (none for is_null and compare, whose results are bool), and exports the
/// result as a record batch.
DEVCOL_PEER_API int devcol_peer_round_trip(char const* op, ArrowSchema* schema, ArrowDeviceArray* array,
                                           ArrowSchema* out_schema, ArrowDeviceArray* out_array, char* out,
                                           std::size_t out_size) {
  return guarded(out, out_size, [&] {
    std::string_view const name = op != nullptr ? op : "";
    auto const in = devcol::table_from_arrow(schema, array);
    devcol::table result;
    result.set_metadata(in.metadata());
    bool const keeps_type = name != "is_null" && name != "compare";
    for (std::size_t i = 0; i < in.num_columns(); ++i) {
      auto col = apply_op(in[i], name);
      if (!col) { continue; }
      result.add_any(in.name(i), std::move(*col), keeps_type ? in.field(i) : devcol::field_info{});
    }
    devcol::to_arrow(result, out_schema, out_array);
    return std::string("{}");
  });
}

/// Opens a stream (taking it over) without reading a batch, and exports the reader's schema() (a
/// table of no rows) as a schema.
DEVCOL_PEER_API int devcol_peer_stream_schema(ArrowDeviceArrayStream* stream, ArrowSchema* out_schema, char* out,
                                              std::size_t out_size) {
  return guarded(out, out_size, [&] {
    devcol::arrow_stream_reader<> reader(stream);
    auto const empty = reader.schema();
    DEVCOL_EXPECTS(empty.num_rows() == 0, "devcol_peer_stream_schema: the schema has ", empty.num_rows(), " rows");
    devcol::to_arrow_schema(empty, out_schema);
    return std::string("{}");
  });
}

// --- casts between float16 and numbers, for test_pyarrow_float16_casts.py -------------------------

/// Exports devcol::cast of the array between float16 and the number type named `other` (devcol's
/// name: with_number_type's types): from float16 to it when `to_other` is non-zero, else from it to
/// float16.
DEVCOL_PEER_API int devcol_peer_cast_float16(int to_other, char const* other, ArrowSchema* schema,
                                             ArrowDeviceArray* array, ArrowSchema* result_schema,
                                             ArrowDeviceArray* result_array, char* out, std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    with_number_type(text(other), [&]<class T>(std::type_identity<T>) {
      if (to_other != 0) {
        devcol::to_arrow(devcol::cast<T>(devcol::from_arrow<devcol::float16>(schema, array)), result_schema,
                         result_array, {}, "cast");
      } else {
        devcol::to_arrow(devcol::cast<devcol::float16>(devcol::from_arrow<T>(schema, array)), result_schema,
                         result_array, {}, "cast");
      }
    });
    return std::string("{}");
  });
}

// --- casts between time units, for test_pyarrow_time_casts.py ---------------------------------------

namespace {

/// Calls f(std::type_identity<T>{}) for the time type named `name` (devcol's name, which is
/// pyarrow's: "timestamp[ms]", "duration[s]", "date32[day]", "time64[ns]", ...).
template <class F>
void with_time_type(std::string_view name, F&& f) {
  bool const found =
      with_type_named<devcol::timestamp_s, devcol::timestamp_ms, devcol::timestamp_us, devcol::timestamp_ns,
                      devcol::duration_s, devcol::duration_ms, devcol::duration_us, devcol::duration_ns, devcol::date32,
                      devcol::date64, devcol::time32_s, devcol::time32_ms, devcol::time64_us, devcol::time64_ns>(name, f);
  DEVCOL_EXPECTS(found, "devcol_peer: no time type named '", name, "'");
}

}  // namespace

/// Exports devcol::cast of the array from the time type `from` to `to` (two distinct units of one
/// kind that devcol casts between; any other pair is an error) and answers {"refused": null}; where
/// cast() refuses a row (devcol::logic_error), exports nothing and answers {"refused": its message},
/// so that the test tells that refusal from any other failure.
DEVCOL_PEER_API int devcol_peer_cast(char const* from, char const* to, ArrowSchema* schema, ArrowDeviceArray* array,
                                     ArrowSchema* result_schema, ArrowDeviceArray* result_array, char* out,
                                     std::size_t out_size) {
  return guarded(out, out_size, [&] {
    release_unless_taken const input{schema, array};
    std::string json = "{\"refused\": ";
    with_time_type(text(from), [&]<class From>(std::type_identity<From>) {
      with_time_type(text(to), [&]<class To>(std::type_identity<To>) {
        if constexpr (!std::is_same_v<From, To> && requires(devcol::column<From> c) { devcol::cast<To>(c); }) {
          auto const col = devcol::from_arrow<From>(schema, array);
          std::optional<devcol::column<To>> result;
          try {
            result = devcol::cast<To>(col);
          } catch (devcol::logic_error const& e) {
            append_string(json, e.what());
            return;
          }
          devcol::to_arrow(*result, result_schema, result_array, {}, "cast");
          json += "null";
        } else {
          DEVCOL_FAIL("devcol_peer_cast: devcol does not cast ", devcol::type_name_v<From>, " to ",
                      devcol::type_name_v<To>);
        }
      });
    });
    return json + '}';
  });
}
