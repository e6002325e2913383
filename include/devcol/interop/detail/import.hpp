/**
 * @file import.hpp
 * @brief What the Arrow importers share: the structure checks of untrusted input, the ownership of
 * an imported array, and the building of columns over its memory.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/column/bitmask.hpp>
#include <devcol/column/column.hpp>
#include <devcol/column/detail/execution.hpp>
#include <devcol/column/table.hpp>
#include <devcol/column/types.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/export_nodes.hpp>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <limits>
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

/// How deep an imported schema or array may nest (a bound on the checks' recursion).
inline constexpr int max_arrow_depth = 64;

/// What an import keeps of a schema after releasing it: the checked tree of formats and names.
struct arrow_field {
  std::string format;
  std::string name;
  std::vector<arrow_field> children;
  std::vector<arrow_field> dictionary;  // none, or the one dictionary's field
};

/// Nodes met while walking one untrusted tree: a node met twice is a cycle (or a shared child).
using seen_nodes = std::unordered_set<void const*>;

inline void expect_node(void const* node, bool released, std::string const& path, int depth, seen_nodes& seen) {
  DEVCOL_ARROW_EXPECTS(depth <= max_arrow_depth, path, ": nesting is deeper than ", max_arrow_depth, " levels");
  DEVCOL_ARROW_EXPECTS(node != nullptr, path, " is NULL");
  DEVCOL_ARROW_EXPECTS(seen.insert(node).second, path, " (", node, ") appears twice in the tree: a cycle");
  DEVCOL_ARROW_EXPECTS(!released, path, " is released (release is NULL)");
}

inline void expect_children(std::int64_t n, void const* children, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(n >= 0, path, ".n_children is ", n);
  DEVCOL_ARROW_EXPECTS(n == 0 || children != nullptr, path, ".children is NULL for ", n, " children");
}

/// Checks a schema tree's structure and copies what import needs. Reads no buffer.
inline arrow_field read_schema(ArrowSchema const* schema, std::string const& path, int depth, seen_nodes& seen) {
  expect_node(schema, schema != nullptr && schema->release == nullptr, path, depth, seen);
  DEVCOL_ARROW_EXPECTS(schema->format != nullptr, path, ".format is NULL");
  expect_children(schema->n_children, schema->children, path);
  arrow_field field{schema->format, schema->name != nullptr ? schema->name : "", {}, {}};
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
inline void check_array(ArrowArray const* array, arrow_field const& field, std::string const& path, int depth,
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

/// Whether an Arrow format string denotes `T` (timestamps match with any time zone: the values are
/// UTC instants either way; the zone is not kept).
template <arrow_fixed_width T>
[[nodiscard]] constexpr bool format_matches(std::string_view format) noexcept {
  std::string_view const ours = arrow_format_v<T>;
  if (ours.starts_with("ts")) { return format.starts_with(ours); }
  return format == ours;
}

/// Calls `f(std::type_identity<T>{})` for the fixed-width type `T` that `format` denotes.
/// @throws devcol::arrow_error naming the format when it denotes none
template <class F>
void visit_format(std::string_view format, std::string const& path, F&& f) {
  bool found = false;
  auto try_one = [&]<class Column>(std::type_identity<Column>) {
    if constexpr (is_plain_column<Column>) {
      using T = typename Column::value_type;
      if (!found && format_matches<T>(format)) {
        found = true;
        f(std::type_identity<T>{});
      }
    }
  };
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (try_one(std::type_identity<std::variant_alternative_t<I, any_column<>>>{}), ...);
  }(std::make_index_sequence<std::variant_size_v<any_column<>>>{});
  DEVCOL_ARROW_EXPECTS(found, path, ".format '", format,
                       "' is not a type devcol imports (fixed-width integers and floats, bool, timestamps, durations)");
}

/// Checks what every layout of two buffers (validity, values) shares, for an array (structure
/// already checked) of `type` with `value_bytes` bytes per row (0: bit-packed): no dictionary, no
/// children, two buffers, a bitmap for nulls, values for rows, sizes that do not overflow.
inline void check_values_layout(ArrowArray const& array, arrow_field const& field, std::string const& path,
                                std::string_view type, std::size_t value_bytes) {
  DEVCOL_ARROW_EXPECTS(field.dictionary.empty(), path, ": dictionary-encoded ", type,
                       " is not supported (decode it first)");
  DEVCOL_ARROW_EXPECTS(field.children.empty(), path, ".n_children is ", field.children.size(), ", a ", type,
                       " array has none");
  DEVCOL_ARROW_EXPECTS(array.n_buffers == 2, path, ".n_buffers is ", array.n_buffers, ", a ", type,
                       " array has 2 (validity, values)");
  DEVCOL_ARROW_EXPECTS(array.null_count <= 0 || array.buffers[0] != nullptr, path, ".null_count is ", array.null_count,
                       " without a validity buffer");
  std::uint64_t const rows = static_cast<std::uint64_t>(array.offset) + static_cast<std::uint64_t>(array.length);
  DEVCOL_ARROW_EXPECTS(value_bytes == 0 || rows <= SIZE_MAX / value_bytes, path, ": ", rows, " rows of ", value_bytes,
                       " bytes overflow");
  DEVCOL_ARROW_EXPECTS(rows == 0 || array.buffers[1] != nullptr, path, ".buffers[1] (values) is NULL for ", rows,
                       " rows");
}

/// Checks that an array (structure already checked) is a `T` array devcol can read.
template <arrow_fixed_width T>
void check_fixed_width(ArrowArray const& array, arrow_field const& field, std::string const& path) {
  DEVCOL_ARROW_EXPECTS(format_matches<T>(field.format), path, ".format '", field.format, "' is not ", type_name_v<T>,
                       " ('", arrow_format_v<T>, "')");
  check_values_layout(array, field, path, type_name_v<T>, type_traits<T>::arrow_bit_packed ? 0 : sizeof(T));
}

/// Owns an imported ArrowDeviceArray (moved in, as the specification's move semantics allow) and
/// calls its `release` exactly once, when the last column built over its memory is gone. The
/// producer may free the memory at once: on CUDA, the work devcol queued on the import's stream
/// (copies, unpacking, counts) is waited for first.
struct imported_array {
  ArrowDeviceArray device{};
  stream_ref stream;
  imported_array() = default;
  imported_array(imported_array const&) = delete;
  imported_array& operator=(imported_array const&) = delete;
  ~imported_array() {
    if (device.array.release == nullptr) { return; }
    wait_before_hand_back(stream);
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
  [[nodiscard]] std::shared_ptr<imported_array> take_array(stream_ref stream) {
    auto taken = std::make_shared<imported_array>();
    taken->stream = stream;
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
inline void check_device_array(ArrowDeviceArray const* array, arrow_field const& field) {
  DEVCOL_ARROW_EXPECTS(array != nullptr, "the ArrowDeviceArray is NULL");
  seen_nodes seen;
  check_array(&array->array, field, "array", 0, seen);
  expect_readable_device({array->device_type, array->device_id}, "array");
}

/// Checks the structs of a device array import and its device, and copies what the schema says.
/// Reads no buffer.
inline arrow_field check_device_import(ArrowSchema const* schema, ArrowDeviceArray const* array) {
  DEVCOL_ARROW_EXPECTS(schema != nullptr, "the ArrowSchema is NULL");
  DEVCOL_ARROW_EXPECTS(array != nullptr, "the ArrowDeviceArray is NULL");
  seen_nodes seen;
  arrow_field field = read_schema(schema, "schema", 0, seen);
  check_device_array(array, field);
  return field;
}

/**
 * @brief Bits [0, first + bits) of a producer's bitmap as a buffer devcol can read whole words of:
 * borrowed when `bitmap` is word-aligned and its bytes end on a word, or are known to be `padded`
 * (devcol reads whole 64-bit words, and the specification only recommends padding), else copied
 * into fresh words (one pass over the bitmap, 1/64 of the bytes of int64 values). If `shift`, bits
 * [first, first + bits) are moved to start at bit 0 (a copy).
 */
