/**
 * @file nested.hpp
 * @brief Arrow for lists, structs and dictionaries, and the recursive dispatch over every kind:
 * `schema_of` / `export_node` (zero-copy array and schema subtrees of any column), `check_any`
 * (structure only, by format string, never reads a buffer) and `import_any` (an `any_column` over
 * the producer's buffers, with the content checks a kind needs).
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/any_column.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_column.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/decimal.hpp>
#include <devcol/interop/detail/export_strings.hpp>
#include <devcol/interop/detail/fixed_size_binary.hpp>
#include <devcol/interop/detail/import.hpp>
#include <devcol/interop/detail/import_strings.hpp>
#include <devcol/interop/detail/offsets.hpp>

#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(any_column<Policy> const& col, std::string name);
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(any_column<Policy> const& col, stream_ref stream);
template <class K>
std::unique_ptr<array_node> pinned_export_node(K const& col, stream_ref stream);
template <buffer_policy Policy>
arrow_device device_of(any_column<Policy> const& col);
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field,
                              std::shared_ptr<void const> const& keep, stream_ref stream);
template <buffer_policy Policy>
any_column<Policy> import_any(ArrowArray const& array, arrow_field const& field,
                              std::shared_ptr<void const> const& keep, stream_ref stream, std::string const& path);
inline void check_any(ArrowArray const& array, arrow_field const& field, std::string const& path);

// ---- fixed width -------------------------------------------------------------------------------

/// The schema subtree of a fixed-width column.
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(column<T, Policy> const&, std::string name) {
  return std::make_unique<schema_node>(std::string(arrow_format_v<T>), std::move(name), 0);
}
/// The array subtree of a fixed-width column (see export_column_node).
template <fixed_width T, buffer_policy Policy>
std::unique_ptr<array_node> export_node(column<T, Policy> const& col, stream_ref stream) {
  return export_column_node(col, stream);
}

// ---- list --------------------------------------------------------------------------------------

/// The schema of a list: "+l" / "+L" with one child, named "item" as Arrow C++ names it.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(basic_list_column<O, Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>(col.arrow_format(), std::move(name), 1);
  publish(schema_of(col.child(), "item"), ARROW_FLAG_NULLABLE, node->children[0]);
  return node;
}

/// What a list export keeps: the column (or its snapshot) and, for a column without buffers, the
/// one-element {0} offsets buffer the export made.
template <arrow_offset O, buffer_policy Policy>
struct exported_list {
  basic_list_column<O, Policy> col;
  buffer<Policy> zero;
};

/// The array of a list: validity and offsets at the column's offset, the whole child as child 0
/// (offsets are absolute rows of it). Zero-copy; a snapshot when exposed or not copy-on-write.
template <arrow_offset O, buffer_policy Policy>
std::unique_ptr<array_node> export_node(basic_list_column<O, Policy> const& col, stream_ref stream) {
  auto kept = !col.copy_on_write() || col.is_exposed() ? col.deep_copy(stream) : col;
  buffer<Policy> zero;
  if (kept.offsets_buffer().empty()) {  // no buffers (0 rows): Arrow still wants one offset
    zero = buffer<Policy>(sizeof(O), stream, mr::default_alignment, kept.resource());
    fill_bytes(zero.data(access::write, stream), 0, sizeof(O), stream);
  }
  auto node = std::make_unique<holding_array_node<exported_list<O, Policy>>>(
      1, exported_list<O, Policy>{std::move(kept), std::move(zero)});
  auto const& held = node->kept;
  node->length = static_cast<std::int64_t>(held.col.size());
  node->null_count = static_cast<std::int64_t>(held.col.null_count());
  // With the export's own {0} (a column without buffers, whose offset may be anything), offset 0:
  // a consumer reads offsets[offset], which must lie in that one-element buffer.
  node->offset = held.zero.empty() ? static_cast<std::int64_t>(held.col.offset()) : 0;
  node->n_buffers = 2;
  node->buffers[0] = held.col.mask_buffer().data(access::read);
  node->buffers[1] = held.zero.empty() ? held.col.offsets_buffer().data(access::read) : held.zero.data(access::read);
  publish(pinned_export_node(held.col.child(), stream), node->children[0]);
  return node;
}

// ---- struct ------------------------------------------------------------------------------------

/// The schema of a struct: "+s" with one named child per field.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(struct_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>("+s", std::move(name), col.num_children());
  for (std::size_t i = 0; i < col.num_children(); ++i) {
    publish(schema_of(col.child(i), col.name(i)), ARROW_FLAG_NULLABLE, node->children[i]);
  }
  return node;
}

/// The array of a struct: its validity at its offset, which applies to its children (exported
/// whole), as in Arrow. Zero-copy; a snapshot when exposed or not copy-on-write.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(struct_column<Policy> const& col, stream_ref stream) {
  auto kept = !col.copy_on_write() || col.is_exposed() ? col.deep_copy(stream) : col;
  std::size_t const n = kept.num_children();
  auto node = std::make_unique<holding_array_node<struct_column<Policy>>>(n, std::move(kept));
  auto const& held = node->kept;
  node->length = static_cast<std::int64_t>(held.size());
  node->null_count = static_cast<std::int64_t>(held.null_count());
  node->offset = static_cast<std::int64_t>(held.offset());
  node->n_buffers = 1;
  node->buffers[0] = held.mask_buffer().data(access::read);
  for (std::size_t i = 0; i < n; ++i) { publish(pinned_export_node(held.child(i), stream), node->children[i]); }
  return node;
}

// ---- dictionary --------------------------------------------------------------------------------

/// The schema of a dictionary: the indices' "i", the values' schema as its dictionary, not ordered.
template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(dictionary_column<Policy> const& col, std::string name) {
  auto node = std::make_unique<schema_node>("i", std::move(name), 0);
  node->dictionary = std::make_unique<export_children<ArrowSchema>>(1);
  publish(schema_of(col.values(), ""), ARROW_FLAG_NULLABLE, (*node->dictionary)[0]);
  return node;
}

/// The array of a dictionary: the indices' array with the values' array as its dictionary.
template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(dictionary_column<Policy> const& col, stream_ref stream) {
  auto node = export_column_node(col.indices(), stream);
  node->dictionary = std::make_unique<export_children<ArrowArray>>(1);
  publish(pinned_export_node(col.values(), stream), (*node->dictionary)[0]);
  return node;
}

// ---- dispatch ----------------------------------------------------------------------------------

template <buffer_policy Policy>
std::unique_ptr<schema_node> schema_of(any_column<Policy> const& col, std::string name) {
  return std::visit(
      [&](auto const& c) -> std::unique_ptr<schema_node> {
        if constexpr (requires { schema_of(c, std::move(name)); }) {
          return schema_of(c, std::move(name));
        } else {
          DEVCOL_FAIL("to_arrow: ", devcol::type_name(c), " columns are not exported in this build");
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
 * until the consumer releases that node (rule 20: exported memory must not move while a consumer
 * may read it). Each node pins its own subtree, so a child the consumer moves out keeps its memory
 * in place after the parent is released. Nothing for a policy that does not spill.
 */
