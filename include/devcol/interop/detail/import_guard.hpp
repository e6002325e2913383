/**
 * @file import_guard.hpp
 * @brief What every Arrow import does before it reads a byte of the producer's memory: the
 * structure checks of an untrusted schema and array tree (`arrow_field` is what it keeps of the
 * schema), and the ownership of the imported array (`import_guard` releases the input on every
 * failure path; `imported_array` calls the producer's `release` exactly once).
 *
 * The parsers and checks of the Arrow interop headers that take no template parameter of their own
 * are templates of none (`template <int = 0>`, called as plain functions): the body of an inline
 * non-template function is compiled, and every template it calls instantiated, in each file that
 * includes it, whether or not the file imports or exports anything (the format dispatch of
 * check_any() alone instantiated each fixed-width type's checks). As templates they are compiled
 * only in a file that calls them, and not at all in a consumer of the precompiled library.
 */
#pragma once

#include <devcol/column/field_info.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>
#include <devcol/interop/detail/metadata.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <set>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/**
 * Reads the size in an untrusted format `<prefix><N>` ("w:N" of a fixed-size binary, "+w:N" of a
 * fixed-size list): N a decimal integer in [minimum, 2^31 - 1] (Arrow keeps it in an int32),
 * nothing else. `kind` names the type and `what` names N in messages ("fixed-size binary ('w:N')",
 * "byte width").
 * @throws devcol::arrow_error naming `path` and the format when it is malformed or N out of range
 */
