/**
 * @file arrow_stream.hpp
 * @brief Tables as an `ArrowDeviceArrayStream`, and back.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/column/table.hpp>
#include <devcol/core/callback.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/detail/retired_streams.hpp>
#include <devcol/core/device.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/detail/device.hpp>
#include <devcol/interop/detail/import_guard.hpp>
#include <devcol/interop/detail/kinds.hpp>
#include <devcol/interop/detail/record_batch.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <cerrno>
#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief What an exported stream calls for its next table: one, or nothing at the end.
/// @tparam Policy the tables' buffer policy
template <buffer_policy Policy = default_policy>
using table_source = callback<std::optional<basic_table<Policy>>()>;

namespace detail {

/// An exported stream's private data: the schema every batch must have, where batches come from,
/// and the last error's message.
template <buffer_policy Policy>
struct stream_state {
  basic_table<Policy> schema;  // zero rows: only names and types matter
  table_source<Policy> next;
  stream_ref stream;
  device_id stream_device;  // current at to_arrow_stream: `stream`'s device (the default stream is each device's own)
  ArrowDeviceType device_type;
  std::size_t produced = 0;
  bool ended = false;  // `next` returned nothing: it is not called again, whatever it would return
  std::string last_error;

  /// Runs `f`, turning an exception into an errno and a message (callbacks must not throw).
  template <class F>
  int guarded(F&& f) noexcept {
    try {
      f();
      last_error.clear();
      return 0;
    } catch (std::bad_alloc const& e) {
      return failed(ENOMEM, e.what());
    } catch (std::exception const& e) {
      return failed(EINVAL, e.what());
    } catch (...) {
      return failed(EIO, "unknown exception");
    }
  }
  /// Keeps `what` (copied while the exception lives) for get_last_error, and returns `code`.
  int failed(int code, char const* what) noexcept {
    try {
      last_error = what;
    } catch (...) {
      last_error.clear();  // no memory for the message: get_last_error says nothing
    }
    return code;
  }

  static std::string type_of(any_column<Policy> const& col) { return devcol::type_name(col); }

  /// Throws unless `batch` has the stream's column names and types, in order.
  void expect_schema(basic_table<Policy> const& batch) const {
    DEVCOL_EXPECTS(batch.num_columns() == schema.num_columns(), "stream batch ", produced, " has ", batch.num_columns(),
                   " columns, the stream's schema ", schema.num_columns());
    for (std::size_t i = 0; i < batch.num_columns(); ++i) {
      DEVCOL_EXPECTS(batch.name(i) == schema.name(i) && devcol::type_name(batch[i]) == devcol::type_name(schema[i]), "stream batch ", produced,
                     ": column ", i, " is '", batch.name(i), "' ", type_of(batch[i]), ", the stream's schema has '",
                     schema.name(i), "' ", type_of(schema[i]));
    }
  }

  static stream_state& of(ArrowDeviceArrayStream* self) noexcept { return *static_cast<stream_state*>(self->private_data); }

  static int get_schema(ArrowDeviceArrayStream* self, ArrowSchema* out) noexcept {
    auto& state = of(self);
    return state.guarded([&] { to_arrow_schema(state.schema, out); });
  }
  static int get_next(ArrowDeviceArrayStream* self, ArrowDeviceArray* out) noexcept {
    auto& state = of(self);
    return state.guarded([&] {
      if (state.ended) {
        *out = ArrowDeviceArray{};
        return;
      }
      // Rule 21, as to_arrow(table): the consumer may call from any thread, with any device
      // current (a new thread's is 0), and the export's event and copies belong to the batch's
      // device. Made current once the batch is known, until after the spill lock has ordered the
      // batch's owners after the export (which records an event on the export's stream).
      std::optional<scoped_device> on_device;
      // The stream is noted as the export's device's: the consumer's device may be current now.
      operation_spill_lock<Policy> const spill_scope{live_stream(state.stream), state.stream_device};  // the user's `next` runs under it too
      std::optional<basic_table<Policy>> batch = state.next();
      if (!batch) {
        *out = ArrowDeviceArray{};  // the end: a released array, and from now on only that
        state.ended = true;
        state.next = nullptr;  // what the source holds goes now, not when the consumer releases the stream
        return;
      }
      state.expect_schema(*batch);
      (void)on_device.emplace(batch->num_columns() != 0 ? column_device((*batch)[std::size_t{0}]) : state.stream_device);
      ArrowDeviceArray exported;
      export_table_array(*batch, &exported, live_stream(state.stream));
      if (exported.device_type != state.device_type) {
        exported.array.release(&exported.array);
        DEVCOL_FAIL("stream batch ", state.produced, " is on ", arrow_device_name(exported.device_type),
                    " memory, the stream on ", arrow_device_name(state.device_type));
      }
      *out = exported;
      ++state.produced;
    });
  }
  static char const* get_last_error(ArrowDeviceArrayStream* self) noexcept {
    auto const& state = of(self);
    return state.last_error.empty() ? nullptr : state.last_error.c_str();
  }
  static void release(ArrowDeviceArrayStream* self) noexcept {
    delete static_cast<stream_state*>(self->private_data);
    self->release = nullptr;
  }
};

}  // namespace detail

/**
 * @brief Exports a stream of tables: each `get_next` calls `next` and exports the table it returns
 * as to_arrow(table) does (zero-copy, its own `release` and `sync_event`), or ends the stream (a
 * released array) when it returns nothing; `next` is then destroyed and never called again, and
 * every later `get_next` gives a released array. Every batch must have `schema`'s column names and
 * types (its rows do not matter) and live on the stream's device type: one that does not makes
 * `get_next` return EINVAL, with the reason from `get_last_error`; errors inside `next` do the same
 * (ENOMEM for allocation). The caller owns `out` and releases it, early or at the end; `next` is
 * destroyed then, if the end has not come first. Device type: where `schema`'s memory is (CPU on
 * the host backend; CUDA with an empty schema).
 * Exporting costs what to_arrow(table) costs for each batch, when the consumer asks for it.
 * @tparam Policy the tables' buffer policy
 * @param schema a table with the stream's column names and types (its rows are not exported)
 * @param next where batches come from (a lambda or any callable returning
 * `std::optional<basic_table<Policy>>`); destroyed when `out` is released
 * @param out where the stream is written (not null)
 * @param stream the stream each batch's export runs on (its `sync_event` is recorded there)
 * @throws devcol::logic_error (null output or source, a schema the consumer could not be given: its
 * Arrow schema is made once here, on the host, and dropped), std::bad_alloc; `out` is written only
 * on success
 */