template <class K>
std::unique_ptr<array_node> pinned_export_node(K const& col, stream_ref stream) {
  spill_capture<policy_of<K>::type::spill::enabled> capture;
  auto node = export_node(col, stream);
  node->pins = capture.take();
  return node;
}

template <buffer_policy Policy>
std::unique_ptr<array_node> export_node(any_column<Policy> const& col, stream_ref stream) {
  return std::visit(
      [&](auto const& c) -> std::unique_ptr<array_node> {
        if constexpr (requires { export_node(c, stream); }) {
          return export_node(c, stream);
        } else {
          DEVCOL_FAIL("to_arrow: ", devcol::type_name(c), " columns are not exported in this build");
        }
      },
      col);
}

/// Where a list's memory lives: its offsets', its child's when it has none.
template <arrow_offset O, buffer_policy Policy>
arrow_device device_of(basic_list_column<O, Policy> const& col) {
  void const* p = col.offsets_buffer().data(access::read);
  return p != nullptr ? device_of(p) : device_of(col.child());
}
/// Where a struct's memory lives: its mask's, its first child's when it has none.
template <buffer_policy Policy>
arrow_device device_of(struct_column<Policy> const& col) {
  void const* p = col.mask_buffer().data(access::read);
  return p != nullptr || col.num_children() == 0 ? device_of(p) : device_of(col.child(0));
}
/// Where a dictionary's memory lives: its indices'.
template <buffer_policy Policy>
arrow_device device_of(dictionary_column<Policy> const& col) {
  return device_of(col.indices());
}
/// Where any column's memory lives (CPU on the host backend).
template <buffer_policy Policy>
arrow_device device_of(any_column<Policy> const& col) {
  return std::visit(
      [](auto const& c) -> arrow_device {
        if constexpr (kind_of<decltype(c)> == kind::strings) {
          return device_of(c.offsets_buffer().data(access::read));
        } else {
          return device_of(c);
        }
      },
      col);
}

