/**
 * @file kinds.hpp
 * @brief Arrow interop over every column kind: the per-kind headers under `kinds/` (one per
 * kind: its schema, checks, import and export together), and the dispatch that routes a column of
 * any kind to them. Export dispatches on the column's kind (`devcol::visit`: a kind without an
 * exporter is a compile error); checks and imports dispatch on the format string the producer's
 * schema names, which is only known at run time.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/buffer/spill_state.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds/binary_view.hpp>
#include <devcol/interop/detail/kinds/decimal.hpp>
#include <devcol/interop/detail/kinds/dictionary.hpp>
#include <devcol/interop/detail/kinds/fixed_size_binary.hpp>
#include <devcol/interop/detail/kinds/fixed_size_list.hpp>
#include <devcol/interop/detail/kinds/fixed_width.hpp>
#include <devcol/interop/detail/kinds/list.hpp>
#include <devcol/interop/detail/kinds/list_view.hpp>
#include <devcol/interop/detail/kinds/null.hpp>
#include <devcol/interop/detail/kinds/run_end_encoded.hpp>
#include <devcol/interop/detail/kinds/strings.hpp>
#include <devcol/interop/detail/kinds/struct.hpp>
#include <devcol/interop/detail/kinds/union.hpp>
#include <devcol/interop/detail/kinds_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

// ---- export ----------------------------------------------------------------------------------

/// leaf_format_v of each kind `any_column<Policy>` may hold, indexed as its index().
template <buffer_policy Policy>
inline constexpr auto leaf_formats = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<std::string_view, sizeof...(I)>{leaf_format_v<any_column_kind_t<I, Policy>>...};
}(std::make_index_sequence<any_column_kind_count<Policy>>{});

/// The schema subtree of a column of any kind, as its kind's schema_of builds it: a leaf kind's
/// from the table of formats, the others' through the dispatch.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(any_column<Policy> const& col, std::string name) {
  if (std::string_view const format = leaf_formats<Policy>[col.index()]; !format.empty()) {
    return leaf_schema(format, std::move(name));
  }
  return devcol::visit(
      [&]<class K>(K const& c) -> std::unique_ptr<schema_node> {
        if constexpr (leaf_format_v<K>.empty()) {
          return schema_of(c, std::move(name));
        } else {
          return nullptr;  // answered from the table above
        }
      },
      col);
}

/// The policy of a column kind, any_column included.
template <class K>
struct policy_of {
  using type = typename K::policy;
};
template <buffer_policy Policy>
struct policy_of<any_column<Policy>> {
  using type = Policy;
};

/**
 * export_node(col), whose node holds every spillable owner the export reads or makes on the device
 * until the consumer releases that node (rule 20: an operation keeps what it reads on the device
 * for as long as it runs, and exported memory must not move while a consumer may read it). Each
 * node pins its own subtree, so a child the consumer moves out keeps its memory in place after the
 * parent is released. Nothing for a policy that does not spill.
 */
template <class K>
std::unique_ptr<array_node> pinned_export_node(K const& col, stream_ref stream) {
  spill_capture<policy_of<K>::type::spill::enabled> capture;
  auto node = export_node(col, stream);
  node->pins = capture.take();
  return node;
}

/// The array subtree of a column of any kind, as its kind's export_node builds it.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(any_column<Policy> const& col, stream_ref stream) {
  return devcol::visit([&](auto const& c) -> std::unique_ptr<array_node> { return export_node(c, stream); }, col);
}

/// Where any column's memory lives (CPU on the host backend), as its kind's device_of says.
template <buffer_policy Policy>
arrow_device device_of(any_column<Policy> const& col) {
  return devcol::visit([](auto const& c) -> arrow_device { return device_of(c); }, col);
}

/// Whether to_arrow exports a `C`: an `any_column`, or a column of any kind (of a fixed-width
/// type with an Arrow format of its own, for `column<T>`).
template <class C>
consteval bool exportable_kind() {
  if constexpr (is_any_column<C>::value) {
    return true;
  } else if constexpr (requires { kind_traits<C>::value; }) {
    if constexpr (kind_of<C> == kind::fixed_width) {
      return arrow_fixed_width<typename C::value_type>;
    } else {
      return true;
    }
  } else {
    return false;
  }
}