template <int = 0>
[[nodiscard]] std::size_t parse_format_size(std::string_view format, std::string_view prefix, std::string_view kind,
                                                   std::string_view what, std::int64_t minimum, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(format.starts_with(prefix), path, ".format '", format, "' is not a ", kind);
  std::string_view const digits = format.substr(prefix.size());
  std::int64_t size = 0;
  auto const [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
  DEVCOL_ARROW_EXPECTS(err == std::errc{} && end == digits.data() + digits.size() && !digits.empty(), path,
                       ".format '", format, "': the ", what, " '", digits, "' is not a decimal integer");
  DEVCOL_ARROW_EXPECTS(size >= minimum && size <= std::numeric_limits<std::int32_t>::max(), path, ".format '", format,
                       "': ", what, " ", size, " is not within [", minimum, ", 2147483647]");
  return static_cast<std::size_t>(size);
}

/// How deep an imported schema or array may nest (a bound on the checks' recursion).
inline constexpr int max_arrow_depth = 64;

/// What an import keeps of a schema after releasing it: the checked tree of formats and names,
/// with each node's flags and metadata (what field_info_of gives the table).
struct arrow_field {
  std::string format;
  std::string name;
  std::vector<arrow_field> children;
  std::vector<arrow_field> dictionary;  // none, or the one dictionary's field
  std::int64_t flags = ARROW_FLAG_NULLABLE;
  std::vector<field_info::entry> metadata;
};

/// What a checked schema says beyond its columns' types: names, flags, metadata, a timestamp's
/// time zone (after the format's ':'), recursively.
template <int = 0>
field_info field_info_of(arrow_field const& field) {
  field_info info;
  info.name = field.name;
  info.nullable = (field.flags & ARROW_FLAG_NULLABLE) != 0;
  info.ordered = (field.flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0;
  info.keys_sorted = (field.flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0;
  if (field.format.size() > 4 && field.format.starts_with("ts") && field.format[3] == ':') {
    info.time_zone = field.format.substr(4);
  }
  info.metadata = field.metadata;
  for (auto const& child : field.children) { info.children.push_back(field_info_of(child)); }
  for (auto const& values : field.dictionary) { info.dictionary.push_back(field_info_of(values)); }
  return info;
}

/// Nodes met while walking one untrusted tree: a node met twice is a cycle (or a shared child).
using seen_nodes = std::set<void const*>;

template <int = 0>
void expect_node(void const* node, bool released, std::string const& path, int depth, seen_nodes& seen) {
  DEVCOL_ARROW_EXPECTS(depth <= max_arrow_depth, path, ": nesting is deeper than ", max_arrow_depth, " levels");
  DEVCOL_ARROW_EXPECTS(node != nullptr, path, " is NULL");
  DEVCOL_ARROW_EXPECTS(seen.insert(node).second, path, " (", node, ") appears twice in the tree: a cycle");
  DEVCOL_ARROW_EXPECTS(!released, path, " is released (release is NULL)");
}

template <int = 0>
void expect_children(std::int64_t n, void const* children, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(n >= 0, path, ".n_children is ", n);
  DEVCOL_ARROW_EXPECTS(n == 0 || children != nullptr, path, ".children is NULL for ", n, " children");
}

/// Checks a schema tree's structure and copies what import needs. Reads no buffer.
template <int = 0>
arrow_field read_schema(ArrowSchema const* schema, std::string const& path, int depth, seen_nodes& seen) {
  expect_node(schema, schema != nullptr && schema->release == nullptr, path, depth, seen);
  DEVCOL_ARROW_EXPECTS(schema->format != nullptr, path, ".format is NULL");
  expect_children(schema->n_children, schema->children, path);
  arrow_field field{schema->format, schema->name != nullptr ? schema->name : "", {}, {}, schema->flags,
                    decode_metadata(schema->metadata, path)};
  for (std::int64_t i = 0; i < schema->n_children; ++i) {
    field.children.push_back(
        read_schema(schema->children[i], path + ".children[" + std::to_string(i) + "]", depth + 1, seen));
  }
  if (schema->dictionary != nullptr) {
    field.dictionary.push_back(read_schema(schema->dictionary, path + ".dictionary", depth + 1, seen));
  }
  return field;
}

/// Checks an array tree's structure against its schema's: what every layout requires. Reads no buffer.
template <int = 0>
void check_array(ArrowArray const* array, arrow_field const& field, std::string const& path, int depth,
                        seen_nodes& seen) {
  expect_node(array, array != nullptr && array->release == nullptr, path, depth, seen);
  expect_children(array->n_children, array->children, path);
  DEVCOL_ARROW_EXPECTS(array->n_children == static_cast<std::int64_t>(field.children.size()), path, ".n_children is ",
                       array->n_children, ", its schema has ", field.children.size(), " children");
  DEVCOL_ARROW_EXPECTS((array->dictionary != nullptr) == !field.dictionary.empty(), path, ".dictionary is ",
                       array->dictionary != nullptr ? "present" : "NULL", ", its schema has ",
                       field.dictionary.empty() ? "none" : "one");
  DEVCOL_ARROW_EXPECTS(array->length >= 0, path, ".length is ", array->length);
  DEVCOL_ARROW_EXPECTS(array->offset >= 0, path, ".offset is ", array->offset);
  DEVCOL_ARROW_EXPECTS(array->offset <= std::numeric_limits<std::int64_t>::max() - array->length, path, ".offset ",
                       array->offset, " + length ", array->length, " overflows");
  DEVCOL_ARROW_EXPECTS(array->null_count >= -1 && array->null_count <= array->length, path, ".null_count is ",
                       array->null_count, " for length ", array->length);
  DEVCOL_ARROW_EXPECTS(array->n_buffers >= 0, path, ".n_buffers is ", array->n_buffers);
  DEVCOL_ARROW_EXPECTS(array->n_buffers == 0 || array->buffers != nullptr, path, ".buffers is NULL for ",
                       array->n_buffers, " buffers");
  for (std::int64_t i = 0; i < array->n_children; ++i) {
    check_array(array->children[i], field.children[static_cast<std::size_t>(i)],
                path + ".children[" + std::to_string(i) + "]", depth + 1, seen);
  }
  if (array->dictionary != nullptr) { check_array(array->dictionary, field.dictionary.front(), path + ".dictionary", depth + 1, seen); }
}

/// Owns an imported ArrowDeviceArray (moved in, as the specification's move semantics allow) and
/// calls its `release` exactly once, when the last column built over its memory is gone. The
/// producer may free the memory at once: on CUDA, the work devcol queued on the import's stream
/// (copies, unpacking, counts) is waited for first.
struct imported_array {
  ArrowDeviceArray device{};
  stream_ref stream;
  device_id stream_device;  ///< the device current at the import, whose default stream `stream` may be
  imported_array() = default;
  imported_array(imported_array const&) = delete;
  imported_array& operator=(imported_array const&) = delete;
  ~imported_array() {
    if (device.array.release == nullptr) { return; }
    wait_before_hand_back(stream, stream_device);
    device.array.release(&device.array);
  }
};

/**
 * @brief Releases an import's input on every path that does not take it: the schema always (import
 * keeps what it needs), the array unless taken.
 */
class import_guard {
 public:
  import_guard(ArrowSchema* schema, ArrowDeviceArray* array) noexcept : schema_(schema), array_(array) {}
  import_guard(import_guard const&) = delete;
  import_guard& operator=(import_guard const&) = delete;
  ~import_guard() {
    release_schema();
    if (array_ != nullptr) { release_if_live(array_->array); }
  }
  void release_schema() noexcept {
    if (schema_ != nullptr) { release_if_live(*schema_); }
    schema_ = nullptr;
  }
  /// Moves the array into shared ownership; the caller's struct is marked released. Its release
  /// will wait for the work devcol queues on `stream` (CUDA).
  template <int = 0>
  [[nodiscard]] std::shared_ptr<imported_array> take_array(stream_ref stream) {
    auto taken = std::make_shared<imported_array>();
    taken->stream = stream;
    taken->stream_device = current_device();
    taken->device = *array_;
    array_->array.release = nullptr;
    array_ = nullptr;
    return taken;
  }
  /// The array not yet taken.
  [[nodiscard]] ArrowDeviceArray const& array() const noexcept { return *array_; }

 private:
  ArrowSchema* schema_;
  ArrowDeviceArray* array_;
};

/// Checks a device array's structure against a checked schema, and its device. Reads no buffer.
template <int = 0>
void check_device_array(ArrowDeviceArray const* array, arrow_field const& field) {
  DEVCOL_ARROW_EXPECTS(array != nullptr, "the ArrowDeviceArray is NULL");
  seen_nodes seen;
  check_array(&array->array, field, "array", 0, seen);
  expect_readable_device({array->device_type, array->device_id}, "array");
}

/// Checks the structs of a device array import and its device, and copies what the schema says.
/// Reads no buffer.
template <int = 0>
arrow_field check_device_import(ArrowSchema const* schema, ArrowDeviceArray const* array) {
  DEVCOL_ARROW_EXPECTS(schema != nullptr, "the ArrowSchema is NULL");
  DEVCOL_ARROW_EXPECTS(array != nullptr, "the ArrowDeviceArray is NULL");
  seen_nodes seen;
  arrow_field field = read_schema(schema, "schema", 0, seen);
  check_device_array(array, field);
  return field;
}

}  // namespace detail
DEVCOL_NAMESPACE_END
