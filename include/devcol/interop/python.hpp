/**
 * @file python.hpp
 * @brief devcol's exports as Python capsules, as the Arrow PyCapsule Interface and DLPack name
 * them, and imports from such capsules: what a Python binding of devcol returns from
 * `__arrow_c_schema__`, `__arrow_c_array__`, `__arrow_c_device_array__`, `__arrow_c_stream__`,
 * `__arrow_c_device_stream__` and `__dlpack__`, so that pyarrow, nanoarrow, polars, duckdb, NumPy,
 * CuPy or PyTorch take devcol's memory without copying it.
 *
 * Optional: it needs CPython's `<Python.h>`, and is not part of `<devcol/devcol.hpp>`. Every
 * function here must be called with the GIL held.
 *
 * Each capsule owns what it holds: its destructor releases the Arrow structure (calls its
 * `release`, unless a consumer moved it out and so set `release` to null) or, for DLPack, calls
 * the tensor's deleter unless a consumer took it (renamed the capsule "used_dltensor..."), then
 * frees the structure. A capsule that is never consumed therefore leaks nothing.
 *
 * Errors: exports throw what the export throws (devcol::logic_error, devcol::out_of_memory, ...)
 * or devcol::python_error when a Python call fails (the Python exception is then left set);
 * imports throw devcol::arrow_error or devcol::dlpack_error naming a capsule that is not what they
 * read. A binding function catches and returns `set_python_error()`, which turns the C++ exception
 * into a Python one (unless one is set already) and returns null, as CPython expects; guarded()
 * wraps a binding's body in that.
 */
#pragma once

#include <Python.h>

#include <devcol/column/any_column.hpp>
#include <devcol/column/table.hpp>
#include <devcol/core/check.hpp>
#include <devcol/core/config.hpp>
#include <devcol/core/error.hpp>
#include <devcol/core/source_location.hpp>
#include <devcol/core/stream_ref.hpp>
#include <devcol/interop/arrow_abi.hpp>
#include <devcol/interop/arrow_stream.hpp>
#include <devcol/interop/dlpack.hpp>
#include <devcol/interop/from_arrow.hpp>
#include <devcol/interop/to_arrow.hpp>

#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

DEVCOL_NAMESPACE_BEGIN

/// @brief A call into CPython failed; the Python exception it set is left set.
struct python_error : detail::standard_error<std::runtime_error> {
  using detail::standard_error<std::runtime_error>::standard_error;
};