template <buffer_policy Policy>
void to_arrow_stream(basic_table<Policy> schema, std::type_identity_t<table_source<Policy>> next,
                     ArrowDeviceArrayStream* out, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS(out != nullptr, "to_arrow_stream: the ArrowDeviceArrayStream to export into is null");
  DEVCOL_EXPECTS(next != nullptr, "to_arrow_stream: no table source");
  {  // What get_schema would refuse (a name with a NUL byte) is refused now, before `out` is written.
    ArrowSchema checked{};
    to_arrow_schema(schema, &checked);
    checked.release(&checked);
  }
  ArrowDeviceType const type = schema.num_columns() == 0
                                   ? detail::device_of(static_cast<void const*>(nullptr)).type
                                   : detail::device_of(schema[0]).type;
  using state_type = detail::stream_state<Policy>;
  auto state = std::make_unique<state_type>(state_type{std::move(schema), std::move(next), stream, current_device(), type, 0, false, {}});
  *out = ArrowDeviceArrayStream{};
  out->device_type = type;
  out->get_schema = &state_type::get_schema;
  out->get_next = &state_type::get_next;
  out->get_last_error = &state_type::get_last_error;
  out->release = &state_type::release;
  out->private_data = state.release();
}

/**
 * @brief Exports `batches` as a stream, in order; the first gives the schema. The tables are moved
 * into the stream (no column is copied); each is exported as to_arrow(table) exports it when the
 * consumer asks for it.
 * @tparam Policy the tables' buffer policy
 * @param batches the tables, each with the first's column names and types
 * @param out where the stream is written (not null)
 * @param stream the stream each batch's export runs on
 * @throws devcol::logic_error when `batches` is empty (no schema: use the table_source overload)
 */