// ---- structure checks (never read a buffer) ----------------------------------------------------

/// The checks every layout with a validity bitmap shares.
inline void check_validity(ArrowArray const& array, std::int64_t buffers, std::string const& path, char const* what) {
  DEVCOL_ARROW_EXPECTS(array.n_buffers == buffers, path, ".n_buffers is ", array.n_buffers, ", a ", what, " array has ",
                       buffers);
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
}

/// A list array: 2 buffers, offsets present for any row, one child (checked recursively).
inline void check_list(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  char const* what = field.format == "+l" ? "list" : "large list";
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded ", what, " is not supported");
  DEVCOL_ARROW_EXPECTS(field.children.size() == 1, path, ".n_children is ", field.children.size(), ", a ", what,
                       " array has 1");
  check_validity(array, 2, path, what);
  std::size_t const size = field.format == "+l" ? 4 : 8;
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows < SIZE_MAX / size, path, ": ", rows + 1, " offsets of ", size, " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (offsets) is NULL for ", rows,
                       " rows");
  check_any(*array.children[0], field.children[0], path + ".children[0]");
}

/// A struct array: 1 buffer, each child at least offset + length long (checked recursively).
inline void check_struct_array(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded struct is not supported");
  check_validity(array, 1, path, "struct");
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    ArrowArray const& child = *array.children[i];
    std::string const child_path = path + ".children[" + std::to_string(i) + "]";
    DEVCOL_ARROW_EXPECTS(child.length >= array.offset + array.length, child_path, ".length ", child.length,
                         " is short of the struct's offset ", array.offset, " + length ", array.length);
    check_any(child, field.children[i], child_path);
  }
}

/// A dictionary array: int32 indices ("i") with a dictionary (checked recursively).
inline void check_dictionary(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "i", path, ".format '", field.format,
                       "': dictionary indices other than int32 ('i') are not supported");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(),
                       ", dictionary indices have none");
  check_validity(array, 2, path, "dictionary indices");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(rows <= SIZE_MAX / sizeof(std::int32_t), path, ": ", rows, " indices of ", sizeof(std::int32_t),
                       " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (indices) is NULL for ", rows,
                       " rows");
  check_any(*array.dictionary, field.dictionary.front(), path + ".dictionary");
}

/**
 * Checks an array (its tree's structure already checked against `field` by check_array) as the
 * kind its format names, recursively: buffer and child counts, NULL buffers, child lengths,
 * dictionary presence. Never reads a buffer.
 * @throws devcol::arrow_error naming the field and value, or a format devcol does not import
 */
inline void check_any(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  if (!field.dictionary.empty()) { return check_dictionary(array, field, path); }
  if (field.format == "+l" || field.format == "+L") { return check_list(array, field, path); }
  if (field.format == "+s") { return check_struct_array(array, field, path); }
  if (field.format == "u") { return check_strings<std::int32_t>(array, field, path); }
  if (field.format == "U") { return check_strings<std::int64_t>(array, field, path); }
  if (field.format.starts_with("d:")) {
    return visit_decimal_format(field.format, path, [&]<class Rep>(std::type_identity<Rep>, decimal_format const&) {
      check_decimal<Rep>(array, field, path);
    });
  }
  if (field.format.starts_with("w:")) { return check_fixed_size_binary(array, field, path); }
  visit_format(field.format, path, [&]<class T>(std::type_identity<T>) { check_fixed_width<T>(array, field, path); });
}