namespace python {

/// The capsule names of the Arrow PyCapsule Interface and of DLPack.
inline constexpr char const* schema_capsule_name = "arrow_schema";
/// @copydoc schema_capsule_name
inline constexpr char const* array_capsule_name = "arrow_array";
/// @copydoc schema_capsule_name
inline constexpr char const* device_array_capsule_name = "arrow_device_array";
/// @copydoc schema_capsule_name
inline constexpr char const* stream_capsule_name = "arrow_array_stream";
/// @copydoc schema_capsule_name
inline constexpr char const* device_stream_capsule_name = "arrow_device_array_stream";
/// @copydoc schema_capsule_name
inline constexpr char const* dlpack_capsule_name = "dltensor";
/// @copydoc schema_capsule_name
inline constexpr char const* dlpack_versioned_capsule_name = "dltensor_versioned";

namespace detail {

template <class T>
inline constexpr char const* capsule_name_of = nullptr;
template <>
inline constexpr char const* capsule_name_of<ArrowSchema> = schema_capsule_name;
template <>
inline constexpr char const* capsule_name_of<ArrowArray> = array_capsule_name;
template <>
inline constexpr char const* capsule_name_of<ArrowDeviceArray> = device_array_capsule_name;
template <>
inline constexpr char const* capsule_name_of<ArrowArrayStream> = stream_capsule_name;
template <>
inline constexpr char const* capsule_name_of<ArrowDeviceArrayStream> = device_stream_capsule_name;

/// Releases an Arrow structure unless a consumer moved it out (its `release` is null).
template <class T>
void release_structure(T& s) noexcept {
  if constexpr (std::is_same_v<T, ArrowDeviceArray>) {
    if (s.array.release != nullptr) { s.array.release(&s.array); }
  } else {
    if (s.release != nullptr) { s.release(&s); }
  }
}

/// Releases an Arrow structure still owned by its capsule, then frees it.
template <class T>
void destroy_arrow_capsule(PyObject* capsule) noexcept {
  auto* s = static_cast<T*>(PyCapsule_GetPointer(capsule, capsule_name_of<T>));
  if (s == nullptr) {  // not ours after all: nothing to free, and no error may escape a destructor
    PyErr_Clear();
    return;
  }
  release_structure(*s);
  delete s;
}

/// A capsule owning `s`, a heap Arrow structure; `s` is released and freed if that fails.
template <class T>
PyObject* arrow_capsule(std::unique_ptr<T> s) {
  PyObject* capsule = PyCapsule_New(s.get(), capsule_name_of<T>, &destroy_arrow_capsule<T>);
  if (capsule == nullptr) {
    release_structure(*s);
    throw python_error("devcol::python: PyCapsule_New failed for a '" + std::string(capsule_name_of<T>) + "'");
  }
  static_cast<void>(s.release());
  return capsule;
}

/// A new reference to the tuple (a, b), taking over both references (released on failure).
inline PyObject* pair_of(PyObject* a, PyObject* b) {
  PyObject* tuple = PyTuple_New(2);
  if (tuple == nullptr) {
    Py_DECREF(a);
    Py_DECREF(b);
    throw python_error("devcol::python: PyTuple_New failed");
  }
  PyTuple_SET_ITEM(tuple, 0, a);
  PyTuple_SET_ITEM(tuple, 1, b);
  return tuple;
}

/// The tuple (schema capsule, array capsule) of an export, taking both structures over: each is
/// released if its capsule cannot be made.
template <class Array>
PyObject* capsule_pair(std::unique_ptr<ArrowSchema> schema, std::unique_ptr<Array> array) {
  PyObject* s = nullptr;
  try {
    s = arrow_capsule(std::move(schema));
  } catch (...) {
    release_structure(*array);
    throw;
  }
  PyObject* a = nullptr;
  try {
    a = arrow_capsule(std::move(array));
  } catch (...) {
    Py_DECREF(s);
    throw;
  }
  return pair_of(s, a);
}

/// What `object` is, for a message refusing it where a capsule of another name was expected.
inline std::string describe_object(PyObject* object) {
  if (object == nullptr) { return "null"; }
  if (PyCapsule_CheckExact(object) == 0) { return Py_TYPE(object)->tp_name; }
  char const* name = PyCapsule_GetName(object);
  return "a capsule named '" + std::string(name != nullptr ? name : "") + "'";
}

/// The structure `capsule` holds under `name`, checked; ownership stays with the capsule.
template <class T>
T* capsule_pointer(PyObject* capsule, char const* name) {
  DEVCOL_ARROW_EXPECTS(capsule != nullptr && PyCapsule_IsValid(capsule, name) != 0, "devcol::python: expected a '",
                       name, "' capsule, got ", describe_object(capsule));
  return static_cast<T*>(PyCapsule_GetPointer(capsule, name));
}

/// What a stream adapter shares: the stream `Inner` it reads, and the callbacks of its `Outer` face
/// that only pass through (`Self` adds get_next and get_last_error).
template <class Self, class Outer, class Inner>
struct stream_adapter {
  Inner inner{};

  static Self* of(Outer* s) noexcept { return static_cast<Self*>(s->private_data); }
  static int get_schema(Outer* s, ArrowSchema* out) noexcept {
    auto* self = of(s);
    return self->inner.get_schema(&self->inner, out);
  }
  static void release(Outer* s) noexcept {
    auto* self = of(s);
    if (self->inner.release != nullptr) { self->inner.release(&self->inner); }
    delete self;
    s->release = nullptr;
  }
  /// Makes `out` the adapter's face, which then owns `self` (and so the inner stream).
  static void install(std::unique_ptr<Self> self, Outer* out) noexcept {
    out->get_schema = &get_schema;
    out->get_next = &Self::get_next;
    out->get_last_error = &Self::get_last_error;
    out->release = &release;
    out->private_data = self.release();
  }
};

/// A CPU `ArrowArrayStream` over a device stream whose arrays are CPU memory (the host backend's).
struct cpu_stream_over_device : stream_adapter<cpu_stream_over_device, ArrowArrayStream, ArrowDeviceArrayStream> {
  std::string error;