template <buffer_policy Policy>
void to_arrow_stream(std::vector<basic_table<Policy>> batches, ArrowDeviceArrayStream* out, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  DEVCOL_EXPECTS(!batches.empty(), "to_arrow_stream: no batches to take the schema from; pass a schema table");
  basic_table<Policy> schema = batches.front();
  auto queue = std::make_shared<std::vector<basic_table<Policy>>>(std::move(batches));
  table_source<Policy> next = [queue, i = std::size_t{0}]() mutable -> std::optional<basic_table<Policy>> {
    if (i == queue->size()) { return std::nullopt; }
    return std::move((*queue)[i++]);
  };
  to_arrow_stream(std::move(schema), std::move(next), out, stream);
}

/**
 * @brief Reads tables from an `ArrowDeviceArrayStream`, which it takes ownership of (the caller's
 * struct is marked released) and releases when destroyed, whether or not the stream was read to
 * its end (closing it early).
 *
 * The constructor checks the stream (NULL, released, a device type this backend cannot read) and
 * its schema (a struct of columns of kinds devcol imports), each a `devcol::arrow_error`. Each array is
 * imported as table_from_arrow() does, and checked first against the stream's device type (Arrow
 * C++ does not), the array released on any failure.
 * @tparam Policy the buffer policy of the tables read
 */
template <buffer_policy Policy = default_policy>
class arrow_stream_reader {
 public:
  /// @brief Takes `source` over and reads its schema (host work: no device memory is read).
  /// @param source the stream, moved in (marked released)
  /// @param stream the stream each batch's import runs on
  /// @throws devcol::arrow_error naming what is wrong; `source` is released then
  explicit arrow_stream_reader(ArrowDeviceArrayStream* source, stream_ref stream = {}) : stream_(stream) {
    DEVCOL_ARROW_EXPECTS(source != nullptr, "the ArrowDeviceArrayStream is NULL");
    DEVCOL_ARROW_EXPECTS(source->release != nullptr, "the ArrowDeviceArrayStream is released (release is NULL)");
    source_.value = *source;
    source->release = nullptr;
    DEVCOL_ARROW_EXPECTS(source_.value.get_schema != nullptr && source_.value.get_next != nullptr,
                         "the ArrowDeviceArrayStream has a NULL get_schema or get_next");
    detail::expect_readable_device_type(source_.value.device_type, "stream");
    ArrowSchema schema{};
    expect_ok(source_.value.get_schema(&source_.value, &schema), "get_schema");
    detail::import_guard schema_guard(&schema, nullptr);
    detail::seen_nodes seen;
    field_ = detail::read_schema(&schema, "schema", 0, seen);
    DEVCOL_ARROW_EXPECTS(field_.format == "+s", "schema.format '", field_.format,
                         "' is not a struct ('+s'): a stream of tables has struct arrays");
    for (std::size_t i = 0; i < field_.children.size(); ++i) {
      detail::check_schema_any(field_.children[i], "schema.children[" + std::to_string(i) + "]");
    }
  }
  arrow_stream_reader(arrow_stream_reader const&) = delete;
  arrow_stream_reader& operator=(arrow_stream_reader const&) = delete;
  /// @brief Releases the stream (closing it if it was not read to its end).
  ~arrow_stream_reader() = default;

  /**
   * @brief The next table, or nothing at the end of the stream.
   * @throws devcol::out_of_memory when `get_next` fails with ENOMEM; devcol::arrow_error when it fails
   * otherwise (its errno and `get_last_error`), or the array
   * is on another device type than the stream's, or fails table_from_arrow()'s checks
   */
  [[nodiscard]] std::optional<basic_table<Policy>> next() {
    detail::operation_spill_lock<Policy> const spill_scope{detail::live_stream(stream_)};
    if (finished_) { return std::nullopt; }
    ArrowDeviceArray array{};
    expect_ok(source_.value.get_next(&source_.value, &array), "get_next");
    if (array.array.release == nullptr) {
      finished_ = true;
      return std::nullopt;
    }
    detail::import_guard guard(nullptr, &array);
    DEVCOL_ARROW_EXPECTS(array.device_type == source_.value.device_type, "array ", read_, ".device_type ", array.device_type,
                         " (", detail::arrow_device_name(array.device_type), ") is not the stream's ",
                         source_.value.device_type, " (", detail::arrow_device_name(source_.value.device_type), ")");
    detail::check_device_array(&array, field_);
    basic_table<Policy> out = detail::import_struct<Policy>(field_, guard, detail::live_stream(stream_));
    ++read_;
    return out;
  }

