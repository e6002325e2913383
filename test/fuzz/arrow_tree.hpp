// The import fuzzer's input format: bytes that describe an ArrowSchema / ArrowDeviceArray tree
// (read by `tree_reader`, built on the CPU with every buffer allocated exactly to the size its
// stated offset and length require), and the writer that encodes a real export in that format
// (for the seed corpus). Missing input bytes read as zero, so every byte string is an input.
//
// Input: mode, type, device, tweaks, [batches when mode is stream], then the node(s):
//   node := format (code, or 0xFF len bytes), name (len bytes), flags, length (u16), offset (u16),
//           null count code, child count, [buffer count], per buffer: flags [u16 size] [content],
//           children nodes, [dictionary node], [extra array child node]
#pragma once

#include "arrow_formats.hpp"

#include <devcol/interop/arrow_abi.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace devcol_fuzz {

/// How many times one struct's release was called (kept by the harness until the input is done).
struct release_count {
  int calls = 0;
};

inline constexpr std::uint8_t raw_format = 0xFF;
inline constexpr int max_depth = 6;
inline constexpr std::int64_t max_rows = 4096;   // bound of a length and of an offset, so buffers stay small
inline constexpr std::size_t max_raw_bytes = 4096;

// Node flags.
inline constexpr std::uint8_t flag_nullable = 1 << 0;
inline constexpr std::uint8_t flag_dictionary = 1 << 1;
inline constexpr std::uint8_t flag_buffer_count = 1 << 2;   // a stated buffer count follows
inline constexpr std::uint8_t flag_child_mismatch = 1 << 3; // the array has one child more than the schema
inline constexpr std::uint8_t flag_null_buffers = 1 << 4;   // ArrowArray::buffers is NULL
inline constexpr std::uint8_t flag_repeat_child = 1 << 5;   // the last child pointer repeats the first
inline constexpr std::uint8_t flag_array_released = 1 << 6;
inline constexpr std::uint8_t flag_schema_released = 1 << 7;
// Buffer flags.
inline constexpr std::uint8_t buffer_null = 1 << 0;
inline constexpr std::uint8_t buffer_misaligned = 1 << 1;  // starts one byte into its allocation
inline constexpr std::uint8_t buffer_content = 1 << 2;     // content bytes follow (else 0xFF bytes)