  static int get_next(ArrowArrayStream* s, ArrowArray* out) noexcept {
    auto* self = of(s);
    ArrowDeviceArray next{};
    int const status = self->inner.get_next(&self->inner, &next);
    if (status != 0) { return status; }
    if (next.array.release != nullptr && next.device_type != ARROW_DEVICE_CPU) {
      next.array.release(&next.array);
      self->error = "devcol::python: a CPU stream's batch is in device memory (device type " +
                    std::to_string(next.device_type) + ")";
      return EINVAL;
    }
    *out = next.array;  // moved: `next` is not released
    return 0;
  }
  static char const* get_last_error(ArrowArrayStream* s) noexcept {
    auto* self = of(s);
    if (!self->error.empty()) { return self->error.c_str(); }
    return self->inner.get_last_error(&self->inner);
  }
};

/// A device stream (of CPU memory) over a producer's CPU `ArrowArrayStream`.
struct device_stream_over_cpu : stream_adapter<device_stream_over_cpu, ArrowDeviceArrayStream, ArrowArrayStream> {
  static int get_next(ArrowDeviceArrayStream* s, ArrowDeviceArray* out) noexcept {
    auto* self = of(s);
    *out = ArrowDeviceArray{};
    int const status = self->inner.get_next(&self->inner, &out->array);
    out->device_id = -1;
    out->device_type = ARROW_DEVICE_CPU;
    return status;
  }
  static char const* get_last_error(ArrowDeviceArrayStream* s) noexcept {
    auto* self = of(s);
    return self->inner.get_last_error != nullptr ? self->inner.get_last_error(&self->inner) : nullptr;
  }
};

/// The deleter of an unversioned DLPack tensor made over a versioned one (its manager_ctx).
inline void delete_unversioned(DLManagedTensor* self) noexcept {
  auto* versioned = static_cast<DLManagedTensorVersioned*>(self->manager_ctx);
  if (versioned != nullptr && versioned->deleter != nullptr) { versioned->deleter(versioned); }
  delete self;
}

/// A versioned tensor over an unversioned one a producer made before DLPack 1.0: what
/// column_from_dlpack_capsule() hands from_dlpack(). Its deleter calls the producer's and frees it.
struct versioned_over_unversioned {
  DLManagedTensorVersioned outer;
  DLManagedTensor* inner;
  static void deleter(DLManagedTensorVersioned* self) noexcept {
    auto* wrapper = reinterpret_cast<versioned_over_unversioned*>(self);  // `outer` is its first member
    if (wrapper->inner->deleter != nullptr) { wrapper->inner->deleter(wrapper->inner); }
    delete wrapper;
  }
};

/// Calls a DLPack capsule's deleter unless a consumer took the tensor (renamed the capsule).
template <class Managed>
void destroy_dlpack_capsule(PyObject* capsule) noexcept {
  constexpr bool versioned = std::is_same_v<Managed, DLManagedTensorVersioned>;
  char const* name = versioned ? dlpack_versioned_capsule_name : dlpack_capsule_name;
  if (PyCapsule_IsValid(capsule, name) == 0) { return; }  // consumed: "used_dltensor..."
  auto* tensor = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (tensor != nullptr && tensor->deleter != nullptr) { tensor->deleter(tensor); }
}

}  // namespace detail

/**
 * @brief Sets a Python exception from the C++ exception being handled (unless a Python exception
 * is set already, as devcol::python_error leaves it) and returns null, for a binding function's
 * `catch (...)`: devcol::logic_error and devcol::arrow_error become `ValueError`,
 * devcol::dlpack_error `BufferError` (as DLPack asks), std::bad_alloc `MemoryError`, anything else
 * `RuntimeError`, with the exception's message.
 * @returns null, what a CPython function returns on failure
 */
inline PyObject* set_python_error() noexcept {
  if (PyErr_Occurred() != nullptr) { return nullptr; }
  try {
    throw;
  } catch (dlpack_error const& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  } catch (arrow_error const& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (logic_error const& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (std::bad_alloc const&) {
    PyErr_NoMemory();
  } catch (std::exception const& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "devcol: unknown C++ exception");
  }
  return nullptr;
}

/**
 * @brief The body of a binding function: calls `f`, which returns a new reference, and turns
 * what it throws into a Python exception (see set_python_error()).
 * @tparam F a callable returning `PyObject*`
 * @param f the binding's work
 * @returns what `f` returns, or null with a Python exception set
 */
template <class F>
[[nodiscard]] PyObject* guarded(F&& f) noexcept {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    return set_python_error();
  }
}

/**
 * @brief `__arrow_c_schema__`: an "arrow_schema" capsule of `col`'s (or a table's) schema, as
 * to_arrow would export it. Host work only.
 * @tparam C a column kind, `any_column` or a table
 * @param col what is described
 * @returns a new reference
 * @throws as to_arrow_schema; devcol::python_error
 */
template <class C>
[[nodiscard]] PyObject* schema_capsule(C const& col) {
  auto schema = std::make_unique<ArrowSchema>();
  to_arrow_schema(col, schema.get());
  return detail::arrow_capsule(std::move(schema));
}

/**
 * @brief `__arrow_c_device_array__`: the tuple ("arrow_schema" capsule, "arrow_device_array"
 * capsule) of `col` (or a table, as a struct array), exported as to_arrow exports it: zero-copy
 * but for bool and exposed columns, with the `sync_event` the consumer waits on.
 * @tparam C a column kind, `any_column` or a table
 * @param col what is exported
 * @param stream the stream the export's copies run on and its event is recorded on
 * @returns a new reference
 * @throws as to_arrow; devcol::python_error
 */
template <class C>
[[nodiscard]] PyObject* device_array_capsules(C const& col, stream_ref stream = {}) {
  auto schema = std::make_unique<ArrowSchema>();
  auto array = std::make_unique<ArrowDeviceArray>();
  to_arrow(col, schema.get(), array.get(), stream);
  return detail::capsule_pair(std::move(schema), std::move(array));
}

/**
 * @brief `__arrow_c_array__`, host backend only: the tuple ("arrow_schema", "arrow_array") of
 * `col` (or a table), the array being the CPU array to_arrow exports (its memory is host memory
 * there). Zero-copy as to_arrow.
 * @tparam C a column kind, `any_column` or a table
 * @param col what is exported
 * @returns a new reference
 * @throws as to_arrow; devcol::python_error
 */
#if !DEVCOL_BACKEND_CUDA
template <class C>
[[nodiscard]] PyObject* array_capsules(C const& col) {
  // Both holders first: once to_arrow has filled them, nothing may throw before the capsules own them.
  auto schema = std::make_unique<ArrowSchema>();
  auto array = std::make_unique<ArrowArray>();
  ArrowDeviceArray device{};
  to_arrow(col, schema.get(), &device, stream_ref{});
  *array = device.array;  // moved out: `device` is not released
  return detail::capsule_pair(std::move(schema), std::move(array));
}
#endif

/**
 * @brief `__arrow_c_device_stream__`: an "arrow_device_array_stream" capsule of `batches`, in order,
 * as to_arrow_stream exports them (the first gives the schema).
 * @tparam Policy the tables' buffer policy
 * @param batches the tables, moved in; at least one
 * @param stream the stream each batch's export runs on
 * @returns a new reference
 * @throws as to_arrow_stream; devcol::python_error
 */
template <buffer_policy Policy>
[[nodiscard]] PyObject* device_stream_capsule(std::vector<basic_table<Policy>> batches, stream_ref stream = {}) {
  auto out = std::make_unique<ArrowDeviceArrayStream>();
  to_arrow_stream(std::move(batches), out.get(), stream);
  return detail::arrow_capsule(std::move(out));
}

/**
 * @brief `__arrow_c_stream__`, host backend only: an "arrow_array_stream" capsule (a CPU
 * `ArrowArrayStream`, what polars, duckdb and nanoarrow read) of `batches`, in order: the device
 * stream of device_stream_capsule with each batch's CPU array handed on as it is.
 * @tparam Policy the tables' buffer policy
 * @param batches the tables, moved in; at least one
 * @returns a new reference
 * @throws as to_arrow_stream; devcol::python_error
 */
#if !DEVCOL_BACKEND_CUDA
template <buffer_policy Policy>
[[nodiscard]] PyObject* stream_capsule(std::vector<basic_table<Policy>> batches) {
  // Both holders first: the adapter does not release its inner stream until installed in `out`.
  auto state = std::make_unique<detail::cpu_stream_over_device>();
  auto out = std::make_unique<ArrowArrayStream>();
  to_arrow_stream(std::move(batches), &state->inner, stream_ref{});
  detail::cpu_stream_over_device::install(std::move(state), out.get());
  return detail::arrow_capsule(std::move(out));
}
#endif

/**
 * @brief `__dlpack__`: a DLPack capsule of `col` (fixed-width, no nulls) sharing its memory, as
 * to_dlpack exports it (which exposes the column: rule 11): "dltensor_versioned" when the consumer
 * asked for DLPack 1.0 or later (`max_version` given, major >= 1), else the unversioned
 * "dltensor" that consumers from before DLPack 1.0 read.
 * @tparam T the column's value type
 * @tparam Policy the column's buffer policy
 * @param col the column exported
 * @param versioned whether the consumer's `max_version` allows a versioned tensor
 * @param stream the stream the export is ordered on
 * @param where the place a spillable policy records for the exposure at spill statistics level 2
 * (rule 19): the caller (the binding's `__dlpack__`) unless given
 * @returns a new reference
 * @throws as to_dlpack; devcol::python_error
 */
template <fixed_width T, buffer_policy Policy>
[[nodiscard]] PyObject* dlpack_capsule(column<T, Policy>& col, bool versioned = true, stream_ref stream = {},
                                       source_location where = source_location::current()) {
  DLManagedTensorVersioned* tensor = to_dlpack(col, stream, where);
  if (versioned) {
    PyObject* capsule = PyCapsule_New(tensor, dlpack_versioned_capsule_name,
                                      &detail::destroy_dlpack_capsule<DLManagedTensorVersioned>);
    if (capsule == nullptr) {
      tensor->deleter(tensor);
      throw python_error("devcol::python: PyCapsule_New failed for a 'dltensor_versioned'");
    }
    return capsule;
  }
  auto* plain = new (std::nothrow) DLManagedTensor{tensor->dl_tensor, tensor, &detail::delete_unversioned};
  if (plain == nullptr) {
    tensor->deleter(tensor);
    throw std::bad_alloc();
  }
  PyObject* capsule = PyCapsule_New(plain, dlpack_capsule_name, &detail::destroy_dlpack_capsule<DLManagedTensor>);
  if (capsule == nullptr) {
    plain->deleter(plain);
    throw python_error("devcol::python: PyCapsule_New failed for a 'dltensor'");
  }
  return capsule;
}

/**
 * @brief Imports the tensor of a producer's `__dlpack__` capsule (NumPy, CuPy, PyTorch, devcol) as
 * from_dlpack imports it, zero-copy: "dltensor_versioned" (DLPack 1.x), or the unversioned
 * "dltensor" of producers from before DLPack 1.0, read as a 1.0 tensor its producer may still
 * write (DLPack 0.x has no read-only flag). The capsule is renamed "used_dltensor_versioned" or
 * "used_dltensor", as DLPack asks of a consumer, before the import, so that the tensor's deleter is
 * called exactly once: by the column when its last handle goes, or by the import when it refuses.
 * @tparam T the column's value type (the tensor's dtype must be its representation)
 * @tparam Policy the buffer policy of the column
 * @param capsule a "dltensor_versioned" or "dltensor" capsule, not yet consumed
 * @param stream the stream the import's checks run on
 * @throws devcol::dlpack_error naming a capsule of another kind (or one consumed already), and as
 * from_dlpack (a kDLBool byte other than 0 or 1, a dtype other than `T`'s, ...); std::bad_alloc
 */
template <fixed_width T, buffer_policy Policy = default_policy>
[[nodiscard]] column<T, Policy> column_from_dlpack_capsule(PyObject* capsule, stream_ref stream = {}) {
  if (capsule != nullptr && PyCapsule_IsValid(capsule, dlpack_versioned_capsule_name) != 0) {
    auto* tensor = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(capsule, dlpack_versioned_capsule_name));
    if (PyCapsule_SetName(capsule, "used_dltensor_versioned") != 0) {
      throw python_error("devcol::python: PyCapsule_SetName failed for a 'dltensor_versioned'");
    }
    return from_dlpack<T, Policy>(tensor, stream);
  }
  DEVCOL_EXPECTS_OR_THROW(dlpack_error, capsule != nullptr && PyCapsule_IsValid(capsule, dlpack_capsule_name) != 0,
                          "devcol::python: expected a 'dltensor_versioned' or 'dltensor' capsule, got ",
                          detail::describe_object(capsule));
  auto* plain = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, dlpack_capsule_name));
  auto* wrapper = new detail::versioned_over_unversioned{
      DLManagedTensorVersioned{DLPackVersion{1, 0}, nullptr, &detail::versioned_over_unversioned::deleter, 0,
                               plain->dl_tensor},
      plain};
  if (PyCapsule_SetName(capsule, "used_dltensor") != 0) {
    delete wrapper;  // the capsule still owns the tensor
    throw python_error("devcol::python: PyCapsule_SetName failed for a 'dltensor'");
  }
  return from_dlpack<T, Policy>(&wrapper->outer, stream);
}

