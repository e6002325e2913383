/**
 * @file arrow_table.hpp
 * @brief The Arrow exchange of tables and type-erased columns (`to_arrow`, `to_arrow_schema`,
 * `table_from_arrow`, `any_from_arrow`), for a file that needs nothing else of the interop layer.
 *
 * Header-only (the default), this is `to_arrow.hpp` and `from_arrow.hpp`: every overload, every
 * policy. In the precompiled mode (`DEVCOL_PRECOMPILED=1`, core/config.hpp) it declares the seven
 * functions below for `default_policy` and includes neither: their bodies, every kind's importer
 * and exporter among them, are compiled once in `devcol::precompiled`, so a consumer's file does not
 * parse them (0.4 times a Thrust-only file's compile, in the build-time benchmark's table/Arrow
 * program). There, a table or column of another policy, or a typed column's own overloads, need
 * `to_arrow.hpp` or `from_arrow.hpp`; with them included, a call on a default-policy table or
 * `any_column` still takes the library's function (a non-template wins over the template).
 */
#pragma once

#include <devcol/core/config.hpp>

#if DEVCOL_USE_PRECOMPILED
#  include <devcol/buffer/policy.hpp>
#  include <devcol/column/any_column.hpp>
#  include <devcol/column/field_info.hpp>
#  include <devcol/column/table.hpp>
#  include <devcol/core/stream_ref.hpp>
#  include <devcol/interop/arrow_abi.hpp>

#  include <string>
#endif
#if !DEVCOL_USE_PRECOMPILED || defined(DEVCOL_PRECOMPILED_INSTANTIATE)
#  include <devcol/interop/from_arrow.hpp>
#  include <devcol/interop/to_arrow.hpp>

#  include <utility>
#endif

#if DEVCOL_USE_PRECOMPILED
DEVCOL_NAMESPACE_BEGIN

/// @brief to_arrow(basic_table) of to_arrow.hpp for a default-policy table, compiled in the
/// library: a struct array, zero-copy but for bool and exposed columns; as costly and throwing as
/// the template.
/// @param tbl the table to export
/// @param schema where the struct schema is written (not null)
/// @param array where the struct device array is written (not null)
/// @param stream the stream the export's copies run on and its `sync_event` is recorded on
void to_arrow(basic_table<default_policy> const& tbl, ArrowSchema* schema, ArrowDeviceArray* array,
              stream_ref stream = {});

/// @brief to_arrow_schema(basic_table) of to_arrow.hpp, compiled in the library: host work only.
/// @param tbl the table whose schema is exported
/// @param schema where the struct schema is written (not null)
void to_arrow_schema(basic_table<default_policy> const& tbl, ArrowSchema* schema);

/// @brief to_arrow(col, schema, array, stream, name) of to_arrow.hpp for an `any_column`, compiled
/// in the library: the kind it holds, zero-copy but for bool and exposed columns.
/// @param col the column to export
/// @param schema where the schema is written (not null)
/// @param array where the device array is written (not null)
/// @param stream the stream the export's copies run on and its `sync_event` is recorded on
/// @param name the field name the schema carries
void to_arrow(any_column<default_policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array,
              stream_ref stream = {}, std::string name = {});

/// @brief to_arrow(col, schema, array, stream, info) of to_arrow.hpp for an `any_column`, compiled
/// in the library: the schema says what `info` says beyond the column's type.
/// @param col the column to export
/// @param schema where the schema is written (not null)
/// @param array where the device array is written (not null)
/// @param stream the stream the export is ordered on
/// @param info the field's description, as any_from_arrow() or a table's field() gives it
void to_arrow(any_column<default_policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream,
              field_info const& info);

/// @brief to_arrow_schema(col, schema, name) of to_arrow.hpp for an `any_column`, compiled in the
/// library: host work only.
/// @param col the column whose schema is exported
/// @param schema where the schema is written (not null)
/// @param name the field name the schema carries
void to_arrow_schema(any_column<default_policy> const& col, ArrowSchema* schema, std::string name = {});

/// @brief table_from_arrow() of from_arrow.hpp into a default-policy table, compiled in the
/// library: takes ownership of `array`, checks the whole tree before adopting anything, releases
/// the input on every failure (devcol::arrow_error naming the field and value).
/// @param schema the producer's schema, released before this returns
/// @param array the producer's device array (a struct array), moved in (marked released)
/// @param stream the stream the import's copies and checks run on
[[nodiscard]] basic_table<default_policy> table_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array,
                                                           stream_ref stream = {});

/// @brief any_from_arrow() of from_arrow.hpp into a default-policy `any_column`, compiled in the
/// library: the kind the format names, checked and owned as table_from_arrow() does.
/// @param schema the producer's schema, released before this returns
/// @param array the producer's device array, moved in (marked released)
/// @param stream the stream the import's copies and checks run on
/// @param info where to write, on success only, what the schema says beyond the column's type
[[nodiscard]] any_column<default_policy> any_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array,
                                                        stream_ref stream = {}, field_info* info = nullptr);

#  if defined(DEVCOL_PRECOMPILED_INSTANTIATE)
// The library's definitions: each the template's instantiation that to_arrow.hpp and
// from_arrow.hpp already hold.
void to_arrow(basic_table<default_policy> const& tbl, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream) {
  to_arrow<default_policy>(tbl, schema, array, stream);
}
void to_arrow_schema(basic_table<default_policy> const& tbl, ArrowSchema* schema) {
  to_arrow_schema<default_policy>(tbl, schema);
}
void to_arrow(any_column<default_policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream,
              std::string name) {
  to_arrow<any_column<default_policy>>(col, schema, array, stream, std::move(name));
}
void to_arrow(any_column<default_policy> const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream,
              field_info const& info) {
  to_arrow<any_column<default_policy>>(col, schema, array, stream, info);
}
void to_arrow_schema(any_column<default_policy> const& col, ArrowSchema* schema, std::string name) {
  to_arrow_schema<any_column<default_policy>>(col, schema, std::move(name));
}
basic_table<default_policy> table_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream) {
  return table_from_arrow<default_policy>(schema, array, stream);
}
any_column<default_policy> any_from_arrow(ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream,
                                          field_info* info) {
  return any_from_arrow<default_policy>(schema, array, stream, info);
}
#  endif

DEVCOL_NAMESPACE_END
#endif