/// Reads the input; past its end every read gives zero.
class byte_reader {
 public:
  byte_reader(std::uint8_t const* data, std::size_t size) noexcept : data_(data), size_(size) {}
  std::uint8_t u8() noexcept { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() noexcept { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  void bytes(void* out, std::size_t n) noexcept {
    auto* o = static_cast<std::uint8_t*>(out);
    for (std::size_t i = 0; i < n; ++i) { o[i] = u8(); }
  }
  /// Where the next read is, to read the same bytes again (see seek()).
  [[nodiscard]] std::size_t position() const noexcept { return pos_; }
  void seek(std::size_t pos) noexcept { pos_ = pos; }
  std::string str(std::size_t n) {
    std::string s(n, '\0');
    bytes(s.data(), n);
    return s;
  }

 private:
  std::uint8_t const* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// A length or offset: u16, high bit set for the special values that every importer must refuse.
inline std::int64_t decode_extent(std::uint16_t v, bool allow_max) {
  if ((v & 0x8000) == 0) { return v % (max_rows + 1); }
  switch (v & 0x7FFF) {
    case 0: return std::numeric_limits<std::int64_t>::min();
    // INT64_MAX only as an offset beside a positive length: their sum overflows, so it must be
    // refused. Any other huge extent would be one the harness cannot back with real buffers.
    case 1: return allow_max ? std::numeric_limits<std::int64_t>::max() : -1;
    default: return -static_cast<std::int64_t>(v & 0x7FFF);
  }
}

/// The producer's side of one array node: its buffers and children, freed by its release.
struct array_private {
  std::vector<std::unique_ptr<std::byte[]>> storage;
  std::vector<void const*> buffers;
  std::vector<ArrowArray*> child_pointers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::unique_ptr<ArrowArray> dictionary;
  release_count* count = nullptr;
  ~array_private() {
    for (auto& c : children) {
      if (c->release != nullptr) { c->release(c.get()); }
    }
    if (dictionary && dictionary->release != nullptr) { dictionary->release(dictionary.get()); }
  }
};

struct schema_private {
  std::string format, name;
  std::vector<ArrowSchema*> child_pointers;
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::unique_ptr<ArrowSchema> dictionary;
  release_count* count = nullptr;
  ~schema_private() {
    for (auto& c : children) {
      if (c->release != nullptr) { c->release(c.get()); }
    }
    if (dictionary && dictionary->release != nullptr) { dictionary->release(dictionary.get()); }
  }
};

inline void release_array(ArrowArray* a) {
  auto* p = static_cast<array_private*>(a->private_data);
  ++p->count->calls;
  a->release = nullptr;
  delete p;  // a second call through a stale copy is a use after free (ASan)
}
inline void release_schema(ArrowSchema* s) {
  auto* p = static_cast<schema_private*>(s->private_data);
  ++p->count->calls;
  s->release = nullptr;
  delete p;
}

/// Builds trees from the input. Owns the release counters and the nodes built already released.
class tree_reader {
 public:
  explicit tree_reader(byte_reader& in) : in_(in) {}

  /// Reads one node into `schema` and `array` (both live, with the harness's release callbacks).
  void node(ArrowSchema& schema, ArrowArray& array, int depth = 0) {
    auto sp = std::make_unique<schema_private>();
    auto ap = std::make_unique<array_private>();
    std::uint8_t const code = in_.u8();
    sp->format = code < formats.size() ? std::string(formats[code]) : in_.str(in_.u8() % 33);
    // The consumer reads the format as a C string, up to its first NUL: the buffers are sized for
    // that format, not for the raw bytes ("tDu\0..." is a duration, whose rows the import reads).
    sp->format.erase(std::min(sp->format.find('\0'), sp->format.size()));
    sp->name = in_.str(in_.u8() % 17);
    std::uint8_t const flags = in_.u8();
    std::int64_t const length = decode_extent(in_.u16(), false);
    std::int64_t offset = decode_extent(in_.u16(), length > 0);
    std::uint8_t const nulls_code = in_.u8();
    // Wide at the root (a table of many columns), narrow below (trees stay small).
    std::size_t const n_children = depth < max_depth ? in_.u8() % (depth == 0 ? 33 : 5) : 0;
    layout const lay = layout_of(sp->format);
    int n_buffers = lay.k == kind::unknown ? in_.u8() % 4 : lay.buffers;
    if ((flags & flag_buffer_count) != 0) { n_buffers = in_.u8() % 6; }
    // Sizes exist only for a sane extent; an importer must refuse the others before reading.
    bool const sane = length >= 0 && offset >= 0 && offset <= max_rows;
    std::size_t const rows = sane ? static_cast<std::size_t>(offset + length) : 0;
    for (int i = 0; i < n_buffers; ++i) {
      std::uint8_t const bflags = in_.u8();
      std::size_t size = 0;
      if (lay.k == kind::unknown || i >= lay.buffers) {
        size = in_.u16() % (max_raw_bytes + 1);
      } else if (i == 0 && lay.k != kind::null && !has_no_validity(lay.k)) {
        size = (rows + 7) / 8;  // validity bits
      } else {
        size = buffer_size(lay, i, rows, ap.get());
      }
      if ((bflags & buffer_null) != 0) {
        ap->buffers.push_back(nullptr);
        continue;
      }
      std::size_t const shift = (bflags & buffer_misaligned) != 0 ? 1 : 0;
      auto storage = std::make_unique<std::byte[]>(size + shift);
      std::byte* p = storage.get() + shift;
      if ((bflags & buffer_content) != 0) {
        in_.bytes(p, size);
      } else {
        std::memset(p, 0xFF, size);
      }
      if (lay.k == kind::offsets32 || lay.k == kind::offsets64) { fix_last_offset(lay, i, rows, p, size); }
      ap->buffers.push_back(p);
      ap->storage.push_back(std::move(storage));
    }
    std::int64_t null_count = 0;
    switch (nulls_code) {
      case 0: null_count = 0; break;
      case 1: null_count = -1; break;
      case 2: null_count = length; break;
      case 3: null_count = length + 1; break;
      case 4: null_count = std::numeric_limits<std::int64_t>::min(); break;
      case 5:  // only where buffer 0 was sized as a validity bitmap
        null_count = lay.k != kind::unknown && lay.k != kind::null && !has_no_validity(lay.k)
                         ? count_nulls(ap.get(), offset, length, sane)
                         : 0;
        break;
      default: null_count = nulls_code - 6; break;
    }
    for (std::size_t i = 0; i < n_children; ++i) {
      auto cs = std::make_unique<ArrowSchema>();
      auto ca = std::make_unique<ArrowArray>();
      node(*cs, *ca, depth + 1);
      sp->child_pointers.push_back(cs.get());
      ap->child_pointers.push_back(ca.get());
      sp->children.push_back(std::move(cs));
      ap->children.push_back(std::move(ca));
    }
    if ((flags & flag_dictionary) != 0 && depth < max_depth) {
      sp->dictionary = std::make_unique<ArrowSchema>();
      ap->dictionary = std::make_unique<ArrowArray>();
      node(*sp->dictionary, *ap->dictionary, depth + 1);
    }
    if ((flags & flag_child_mismatch) != 0 && depth < max_depth) {
      ArrowSchema extra_schema{};
      auto ca = std::make_unique<ArrowArray>();
      node(extra_schema, *ca, depth + 1);
      if (extra_schema.release != nullptr) { extra_schema.release(&extra_schema); }
      ap->child_pointers.push_back(ca.get());
      ap->children.push_back(std::move(ca));
    }
    if ((flags & flag_repeat_child) != 0) {
      if (!ap->child_pointers.empty()) { ap->child_pointers.back() = ap->child_pointers.front(); }
      if (!sp->child_pointers.empty()) { sp->child_pointers.back() = sp->child_pointers.front(); }
    }

    schema = ArrowSchema{};
    schema.format = sp->format.c_str();
    schema.name = sp->name.c_str();
    schema.flags = (flags & flag_nullable) != 0 ? ARROW_FLAG_NULLABLE : 0;
    schema.n_children = static_cast<std::int64_t>(sp->child_pointers.size());
    schema.children = sp->child_pointers.empty() ? nullptr : sp->child_pointers.data();
    schema.dictionary = sp->dictionary.get();
    sp->count = counters_.emplace_back(std::make_unique<release_count>()).get();

    array = ArrowArray{};
    array.length = length;
    array.offset = offset;
    array.null_count = null_count;
    array.n_buffers = n_buffers;
    array.buffers = (flags & flag_null_buffers) != 0 || ap->buffers.empty() ? nullptr : ap->buffers.data();
    array.n_children = static_cast<std::int64_t>(ap->child_pointers.size());
    array.children = ap->child_pointers.empty() ? nullptr : ap->child_pointers.data();
    array.dictionary = ap->dictionary.get();
    ap->count = counters_.emplace_back(std::make_unique<release_count>()).get();

    // A node built released keeps its memory with the reader: nobody may call its release.
    if ((flags & flag_schema_released) != 0) {
      schema.private_data = nullptr;
      released_schemas_.push_back(std::move(sp));
    } else {
      schema.private_data = sp.release();
      schema.release = &release_schema;
    }
    if ((flags & flag_array_released) != 0) {
      array.private_data = nullptr;
      released_arrays_.push_back(std::move(ap));
    } else {
      array.private_data = ap.release();
      array.release = &release_array;
    }
  }

 private:
  // Whether the layout's buffer 0 is not a validity bitmap (unions: their type ids).
  static bool has_no_validity(kind k) { return k == kind::sparse_union || k == kind::dense_union; }
  // Buffers after the validity bitmap, as the layout requires them for rows [0, rows).
  static std::size_t buffer_size(layout const& lay, int i, std::size_t rows, array_private const* ap) {
    switch (lay.k) {
      case kind::fixed: return rows * lay.bytes;
      case kind::bits: return (rows + 7) / 8;
      case kind::offsets32:
      case kind::list32:
        if (i == 1) { return (rows + 1) * 4; }
        return last_offset(ap, rows, 4);
      case kind::offsets64:
      case kind::list64:
        if (i == 1) { return (rows + 1) * 8; }
        return last_offset(ap, rows, 8);
      case kind::list_view32: return rows * 4;  // offsets, then sizes
      case kind::list_view64: return rows * 8;
      case kind::sparse_union:
      case kind::dense_union: return i == 0 ? rows : rows * 4;  // type ids, then (dense) offsets
      default: return 0;
    }
  }
  // The data buffer's size: the last offset, which fix_last_offset() kept within bounds.
  static std::size_t last_offset(array_private const* ap, std::size_t rows, std::size_t width) {
    if (ap->buffers.size() < 2 || ap->buffers[1] == nullptr) { return 0; }
    auto const* p = static_cast<std::byte const*>(ap->buffers[1]) + rows * width;
    if (width == 4) {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v < 0 ? 0 : static_cast<std::size_t>(v);
    }
    std::int64_t v;
    std::memcpy(&v, p, 8);
    return v < 0 ? 0 : static_cast<std::size_t>(v);
  }
  // The offset that ends the last row says how long the data buffer is: keep it small, so the
  // buffer the harness allocates is exactly as long as the offsets say.
  static void fix_last_offset(layout const& lay, int i, std::size_t rows, std::byte* p, std::size_t size) {
    std::size_t const width = lay.k == kind::offsets32 || lay.k == kind::list32 ? 4 : 8;
    if (i != 1 || size < (rows + 1) * width) { return; }
    std::byte* last = p + rows * width;
    if (width == 4) {
      std::int32_t v;
      std::memcpy(&v, last, 4);
      if (v < 0 || v > static_cast<std::int32_t>(max_raw_bytes)) { v = static_cast<std::int32_t>(static_cast<std::uint32_t>(v) % (max_raw_bytes + 1)); }
      std::memcpy(last, &v, 4);
    } else {
      std::int64_t v;
      std::memcpy(&v, last, 8);
      if (v < 0 || v > static_cast<std::int64_t>(max_raw_bytes)) { v = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) % (max_raw_bytes + 1)); }
      std::memcpy(last, &v, 8);
    }
  }
  // The true null count of rows [offset, offset + length) when there is a validity bitmap.
  static std::int64_t count_nulls(array_private const* ap, std::int64_t offset, std::int64_t length, bool sane) {
    if (!sane || ap->buffers.empty() || ap->buffers[0] == nullptr) { return 0; }
    auto const* bits = static_cast<std::uint8_t const*>(ap->buffers[0]);
    std::int64_t n = 0;
    for (std::int64_t i = offset; i < offset + length; ++i) { n += ((bits[i / 8] >> (i % 8)) & 1) == 0 ? 1 : 0; }
    return n;
  }

 public:
  /// Every release counter made, in order of making.
  std::vector<std::unique_ptr<release_count>> counters_;

 private:
  byte_reader& in_;
  std::vector<std::unique_ptr<schema_private>> released_schemas_;
  std::vector<std::unique_ptr<array_private>> released_arrays_;
};

/// Encodes a (valid) exported tree in the input format: the seed corpus's writer.
class tree_writer {
 public:
  std::vector<std::uint8_t> bytes;