  /// @brief The stream's device type.
  [[nodiscard]] ArrowDeviceType device_type() const noexcept { return source_.value.device_type; }
  /**
   * @brief The stream's schema as a table of no rows: the columns' names and kinds, their
   * `field_info` (time zones, nullability, metadata, extension names) and the schema's metadata,
   * as each batch will have them. A stream with no batches says what it would have held, as Arrow
   * C++'s `RecordBatchReader::schema()` does. Host work: reads and allocates no device memory.
   * @throws std::bad_alloc
   */
  [[nodiscard]] basic_table<Policy> schema() const { return detail::empty_table<Policy>(field_, stream_); }
  /// @brief The column names the stream's schema gives.
  [[nodiscard]] std::vector<std::string> column_names() const {
    std::vector<std::string> names;
    for (auto const& child : field_.children) { names.push_back(child.name); }
    return names;
  }

 private:
  // A producer that ran out of memory (ENOMEM, as devcol's own exporter reports it) is an
  // out_of_memory here too, so callers that handle exhaustion (spill and retry) see it as such.
  void expect_ok(int code, char const* call) {
    if (code == 0) { return; }
    char const* message = source_.value.get_last_error != nullptr ? source_.value.get_last_error(&source_.value) : nullptr;
    if (code == ENOMEM) {
      DEVCOL_OUT_OF_MEMORY(0, "stream.", call, " failed with ENOMEM: ", message != nullptr ? message : "(no message)");
    }
    DEVCOL_ARROW_EXPECTS(false, "stream.", call, " failed with errno ", code, ": ",
                         message != nullptr ? message : "(no message)");
  }

  // Owns the stream from the first line of the constructor on, so a throwing constructor releases it.
  struct owned_stream {
    ArrowDeviceArrayStream value{};
    owned_stream() = default;
    owned_stream(owned_stream const&) = delete;
    owned_stream& operator=(owned_stream const&) = delete;
    ~owned_stream() { detail::release_if_live(value); }
  };

  owned_stream source_;
  stream_ref stream_;
  detail::arrow_field field_;
  std::size_t read_ = 0;
  bool finished_ = false;
};

/**
 * @brief Reads every table of `source` (taking it over and releasing it, as arrow_stream_reader),
 * each imported as table_from_arrow() imports it.
 * @tparam Policy the buffer policy of the tables read
 * @param source the stream, moved in (marked released)
 * @param stream the stream each batch's import runs on
 * @throws as arrow_stream_reader
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] std::vector<basic_table<Policy>> tables_from_arrow(ArrowDeviceArrayStream* source, stream_ref stream = {}) {
  detail::operation_spill_lock<Policy> const spill_scope{stream};
  arrow_stream_reader<Policy> reader(source, stream);
  std::vector<basic_table<Policy>> out;
  while (auto batch = reader.next()) { out.push_back(std::move(*batch)); }
  return out;
}

#if DEVCOL_USE_PRECOMPILED
// Held by the devcol_precompiled library (core/config.hpp).
DEVCOL_EXTERN_TEMPLATE void to_arrow_stream<default_policy>(std::vector<basic_table<default_policy>>,
                                                            ArrowDeviceArrayStream*, stream_ref);
DEVCOL_EXTERN_TEMPLATE std::vector<basic_table<default_policy>> tables_from_arrow<default_policy>(ArrowDeviceArrayStream*,
                                                                                                 stream_ref);
DEVCOL_EXTERN_TEMPLATE class arrow_stream_reader<default_policy>;
#endif

DEVCOL_NAMESPACE_END