/// Where the export of `col` lives, given its array node: a strings or binary column's node says
/// (its offsets are never NULL, even for an empty column), any other column's memory does.
template <class C>
arrow_device exported_device(C const& col, array_node const& node) {
  if constexpr (of_kind<C, kind::strings> || of_kind<C, kind::binary>) {
    return device_of_node(node);
  } else {
    return device_of(col);
  }
}

/// Exports `col` (an exportable kind, or any_column) into `schema` and `array`, written only on
/// success: the body of to_arrow() for every column kind.
/// With `info`, the schema says what it does beyond the column's type (apply_field_info).
template <class C>
void export_kind(C const& col, ArrowSchema* schema, ArrowDeviceArray* array, stream_ref stream, std::string name,
                 field_info const* info = nullptr) {
  expect_outputs(schema, array, "to_arrow");
  auto schema_tree = schema_of(col, std::move(name));
  ArrowSchema described{};
  if (info != nullptr) {  // applied to a schema of our own first, so that a throw leaves the caller's untouched
    publish(std::move(schema_tree), ARROW_FLAG_NULLABLE, &described);
    try {
      apply_field_info(described, *info, false);
    } catch (...) {
      described.release(&described);
      throw;
    }
  }
  std::unique_ptr<array_node> node;
  try {
    node = pinned_export_node(col, stream);
  } catch (...) {
    release_if_live(described);
    throw;
  }
  arrow_device const device = exported_device(col, *node);
  record_ready(*node, stream);
  publish_device_array(std::move(schema_tree), ARROW_FLAG_NULLABLE, std::move(node), device, schema, array);
  if (info != nullptr) { *schema = described; }  // moved: the struct is the caller's now
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/**
 * Checks an array (its tree's structure already checked against `field` by check_array) as the
 * kind its format names, recursively: buffer and child counts, NULL buffers, child lengths,
 * dictionary presence. Never reads a buffer.
 * @throws devcol::arrow_error naming the field and value, or a format devcol does not import
 */
template <int Deferred>
void check_any(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  if (!field.dictionary.empty()) { return check_dictionary(array, field, path); }
  if (field.format == "+l" || field.format == "+L" || field.format == "+m") { return check_list(array, field, path); }
  if (field.format == "+s") { return check_struct_array(array, field, path); }
  if (field.format.starts_with("+w:")) { return check_fixed_size_list(array, field, path); }
  if (field.format == "+r") { return check_run_end_encoded(array, field, path); }
  if (field.format == "+vl" || field.format == "+vL") { return check_list_view(array, field, path); }
  if (field.format == "u") { return check_strings<std::int32_t>(array, field, path); }
  if (field.format == "U") { return check_strings<std::int64_t>(array, field, path); }
  if (field.format == "z") { return check_strings<std::int32_t, encoding::binary>(array, field, path); }
  if (field.format == "Z") { return check_strings<std::int64_t, encoding::binary>(array, field, path); }
  if (field.format.starts_with("d:")) {
    return visit_decimal_format(field.format, path, [&]<class Rep>(std::type_identity<Rep>, decimal_format const&) {
      check_decimal<Rep>(array, field, path);
    });
  }
  if (field.format.starts_with("w:")) { return check_fixed_size_binary(array, field, path); }
  if (field.format == "n") { return check_null(array, field, path); }
  if (field.format == "vu") { return check_binary_view<encoding::utf8>(array, field, path); }
  if (field.format == "vz") { return check_binary_view<encoding::binary>(array, field, path); }
  if (is_union_format(field.format)) { return check_union(array, field, path); }
  visit_format(field.format, path, [&]<class T>(std::type_identity<T>) { check_fixed_width<T>(array, field, path); });
}

/// Checks that a schema (already read) names only types devcol imports, recursively.
template <int = 0>
void check_schema_any(arrow_field const& field, std::string const& path) {
  if (!field.dictionary.empty()) {
    visit_index_format(field.format, path, [](auto) {});
    return check_schema_any(field.dictionary.front(), path + ".dictionary");
  }
  if (field.format.starts_with("+w:")) { (void)parse_fixed_size_list_format(field.format, path); }
  if (is_union_format(field.format)) {
    auto const codes = parse_union_format(field.format, path).second;
    DEVCOL_ARROW_EXPECTS(field.children.size() == codes.size(), path, ".n_children is ", field.children.size(),
                         ", the union '", field.format, "' declares ", codes.size(), " type codes");
    for (std::size_t i = 0; i < field.children.size(); ++i) {
      check_schema_any(field.children[i], path + ".children[" + std::to_string(i) + "]");
    }
    return;
  }
  if (field.format == "+r") {
    DEVCOL_ARROW_EXPECTS(field.children.size() == 2, path, ".n_children is ", field.children.size(),
                         ", a run-end encoded type has 2 (run_ends, values)");
  }
  if (field.format == "+l" || field.format == "+L" || field.format == "+s" || field.format.starts_with("+w:") ||
      field.format == "+r" || field.format == "+m" || field.format == "+vl" || field.format == "+vL") {
    DEVCOL_ARROW_EXPECTS(field.format == "+s" || field.format == "+r" || field.children.size() == 1, path,
                         ".n_children is ", field.children.size(), ", a list has 1");
    if (field.format == "+m") { expect_map_entries(field.children[0], path + ".children[0]"); }
    for (std::size_t i = 0; i < field.children.size(); ++i) {
      check_schema_any(field.children[i], path + ".children[" + std::to_string(i) + "]");
    }
    return;
  }
  if (field.format == "u" || field.format == "U" || field.format == "z" || field.format == "Z" ||
      field.format == "n" || field.format.starts_with("w:") || field.format == "vu" || field.format == "vz") {
    return;
  }
  if (field.format.starts_with("d:")) {
    (void)parse_decimal_format(field.format, path);
    return;
  }
  visit_format(field.format, path, [](auto) {});
}

// ---- import ----------------------------------------------------------------------------------

/**
 * Imports a checked array (check_any) as the kind its format names, recursively, over the
 * producer's buffers (`keep` holds them). List offsets are content-checked (one kernel and one
 * synchronisation per list level), dictionary indices too (one pass each).
 * @throws devcol::arrow_error naming the path and the bad value
 */
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field, std::shared_ptr<void const> const& keep,
                              stream_ref stream, std::string const& path) {
  if (!field.dictionary.empty()) { return import_dictionary<Policy>(array, field, keep, stream, path); }
  if (field.format == "+l") { return import_list<std::int32_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "+L") { return import_list<std::int64_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "+m") { return import_list<std::int32_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "+s") { return import_struct_column<Policy>(array, field, keep, stream, path); }
  if (field.format.starts_with("+w:")) { return import_fixed_size_list<Policy>(array, field, keep, stream, path); }
  if (field.format == "+r") { return import_run_end_encoded<Policy>(array, field, keep, stream, path); }
  if (field.format == "+vl") { return import_list_view<std::int32_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "+vL") { return import_list_view<std::int64_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "u") { return import_strings<std::int32_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "U") { return import_strings<std::int64_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "z") {
    return import_strings<std::int32_t, Policy, encoding::binary>(array, field, keep, stream, path);
  }
  if (field.format == "Z") {
    return import_strings<std::int64_t, Policy, encoding::binary>(array, field, keep, stream, path);
  }
  if (field.format.starts_with("d:")) {
    return visit_decimal_format(field.format, path, [&]<class Rep>(std::type_identity<Rep>, decimal_format const&) {
      return any_column<Policy>(import_decimal<Rep, Policy>(array, field, keep, stream));
    });
  }
  if (field.format.starts_with("w:")) { return import_fixed_size_binary<Policy>(array, field, keep, stream); }
  if (field.format == "n") { return import_null<Policy>(array); }
  if (field.format == "vu") { return import_binary_view<Policy, encoding::utf8>(array, field, keep, stream, path); }
  if (field.format == "vz") { return import_binary_view<Policy, encoding::binary>(array, field, keep, stream, path); }
  if (is_union_format(field.format)) { return import_union<Policy>(array, field, keep, stream, path); }
  any_column<Policy> out;
  visit_format(field.format, path, [&]<class T>(std::type_identity<T>) {
    out = import_column<T, Policy>(array, static_cast<std::size_t>(array.offset), static_cast<std::size_t>(array.length),
                                   array.null_count, keep, stream);
  });
  return out;
}
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field, std::shared_ptr<void const> const& keep,
                              stream_ref stream) {
  return import_any<Policy>(array, field, keep, stream, "array");
}


