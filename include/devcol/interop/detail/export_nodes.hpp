/**
 * @file export_nodes.hpp
 * @brief The private data behind exported ArrowSchema and ArrowArray structs.
 *
 * Each exported struct owns one node; a node owns its children's structs and releases those the
 * consumer has not moved out (their `release` is still set). Nodes are built completely before
 * anything is written to the caller's structs, so a throwing export leaves them untouched and
 * leaks nothing.
 *
 * Its functions without template parameters of their own are `template <int = 0>`, for the reason
 * import_guard.hpp gives.
 */
#pragma once

#include <devcol/buffer/access.hpp>
#include <devcol/buffer/buffer.hpp>
#include <devcol/buffer/policy.hpp>
#include <devcol/buffer/spill_state.hpp>
#include <devcol/column/field_info.hpp>
#include <devcol/column/kind.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/copy.hpp>
#include <devcol/core/event.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/metadata.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN
namespace detail {

/// Releases `s` if its owner has not released or moved it.
template <class ArrowStruct>
void release_if_live(ArrowStruct& s) noexcept {
  if (s.release != nullptr) { s.release(&s); }
}

/// The children of an exported node: structs at stable addresses, and the pointer array naming them.
template <class ArrowStruct>
class export_children {
 public:
  explicit export_children(std::size_t n) : structs_(n), pointers_(n) {
    for (std::size_t i = 0; i < n; ++i) { pointers_[i] = &structs_[i]; }  // value-initialised: release == NULL
  }
  export_children(export_children const&) = delete;
  export_children& operator=(export_children const&) = delete;
  ~export_children() {
    for (auto& child : structs_) { release_if_live(child); }
  }
  [[nodiscard]] ArrowStruct* operator[](std::size_t i) noexcept { return &structs_[i]; }
  [[nodiscard]] std::size_t size() const noexcept { return structs_.size(); }
  [[nodiscard]] ArrowStruct** pointers() noexcept { return pointers_.empty() ? nullptr : pointers_.data(); }

 private:
  std::vector<ArrowStruct> structs_;
  std::vector<ArrowStruct*> pointers_;
};

/**
 * Throws devcol::logic_error unless `text`, a name or time zone that an ArrowSchema carries as a
 * NUL-terminated string, is free of NUL bytes: its consumer would read it cut short at the first
 * (two children "a\0b" and "a\0c" would both be "a"). The message shows each NUL as `\0`.
 */
template <int = 0>
void expect_no_nul(std::string_view text, char const* what) {
  std::size_t const nul = text.find('\0');
  if (nul == std::string_view::npos) [[likely]] { return; }
  std::string shown;
  for (char const c : text) { shown += c == '\0' ? std::string_view("\\0") : std::string_view(&c, 1); }
  DEVCOL_FAIL("to_arrow: the ", what, " \"", shown, "\" holds a NUL byte at ", nul,
              ", where an ArrowSchema's C string would end it");
}

/// An exported ArrowSchema's private data: its strings, children and dictionary (a dictionary-
/// encoded field's values, in a one-element export_children so that it is released with the node).
struct schema_node {
  std::string format;
  std::string name;
  std::string metadata;  // encoded (see metadata.hpp); empty: NULL
  export_children<ArrowSchema> children;
  std::unique_ptr<export_children<ArrowSchema>> dictionary;