/// Checks that a schema (already read) names only types devcol imports, recursively.
inline void check_schema_any(arrow_field const& field, std::string const& path) {
  if (!field.dictionary.empty()) {
    DEVCOL_ARROW_EXPECTS(field.format == "i", path, ".format '", field.format,
                         "': dictionary indices other than int32 ('i') are not supported");
    return check_schema_any(field.dictionary.front(), path + ".dictionary");
  }
  if (field.format == "+l" || field.format == "+L" || field.format == "+s") {
    DEVCOL_ARROW_EXPECTS(field.format == "+s" || field.children.size() == 1, path, ".n_children is ",
                         field.children.size(), ", a list has 1");
    for (std::size_t i = 0; i < field.children.size(); ++i) {
      check_schema_any(field.children[i], path + ".children[" + std::to_string(i) + "]");
    }
    return;
  }
  if (field.format == "u" || field.format == "U" || field.format.starts_with("w:")) { return; }
  if (field.format.starts_with("d:")) {
    (void)parse_decimal_format(field.format, path);
    return;
  }
  visit_format(field.format, path, [](auto) {});
}

// ---- content checks and imports ----------------------------------------------------------------

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

/// A checked list array as a list column over the producer's offsets (copied only when
/// misaligned), its child imported whole; the offsets content-checked first.
template <arrow_offset O, buffer_policy Policy>
basic_list_column<O, Policy> import_list(ArrowArray const& array, arrow_field const& field,
                                         std::shared_ptr<void const> const& keep, stream_ref stream,
                                         std::string const& path) {
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  ArrowArray const& child_array = *array.children[0];
  auto child = import_any<Policy>(child_array, field.children[0], keep, stream, path + ".children[0]");
  if (first + rows == 0 && array.buffers[1] == nullptr) {
    return basic_list_column<O, Policy>(buffer<Policy>{}, std::move(child), buffer<Policy>{}, 0, 0);
  }
  std::size_t const bytes = (first + rows + 1) * sizeof(O);
  buffer<Policy> offsets;
  if (reinterpret_cast<std::uintptr_t>(array.buffers[1]) % alignof(O) == 0) {
    offsets = buffer<Policy>::borrow(array.buffers[1], bytes, keep, stream);
  } else {  // misaligned: copy them
    offsets = buffer<Policy>(bytes, stream);
    copy_bytes(offsets.data(access::write, stream), array.buffers[1], bytes, stream);
  }
  (void)check_offsets(static_cast<O const*>(offsets.data(access::read)) + first, rows + 1, first,
                      std::optional<std::size_t>(static_cast<std::size_t>(child_array.length)), path, stream);
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  return basic_list_column<O, Policy>(std::move(offsets), std::move(child), std::move(mask), rows, nulls, first);
}

/// A checked struct array as a struct column: its children imported whole, its offset kept.
template <buffer_policy Policy>
struct_column<Policy> import_struct_column(ArrowArray const& array, arrow_field const& field,
                                           std::shared_ptr<void const> const& keep, stream_ref stream,
                                           std::string const& path) {
  std::vector<std::string> names;
  std::vector<any_column<Policy>> children;
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    names.push_back(field.children[i].name);
    children.push_back(import_any<Policy>(*array.children[i], field.children[i], keep, stream,
                                          path + ".children[" + std::to_string(i) + "]"));
  }
  auto [mask, nulls] = import_validity<Policy>(array, keep, stream);
  return struct_column<Policy>(std::move(names), std::move(children), std::move(mask),
                               static_cast<std::size_t>(array.length), nulls, static_cast<std::size_t>(array.offset));
}

/// Whether a valid dictionary index falls outside the `n` dictionary values (a named functor, so
/// that consumers need no extended lambdas).
struct index_outside_dictionary {
  column_view<std::int32_t> indices;
  std::size_t n;
  [[nodiscard]] DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept {
    return indices.is_valid(i) && (indices[i] < 0 || static_cast<std::size_t>(indices[i]) >= n);
  }
};