template <buffer_policy Policy>
buffer<Policy> import_bits(void const* bitmap, std::size_t first, std::size_t bits, bool shift, bool padded,
                           std::shared_ptr<void const> const& keep, stream_ref stream) {
  std::size_t const end = first + bits;
  std::size_t const word_bytes = words_for(end) * sizeof(bitmask_word);
  buffer<Policy> words;
  std::size_t const producer_bytes = (end + 7) / 8;  // what the producer's bitmap surely holds
  if (reinterpret_cast<std::uintptr_t>(bitmap) % sizeof(bitmask_word) == 0 && (padded || producer_bytes == word_bytes)) {
    words = buffer<Policy>::borrow(bitmap, word_bytes, keep, stream);
  } else {
    words = buffer<Policy>(word_bytes, stream);
    void* out = words.data(access::write, stream);
    fill_bytes(out, 0, word_bytes, stream);
    copy_bytes(out, bitmap, producer_bytes, stream);
  }
  if (!shift || first == 0) { return words; }
  std::size_t const bytes = bitmask_allocation_size(bits);
  buffer<Policy> shifted(bytes, stream);
  copy_bitmask(static_cast<bitmask_word const*>(words.data(access::read)), first, end,
               static_cast<bitmask_word*>(shifted.data(access::write, stream)), bytes, stream);
  return shifted;
}