  /// @throws devcol::logic_error when the name holds a NUL byte (expect_no_nul)
  template <int = 0>
  schema_node(std::string f, std::string n, std::size_t n_children)
      : format(std::move(f)), name(std::move(n)), children(n_children) {
    expect_no_nul(name, "field name");
  }
};

/**
 * The Arrow format of kind `K` when its schema is a leaf whose format the type alone fixes (every
 * fixed-width type, strings and binary, the views, null), else empty (a kind with children, or
 * whose format depends on the column: decimals, fixed-size binary). Each such kind's header
 * specialises it; schema_of builds those kinds' schemas from a table of it, indexed by the kind,
 * rather than through a function per kind.
 */
template <class K>
inline constexpr std::string_view leaf_format_v{};

/// The schema node of a kind without children: `format`, `name`. One body for every such kind,
/// so that each kind's entry in the schema dispatch is a call, not a node's construction.
/// @throws devcol::logic_error when the name holds a NUL byte, std::bad_alloc
template <int = 0>
std::unique_ptr<schema_node> leaf_schema(std::string_view format, std::string name) {
  return std::make_unique<schema_node>(std::string(format), std::move(name), 0);
}

template <int = 0>
void release_schema_node(ArrowSchema* schema) noexcept {
  delete static_cast<schema_node*>(schema->private_data);
  schema->release = nullptr;
}

/// Writes `node` into `out`, which owns it from now on. Never throws.
template <int = 0>
void publish(std::unique_ptr<schema_node> node, std::int64_t flags, ArrowSchema* out) noexcept {
  *out = ArrowSchema{};
  out->format = node->format.c_str();
  out->name = node->name.c_str();
  out->metadata = node->metadata.empty() ? nullptr : node->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<std::int64_t>(node->children.size());
  out->children = node->children.pointers();
  out->dictionary = node->dictionary != nullptr ? (*node->dictionary)[0] : nullptr;
  out->release = &release_schema_node<>;
  out->private_data = node.release();
}

/**
 * Writes into a published schema (devcol's own: its private data is a schema_node) what `info`
 * says that fits it: flags, metadata, the time zone of a timestamp, the names of children when
 * `info` has as many (and the top name when `set_name`), recursively into children and dictionary.
 * Never reads device memory.
 * @throws std::bad_alloc, devcol::logic_error (metadata too large, a name or time zone holding a
 * NUL byte); the schema stays valid
 */
template <int = 0>
void apply_field_info(ArrowSchema& schema, field_info const& info, bool set_name) {
  auto& node = *static_cast<schema_node*>(schema.private_data);
  bool const zoned = !info.time_zone.empty() && node.format.size() == 4 && node.format.starts_with("ts") &&
                     node.format[3] == ':';
  if (zoned) { expect_no_nul(info.time_zone, "time zone"); }
  if (set_name) { expect_no_nul(info.name, "field name"); }
  if (zoned) {
    node.format += info.time_zone;
    schema.format = node.format.c_str();
  }
  if (set_name) {
    node.name = info.name;
    schema.name = node.name.c_str();
  }
  std::int64_t flags = info.nullable ? ARROW_FLAG_NULLABLE : 0;
  if (info.ordered && schema.dictionary != nullptr) { flags |= ARROW_FLAG_DICTIONARY_ORDERED; }
  if (info.keys_sorted && node.format == "+m") { flags |= ARROW_FLAG_MAP_KEYS_SORTED; }
  schema.flags = flags;
  node.metadata = encode_metadata(info.metadata);
  schema.metadata = node.metadata.empty() ? nullptr : node.metadata.data();
  if (info.children.size() == node.children.size()) {
    for (std::size_t i = 0; i < info.children.size(); ++i) {
      apply_field_info(*node.children[i], info.children[i], true);
    }
  }
  if (schema.dictionary != nullptr && info.dictionary.size() == 1) {
    apply_field_info(*schema.dictionary, info.dictionary.front(), true);
  }
}

/// An exported ArrowArray's private data: the buffer pointers, the children, the event a device
/// export's consumer waits on, and (in a derived node) what keeps the memory alive.
struct array_node {
  std::int64_t length = 0;
  std::int64_t null_count = 0;
  std::int64_t offset = 0;
  std::array<void const*, 3> buffers{};  // validity and values; variable-width: validity, offsets, data
  std::vector<void const*> variadic_buffers;  // when not empty, every buffer instead (a view array's N + 3)
  std::int64_t n_buffers = 0;
  export_children<ArrowArray> children;
  std::unique_ptr<export_children<ArrowArray>> dictionary;  // a dictionary array's values, or none
  std::optional<event> ready;  // recorded after the last write (CUDA); its handle is what sync_event points to
  event::value_type ready_handle{};
  spill_pins pins;  // spillable memory this subtree points to, held on the device until released