/// A checked dictionary array: its indices (checked to lie within the values: one pass, which
/// synchronises) over its values imported whole.
template <buffer_policy Policy>
dictionary_column<Policy> import_dictionary(ArrowArray const& array, arrow_field const& field,
                                            std::shared_ptr<void const> const& keep, stream_ref stream,
                                            std::string const& path) {
  arrow_field indices_field{field.format, field.name, {}, {}};
  auto indices = import_column<std::int32_t, Policy>(array, static_cast<std::size_t>(array.offset),
                                                     static_cast<std::size_t>(array.length), array.null_count, keep,
                                                     stream);
  auto values = import_any<Policy>(*array.dictionary, field.dictionary.front(), keep, stream, path + ".dictionary");
  std::size_t const n = devcol::size(values);
  executor exec(stream);
  std::size_t const row = *thrust::find_if(exec.policy(), thrust::counting_iterator<std::size_t>(0),
                                           thrust::counting_iterator<std::size_t>(indices.size()),
                                           index_outside_dictionary{indices.view(), n});
  if (row != indices.size()) {
    std::int32_t index = 0;
    copy_bytes(&index, indices.data(access::read) + row, sizeof(index), stream);
    stream.synchronize();
    DEVCOL_ARROW_EXPECTS(false, path, ".buffers[1] (indices): index ", index, " at row ", row, " is outside the ", n,
                         " dictionary values");
  }
  return dictionary_column<Policy>(std::move(indices), std::move(values));
}

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
  if (field.format == "+s") { return import_struct_column<Policy>(array, field, keep, stream, path); }
  if (field.format == "u") { return import_strings<std::int32_t, Policy>(array, field, keep, stream, path); }
  if (field.format == "U") { return import_strings<std::int64_t, Policy>(array, field, keep, stream, path); }
  if (field.format.starts_with("d:")) {
    return visit_decimal_format(field.format, path, [&]<class Rep>(std::type_identity<Rep>, decimal_format const&) {
      return any_column<Policy>(import_decimal<Rep, Policy>(array, field, keep, stream));
    });
  }
  if (field.format.starts_with("w:")) { return import_fixed_size_binary<Policy>(array, field, keep, stream); }
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

/// from_arrow<list_column> and large lists: the format must be the list's, the rest as check_any.
template <arrow_offset O, buffer_policy Policy>
struct arrow_importer<basic_list_column<O, Policy>> {
  static constexpr bool enabled = true;
  static void check(ArrowArray const& array, arrow_field const& field, std::string const& path) {
    std::string_view const want = sizeof(O) == 4 ? "+l" : "+L";
    DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && field.format == want, path, ".format '", field.format,
                         "' is not a ", sizeof(O) == 4 ? "list" : "large list", " ('", want, "')");
    check_any(array, field, path);
  }
  static basic_list_column<O, Policy> import(ArrowArray const& array, arrow_field const& field,
                                             std::shared_ptr<void const> const& keep, stream_ref stream) {
    return import_list<O, Policy>(array, field, keep, stream, "array");
  }
};
/// from_arrow<struct_column<Policy>>: the format must be "+s".
template <buffer_policy Policy>
struct arrow_importer<struct_column<Policy>> {
  static constexpr bool enabled = true;
  static void check(ArrowArray const& array, arrow_field const& field, std::string const& path) {
    DEVCOL_ARROW_EXPECTS(field.dictionary.empty() && field.format == "+s", path, ".format '", field.format,
                         "' is not a struct ('+s')");
    check_any(array, field, path);
  }
  static struct_column<Policy> import(ArrowArray const& array, arrow_field const& field,
                                      std::shared_ptr<void const> const& keep, stream_ref stream) {
    return import_struct_column<Policy>(array, field, keep, stream, "array");
  }
};
/// from_arrow<dictionary_column<Policy>>: the schema must have a dictionary.
template <buffer_policy Policy>
struct arrow_importer<dictionary_column<Policy>> {
  static constexpr bool enabled = true;
  static void check(ArrowArray const& array, arrow_field const& field, std::string const& path) {
    DEVCOL_ARROW_EXPECTS(!field.dictionary.empty(), path, ": format '", field.format,
                         "' without a dictionary is not dictionary-encoded");
    check_any(array, field, path);
  }
  static dictionary_column<Policy> import(ArrowArray const& array, arrow_field const& field,
                                          std::shared_ptr<void const> const& keep, stream_ref stream) {
    return import_dictionary<Policy>(array, field, keep, stream, "array");
  }
};