/**
 * @brief Imports the column a producer's `__arrow_c_device_array__` (or, CPU memory,
 * `__arrow_c_array__`) returned, as any_from_arrow imports it, zero-copy where it can. The array and
 * the schema are both moved out of their capsules (whose destructors then release nothing), as the
 * capsule protocol lets a consumer do: capsules import once, and a second import from them throws
 * devcol::arrow_error (their structs are released).
 * @tparam Policy the buffer policy of the result
 * @param schema an "arrow_schema" capsule
 * @param array an "arrow_device_array" or "arrow_array" capsule
 * @param stream the stream the import's copies and checks run on
 * @throws devcol::arrow_error naming a capsule of another kind, and as any_from_arrow
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] any_column<Policy> column_from_capsules(PyObject* schema, PyObject* array, stream_ref stream = {}) {
  auto* producer_schema = detail::capsule_pointer<ArrowSchema>(schema, schema_capsule_name);
  ArrowDeviceArray device{};
  if (array != nullptr && PyCapsule_IsValid(array, array_capsule_name) != 0) {
    auto* cpu = detail::capsule_pointer<ArrowArray>(array, array_capsule_name);
    device.array = *cpu;
    cpu->release = nullptr;  // moved out
    device.device_id = -1;
    device.device_type = ARROW_DEVICE_CPU;
  } else {
    auto* taken = detail::capsule_pointer<ArrowDeviceArray>(array, device_array_capsule_name);
    device = *taken;
    taken->array.release = nullptr;  // moved out
  }
  // The import releases the schema it is given: give it a moved copy, leaving the capsule's empty.
  ArrowSchema moved = *producer_schema;
  producer_schema->release = nullptr;
  return any_from_arrow<Policy>(&moved, &device, stream);
}

/**
 * @brief Reads every table of the stream a producer's `__arrow_c_device_stream__` (or
 * `__arrow_c_stream__`: a CPU stream, read as CPU memory) returned, as tables_from_arrow reads
 * them. The stream is moved out of its capsule, so a capsule is read once: a second read throws.
 * @tparam Policy the buffer policy of the tables
 * @param capsule an "arrow_device_array_stream" or "arrow_array_stream" capsule
 * @param stream the stream the imports run on
 * @throws devcol::arrow_error naming a capsule of another kind or one read already, and as
 * tables_from_arrow
 */