/**
 * How `from_arrow<K>` imports a column kind `K` other than a fixed-width `column<T>` (which has its
 * own from_arrow): `check` (structure only, reads no buffer) and `import` route `K`'s kind to the
 * functions its header under kinds/ gives, the nested kinds' after a check that the format names
 * `K`. Disabled for every other type.
 */
template <class K>
struct arrow_importer {
  static constexpr bool enabled = false;
};
template <class K>
  requires(requires { kind_traits<K>::value; } && kind_of<K> != kind::fixed_width)
struct arrow_importer<K> {
  static constexpr bool enabled = true;
  static void check(ArrowArray const& array, arrow_field const& field, std::string const& path) {
    if constexpr (kind_of<K> == kind::strings || kind_of<K> == kind::binary) {
      check_strings<typename K::offset_type, K::bytes_encoding>(array, field, path);
    } else if constexpr (kind_of<K> == kind::decimal) {
      check_decimal<typename K::rep_type>(array, field, path);
    } else if constexpr (kind_of<K> == kind::fixed_size_binary) {
      check_fixed_size_binary(array, field, path);
    } else if constexpr (kind_of<K> == kind::null) {
      check_null(array, field, path);
    } else if constexpr (kind_of<K> == kind::string_view || kind_of<K> == kind::binary_view) {
      check_binary_view<K::bytes_encoding>(array, field, path);
    } else {
      if constexpr (kind_of<K> == kind::list) {
        expect_list_format<typename K::offset_type>(field, path);
      } else if constexpr (kind_of<K> == kind::fixed_size_list) {
        (void)parse_fixed_size_list_format(field.format, path);
      } else if constexpr (kind_of<K> == kind::run_end_encoded) {
        DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && field.format == "+r", path, ".format '", field.format,
                             "' is not run-end encoded ('+r')");
      } else if constexpr (kind_of<K> == kind::list_view) {
        expect_list_view_format<typename K::offset_type>(field, path);
      } else if constexpr (kind_of<K> == kind::union_type) {
        DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && is_union_format(field.format), path, ".format '", field.format,
                             "' is not a union ('+us:' or '+ud:')");
      } else if constexpr (kind_of<K> == kind::structure) {
        expect_struct_format(field, path);
      } else {
        static_assert(kind_of<K> == kind::dictionary, "arrow_importer: a kind without a check");
        expect_dictionary_format(field, path);
      }
      check_any<0>(array, field, path);
    }
  }
  static K import(ArrowArray const& array, arrow_field const& field, std::shared_ptr<void const> const& keep,
                  stream_ref stream) {
    using Policy = typename K::policy;
    if constexpr (kind_of<K> == kind::strings || kind_of<K> == kind::binary) {
      return import_strings<typename K::offset_type, Policy, K::bytes_encoding>(array, field, keep, stream);
    } else if constexpr (kind_of<K> == kind::decimal) {
      return import_decimal<typename K::rep_type, Policy>(array, field, keep, stream);
    } else if constexpr (kind_of<K> == kind::fixed_size_binary) {
      return import_fixed_size_binary<Policy>(array, field, keep, stream);
    } else if constexpr (kind_of<K> == kind::null) {
      return import_null<Policy>(array);
    } else if constexpr (kind_of<K> == kind::string_view || kind_of<K> == kind::binary_view) {
      return import_binary_view<Policy, K::bytes_encoding>(array, field, keep, stream);
    } else if constexpr (kind_of<K> == kind::list) {
      return import_list<typename K::offset_type, Policy>(array, field, keep, stream, "array");
    } else if constexpr (kind_of<K> == kind::fixed_size_list) {
      return import_fixed_size_list<Policy>(array, field, keep, stream, "array");
    } else if constexpr (kind_of<K> == kind::run_end_encoded) {
      return import_run_end_encoded<Policy>(array, field, keep, stream, "array");
    } else if constexpr (kind_of<K> == kind::list_view) {
      return import_list_view<typename K::offset_type, Policy>(array, field, keep, stream, "array");
    } else if constexpr (kind_of<K> == kind::union_type) {
      return import_union<Policy>(array, field, keep, stream, "array");
    } else if constexpr (kind_of<K> == kind::structure) {
      return import_struct_column<Policy>(array, field, keep, stream, "array");
    } else {
      static_assert(kind_of<K> == kind::dictionary, "arrow_importer: a kind without an import");
      return import_dictionary<Policy>(array, field, keep, stream, "array");
    }
  }
};

}  // namespace detail
DEVCOL_NAMESPACE_END