// ---- tables (record batches) -----------------------------------------------------------------

/// Checks a struct array that import reads as a table: no null rows, children long enough,
/// unique names, each child a column of any kind devcol reads (checked as check_any does).
inline void check_struct(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(field.format == "+s", path, ".format '", field.format,
                       "' is not a struct ('+s'): a table imports from a struct array (a record batch)");
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": a dictionary-encoded struct is not a table");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 1, path, ".n_buffers is ", array.n_buffers, ", a struct array has 1 (validity)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0, path, ".null_count is ", array.null_count,
                       ": a table has no null rows");
  std::unordered_set<std::string_view> names;
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    ArrowArray const& child = *array.children[i];
    arrow_field const& child_field = field.children[i];
    std::string const child_path = path + ".children[" + std::to_string(i) + "]";
    DEVCOL_ARROW_EXPECTS(names.insert(child_field.name).second, child_path, ".name '", child_field.name,
                         "' is taken by an earlier column");
    DEVCOL_ARROW_EXPECTS(child.length >= array.offset + array.length, child_path, ".length ", child.length,
                         " is short of the struct's offset ", array.offset, " + length ", array.length);
    check_any(child, child_field, child_path);
  }
}

/// The columns of a checked struct array, of any kind: rows [offset, offset + length) of each child
/// (a slice of the imported child, which counts its nulls when it has some).
template <buffer_policy Policy>
basic_table<Policy> import_table(ArrowArray const& array, arrow_field const& field,
                                 std::shared_ptr<void const> const& keep, stream_ref stream) {
  basic_table<Policy> out;
  auto const first = static_cast<std::size_t>(array.offset);
  auto const rows = static_cast<std::size_t>(array.length);
  for (std::size_t i = 0; i < field.children.size(); ++i) {
    ArrowArray const& child = *array.children[i];
    arrow_field const& child_field = field.children[i];
    auto col = import_any<Policy>(child, child_field, keep, stream, "array.children[" + std::to_string(i) + "]");
    // The struct's offset applies to its children: the table's rows are [first, first + rows) of each.
    if (first != 0 || devcol::size(col) != rows) { col = devcol::slice(col, first, first + rows, stream); }
    out.add_any(child_field.name, std::move(col));
  }
  return out;
}

/**
 * @brief Imports the struct array `guard` holds (its structure checked against `field`) as a
 * table: the remaining checks, then ownership, the wait for the producer, and the columns.
 */
template <buffer_policy Policy>
basic_table<Policy> import_struct(arrow_field const& field, import_guard& guard, stream_ref stream) {
  check_struct(guard.array().array, field, "array");
  auto const taken = guard.take_array(stream);
  ArrowArray const& imported = taken->device.array;
  wait_for_producer(taken->device.sync_event, taken->device.device_type, stream);
  if (imported.buffers[0] != nullptr && imported.null_count < 0) {
    auto const first = static_cast<std::size_t>(imported.offset);
    auto const rows = static_cast<std::size_t>(imported.length);
    auto const bits = import_bits<Policy>(imported.buffers[0], first, rows, false, false, taken, stream);
    std::size_t const nulls =
        count_unset_bits(static_cast<bitmask_word const*>(bits.data(access::read)), first, first + rows, stream);
    DEVCOL_ARROW_EXPECTS(nulls == 0, "array.null_count is -1 and the validity bitmap has ", nulls,
                         " null rows: a table has none");
  }
  return import_table<Policy>(imported, field, taken, stream);
}

}  // namespace detail
DEVCOL_NAMESPACE_END