  template <int = 0>
  explicit array_node(std::size_t n_children) : children(n_children) {}
  array_node(array_node const&) = delete;
  array_node& operator=(array_node const&) = delete;
  virtual ~array_node() = default;
};

/// What an export of a column kind `C` keeps: a handle on the column (or on a snapshot of it) and
/// one buffer the export made for it, or none: bool's bit-packed values, or what stands in for the
/// buffers of a column without them (Arrow wants an offset, and non-NULL data).
template <class C>
struct exported {
  C col;
  buffer<typename C::policy> made;
};

/// Says in `node` what every kind's array says of its rows: `col`'s length and null count, the
/// Arrow offset `offset`, and `n_buffers` buffers, the first being `mask` (null without one).
template <class C>
void describe_rows(array_node& node, C const& col, std::size_t offset, void const* mask, std::int64_t n_buffers) {
  node.length = static_cast<std::int64_t>(col.size());
  node.null_count = static_cast<std::int64_t>(col.null_count());
  node.offset = static_cast<std::int64_t>(offset);
  node.n_buffers = n_buffers;
  node.buffers[0] = mask;
}

/// An array node that also holds `Kept` (the column handles whose memory the array points to).
template <class Kept>
struct holding_array_node final : array_node {
  Kept kept;
  holding_array_node(std::size_t n_children, Kept k) : array_node(n_children), kept(std::move(k)) {}
};

/// Makes `node` a new node with `n_children` children that holds `kept`, and returns what it holds.
/// Owned through the base pointer from the start, so that a kind's export instantiates no
/// `std::unique_ptr` of its own node type. Throws std::bad_alloc (`node` unchanged then).
template <class Kept>
Kept const& hold_in(std::unique_ptr<array_node>& node, std::size_t n_children, Kept kept) {
  auto* made = new holding_array_node<Kept>(n_children, std::move(kept));
  node.reset(made);
  return made->kept;
}

template <int = 0>
void release_array_node(ArrowArray* array) noexcept {
  delete static_cast<array_node*>(array->private_data);
  array->release = nullptr;
}

/// Writes `node` into `out`, which owns it from now on. Never throws.
template <int = 0>
void publish(std::unique_ptr<array_node> node, ArrowArray* out) noexcept {
  *out = ArrowArray{};
  out->length = node->length;
  out->null_count = node->null_count;
  out->offset = node->offset;
  out->n_buffers = node->n_buffers;
  out->n_children = static_cast<std::int64_t>(node->children.size());
  out->buffers = node->variadic_buffers.empty() ? node->buffers.data() : node->variadic_buffers.data();
  out->children = node->children.pointers();
  out->dictionary = node->dictionary != nullptr ? (*node->dictionary)[0] : nullptr;
  out->release = &release_array_node<>;
  out->private_data = node.release();
}

/**
 * The array node of a nested kind (a list, list view, fixed-size list, struct, union or run-end
 * encoded column), its children to be added: `rows` rows from row `offset`, `null_count` nulls,
 * and `n_own` own buffers at `own` (the mask first when `masked`; not a child's, nor run ends). It
 * holds an alias of each, or, for each one that is exposed, or every one when one that is not
 * empty does not copy on write (writes through other handles would reach it), a fresh copy of the
 * whole buffer made in order on `stream`: offsets keep their values, so the children stay whole.
 * When `stand_in` is not empty (a column without buffers: Arrow still wants one offset or type
 * id), the array points every own buffer but the mask that is empty at it, from offset 0. One body
 * for every such kind, offset width and list size. Nothing synchronises.
 * @throws what allocation and copying throw
 */
template <buffer_policy Policy>
std::unique_ptr<array_node> export_own_buffers(std::array<buffer<Policy> const*, 3> const& own, std::size_t n_own,
                                               bool masked, std::size_t rows, std::size_t null_count,
                                               std::size_t offset, std::size_t n_children, buffer<Policy> stand_in,
                                               stream_ref stream) {
  bool shared_writes = false;
  for (std::size_t i = 0; i < n_own; ++i) {
    shared_writes = shared_writes || (!own[i]->empty() && !own[i]->copy_on_write());
  }
  // What the node holds: the own buffers as exported, then the stand-in.
  std::array<buffer<Policy>, 4> kept;
  for (std::size_t i = 0; i < n_own; ++i) {
    buffer<Policy> const& from = *own[i];
    kept[i] = !from.empty() && (shared_writes || from.is_exposed()) ? from.deep_copy(stream) : from.alias();
  }
  bool const stands_in = !stand_in.empty();
  kept[n_own] = std::move(stand_in);
  std::unique_ptr<array_node> node;
  auto const& held = hold_in(node, n_children, std::move(kept));
  node->length = static_cast<std::int64_t>(rows);
  node->null_count = static_cast<std::int64_t>(null_count);
  node->offset = stands_in ? 0 : static_cast<std::int64_t>(offset);
  node->n_buffers = static_cast<std::int64_t>(n_own);
  for (std::size_t i = 0; i < n_own; ++i) {
    bool const stood_in = held[i].empty() && !(masked && i == 0);
    node->buffers[i] = (stood_in ? held[n_own] : held[i]).data(access::read);
  }
  return node;
}

/**
 * What an export of `col`, a kind without children (strings, binary views, fixed-size binary),
 * holds on to: a handle on `col` (O(1); under copy-on-write a later write through the caller's
 * column copies first, rule 3: a write to memory another handle holds gives the writer its own
 * copy), or a snapshot (`deep_copy`: a copy of its rows, one synchronisation) when others may write
 * its memory (exposed, or a policy without copy-on-write), since Arrow requires exported memory
 * not to change. Nested kinds export their own buffers instead (export_own_buffers), their
 * children each by its own kind.
 */
template <class C>
  requires(!is_nested_kind<C>)
C export_handle(C const& col, stream_ref stream) {
  return !col.copy_on_write() || col.is_exposed() ? col.deep_copy(stream) : col;
}

/// `bytes` zeroed bytes from `resource`, in order on `stream`: what the export of a column without
/// buffers points its offsets (and data) at, since Arrow wants one offset even for no rows.
template <buffer_policy Policy, class Resource>
buffer<Policy> zeroed_export_buffer(std::size_t bytes, Resource const& resource, stream_ref stream) {
  buffer<Policy> zeros(bytes, stream, mr::default_alignment, resource);
  fill_bytes(zeros.data(access::write, stream), 0, bytes, stream);
  return zeros;
}

/// Records on `stream` the event consumers of a device export wait on (CUDA only).
template <int = 0>
void record_ready(array_node& node, stream_ref stream) {
#if DEVCOL_BACKEND_CUDA
  node.ready.emplace();
  node.ready->record(stream);
  node.ready_handle = node.ready->value();
#else
  (void)node;
  (void)stream;
#endif
}

/// Publishes a complete export: the schema, then the device array around `node`. Never throws.
/// (No schema when `schema_tree` is null: a stream's arrays share the stream's schema.)
template <int = 0>
void publish_device_array(std::unique_ptr<schema_node> schema_tree, std::int64_t schema_flags,
                                 std::unique_ptr<array_node> node, arrow_device device, ArrowSchema* schema,
                                 ArrowDeviceArray* array) noexcept {
  void* const sync_event = node->ready ? static_cast<void*>(&node->ready_handle) : nullptr;
  if (schema_tree != nullptr) { publish(std::move(schema_tree), schema_flags, schema); }
  *array = ArrowDeviceArray{};  // reserved bytes zeroed
  publish(std::move(node), &array->array);
  array->device_id = device.id;
  array->device_type = device.type;
  array->sync_event = sync_event;
}

/// @throws devcol::logic_error naming `what` when either struct to export into is null
template <int = 0>
void expect_outputs(void const* schema, void const* array, char const* what) {
  DEVCOL_EXPECTS(schema != nullptr && array != nullptr, what, ": the ArrowSchema (", schema,
                 ") and ArrowDeviceArray (", array, ") to export into must not be null");
}

}  // namespace detail
DEVCOL_NAMESPACE_END