template <buffer_policy Policy = default_policy>
[[nodiscard]] std::vector<basic_table<Policy>> tables_from_capsule(PyObject* capsule, stream_ref stream = {}) {
  ArrowDeviceArrayStream device{};
  if (capsule != nullptr && PyCapsule_IsValid(capsule, stream_capsule_name) != 0) {
    auto* cpu = detail::capsule_pointer<ArrowArrayStream>(capsule, stream_capsule_name);
    // Checked here, not by the reader: the adapter's own callbacks would hide a stream that was
    // consumed already or lacks one, and the reader would then call into what is freed or NULL.
    // On failure the capsule keeps the stream (and releases it when destroyed).
    DEVCOL_ARROW_EXPECTS(cpu->release != nullptr, "devcol::python: the '", stream_capsule_name,
                         "' capsule's ArrowArrayStream is released (release is NULL): a stream capsule is read once");
    DEVCOL_ARROW_EXPECTS(cpu->get_schema != nullptr && cpu->get_next != nullptr, "devcol::python: the '",
                         stream_capsule_name, "' capsule's ArrowArrayStream has a NULL get_schema or get_next");
    auto state = std::make_unique<detail::device_stream_over_cpu>();
    state->inner = *cpu;
    cpu->release = nullptr;  // moved out
    device.device_type = ARROW_DEVICE_CPU;
    detail::device_stream_over_cpu::install(std::move(state), &device);
  } else {
    auto* taken = detail::capsule_pointer<ArrowDeviceArrayStream>(capsule, device_stream_capsule_name);
    device = *taken;
    taken->release = nullptr;  // moved out
  }
  return tables_from_arrow<Policy>(&device, stream);
}

}  // namespace python
DEVCOL_NAMESPACE_END