  void u8(std::uint8_t v) { bytes.push_back(v); }
  void u16(std::uint16_t v) {
    u8(static_cast<std::uint8_t>(v & 0xFF));
    u8(static_cast<std::uint8_t>(v >> 8));
  }

  void node(ArrowSchema const& schema, ArrowArray const& array) {
    std::string_view const format = schema.format;
    auto const at = std::find(formats.begin(), formats.end(), format);
    if (at != formats.end()) {
      u8(static_cast<std::uint8_t>(at - formats.begin()));
    } else {
      u8(raw_format);
      u8(static_cast<std::uint8_t>(format.size()));
      bytes.insert(bytes.end(), format.begin(), format.end());
    }
    std::string_view const name = schema.name != nullptr ? schema.name : "";
    u8(static_cast<std::uint8_t>(name.size()));
    bytes.insert(bytes.end(), name.begin(), name.end());
    u8((schema.flags & ARROW_FLAG_NULLABLE) != 0 ? flag_nullable : 0);
    u16(static_cast<std::uint16_t>(array.length));
    u16(static_cast<std::uint16_t>(array.offset));
    u8(array.null_count < 0 ? 1 : array.null_count + 6 <= 255 ? static_cast<std::uint8_t>(array.null_count + 6) : 5);
    u8(static_cast<std::uint8_t>(array.n_children));
    layout const lay = layout_of(format);
    if (lay.k == kind::unknown) { u8(static_cast<std::uint8_t>(array.n_buffers)); }
    auto const rows = static_cast<std::size_t>(array.offset + array.length);
    for (std::int64_t i = 0; i < array.n_buffers; ++i) {
      void const* b = array.buffers[i];
      std::size_t size = lay.k == kind::sparse_union || lay.k == kind::dense_union ? (i == 0 ? rows : rows * 4)
                         : i == 0                 ? (rows + 7) / 8
                         : lay.k == kind::fixed   ? rows * lay.bytes
                                                  : (rows + 7) / 8;
      if (b == nullptr) {
        u8(buffer_null);
        continue;
      }
      u8(buffer_content);
      auto const* p = static_cast<std::uint8_t const*>(b);
      bytes.insert(bytes.end(), p, p + size);
    }
    for (std::int64_t i = 0; i < array.n_children; ++i) { node(*schema.children[i], *array.children[i]); }
  }
};

}  // namespace devcol_fuzz