/// Whether `array` is one devcol exported: its bitmaps hold whole words (devcol allocates them
/// padded to 64 bytes, and borrows others only when they end on a word).
inline bool exported_by_devcol(ArrowArray const& array) noexcept { return array.release == &release_array_node; }

/// Bit `first + i` of `words` as row i's bool.
struct unpack_bit {
  bitmask_word const* words;
  std::size_t first;
  DEVCOL_HOST_DEVICE bool operator()(std::size_t i) const noexcept { return bit_is_set(words, first + i); }
};

/**
 * @brief The validity of rows [first, first + rows) of a checked array, as every importer takes it:
 * no bitmap, no mask and 0 nulls; else the bitmap as import_bits takes it (moved to start at bit 0
 * if `shift`) and `null_count`, or when that is negative the nulls counted (one pass; synchronises).
 */
template <buffer_policy Policy>
std::pair<buffer<Policy>, std::size_t> import_validity(ArrowArray const& array, std::size_t first, std::size_t rows,
                                                       std::int64_t null_count, bool shift,
                                                       std::shared_ptr<void const> const& keep, stream_ref stream) {
  if (array.buffers[0] == nullptr) { return {}; }
  buffer<Policy> mask = import_bits<Policy>(array.buffers[0], first, rows, shift, exported_by_devcol(array), keep, stream);
  std::size_t const offset = shift ? 0 : first;
  std::size_t const nulls =
      null_count >= 0 ? static_cast<std::size_t>(null_count)
                      : count_unset_bits(static_cast<bitmask_word const*>(mask.data(access::read)), offset, offset + rows, stream);
  return {std::move(mask), nulls};
}

/**
 * @brief Rows [first, first + rows) of a checked array's buffers as a column. Values are borrowed
 * (no copy) unless they are bit-packed bools (unpacked, one pass) or misaligned for `T` (copied);
 * then the rows start at 0 and the validity bits are moved to match. `null_count` < 0: counted.
 */
template <fixed_width T, buffer_policy Policy>
column<T, Policy> import_column(ArrowArray const& array, std::size_t first, std::size_t rows, std::int64_t null_count,
                                std::shared_ptr<void const> const& keep, stream_ref stream) {
  using buffer_type = buffer<Policy>;
  void const* const values = array.buffers[1];
  constexpr bool packed = type_traits<T>::arrow_bit_packed;
  bool const shift = packed || reinterpret_cast<std::uintptr_t>(values) % alignof(T) != 0;
  buffer_type data;
  if constexpr (packed) {
    buffer_type bits = import_bits<Policy>(values, first, rows, false, exported_by_devcol(array), keep, stream);
    data = buffer_type(rows * sizeof(T), stream);
    executor exec(stream);
    thrust::transform(exec.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(rows),
                      static_cast<T*>(data.data(access::write, stream)),
                      unpack_bit{static_cast<bitmask_word const*>(bits.data(access::read)), first});
  } else if (shift) {  // misaligned values: copy the rows to aligned memory
    data = buffer_type(rows * sizeof(T), stream);
    copy_bytes(data.data(access::write, stream), static_cast<std::byte const*>(values) + first * sizeof(T),
               rows * sizeof(T), stream);
  } else {
    data = buffer_type::borrow(values, (first + rows) * sizeof(T), keep, stream);
  }
  auto [mask, nulls] = import_validity<Policy>(array, first, rows, null_count, shift, keep, stream);
  return column<T, Policy>(std::move(data), std::move(mask), rows, nulls, shift ? 0 : first);
}

/**
 * How `from_arrow<K>` imports a column kind `K` that is not a fixed-width `column<T>`: each kind's
 * interop header specialises it with `enabled = true` and
 *   static void check(ArrowArray const&, arrow_field const&, std::string const& path);  // structure only
 *   static K import(ArrowArray const&, arrow_field const&, std::shared_ptr<void const> const& keep, stream_ref);
 */
template <class K>
struct arrow_importer {
  static constexpr bool enabled = false;
};

}  // namespace detail

DEVCOL_NAMESPACE_END
