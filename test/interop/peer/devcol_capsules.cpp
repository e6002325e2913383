// A Python extension module over devcol/interop/python.hpp, for test_capsules.py: devcol tables
// and columns handed to Python as Arrow PyCapsules and DLPack capsules, and capsules from pyarrow
// imported by devcol and handed back. Host backend: the capsules hold CPU memory.
#include <devcol/devcol.hpp>
#include <devcol/interop/python.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace py = devcol::python;
using i64 = std::int64_t;

/// Batch `k` of the table the tests read: int64 with nulls and extremes, double with NaN, ±inf and
/// ±0.0, strings, a list<int32> and binary bytes that are not UTF-8, sliced at an odd offset.
devcol::table batch(int k) {
  double const nan = std::numeric_limits<double>::quiet_NaN();
  double const inf = std::numeric_limits<double>::infinity();
  i64 const lo = std::numeric_limits<i64>::min();
  i64 const hi = std::numeric_limits<i64>::max();
  devcol::table t;
  t.add("a", devcol::make_column<i64>({std::nullopt, lo, 1 + k, std::nullopt, hi, 7, -3}).slice(1, 7));
  t.add("f", devcol::make_column<double>({0.0, nan, -0.0, inf, -inf, std::nullopt, 2.5}).slice(1, 7));
  t.add("s", devcol::make_strings_column({"skip", "x", std::nullopt, "", "zz", "\xc3\xa9t\xc3\xa9", "k"}).slice(1, 7));
  auto child = devcol::make_column<std::int32_t>({1, 2, std::nullopt, 4, 5, 6, 7, 8});
  t.add("l", devcol::make_list_column<std::int32_t>({0, 1, 3, 3, 4, 6, 7, 8}, child,
                                                     {true, true, false, true, true, true, true})
                 .slice(1, 7));
  t.add("b", devcol::make_binary_column({"skip", std::string_view("\0", 1), std::nullopt, "", "\xff\xfe", "ab", "k"})
                 .slice(1, 7));
  return t;
}

std::vector<devcol::table> batches() { return {batch(0), batch(10)}; }

/// Columns the tests read alone, beside the batches (which polars and duckdb read, and whose
/// types they do not all take): decimal256 past 128 bits, both signs and a null, a null column
/// a map<string, int32> with a null row, a null value and an empty map, and a list view of rows
/// out of order and overlapping, a sparse and a dense union, each sliced at an odd offset.
devcol::table lone_columns() {
  using devcol::int256_t;
  std::vector<std::optional<int256_t>> const d256{int256_t(1), int256_t::from_words(0, 0, 1, 0), int256_t(-12345),
                                                   std::nullopt, int256_t::from_words(0, 0, 0, 1ULL << 60),
                                                   int256_t(0)};
  devcol::table t;
  t.add("d256", devcol::make_decimal_column<int256_t>(d256, 76, 2).slice(1, 6));
  t.add("null", devcol::null_column<>(9).slice(2, 7));
  // string view and binary view: inline and out-of-line rows over several data buffers, at offset 1
  std::vector<std::optional<std::string>> const text{"skip", "inline", std::nullopt, "a string longer than twelve",
                                                     "", "another long one, past 12 bytes"};
  t.add("sv", devcol::make_binary_view_column(text, {}, 40).slice(1, 6));
  std::vector<std::optional<std::string>> const bytes{"skip", std::string("\0\xff", 2), std::nullopt,
                                                      std::string("\xc3\x28 not UTF-8 \0 past twelve", 26), "",
                                                      "\x80 more than twelve bytes"};
  t.add("bv", devcol::make_binary_view_column<devcol::default_policy, devcol::encoding::binary>(bytes, {}, 16).slice(1, 6));
  // rows 5, 5, null, -1, -1, -1, 9 in four runs, sliced to [1, 6): a logical offset inside a run
  t.add("ree", devcol::make_run_end_encoded_column(
                   devcol::run_ends_column<>(devcol::make_column<std::int32_t>({2, 3, 6, 7})),
                   devcol::any_column<>(devcol::make_column<std::int16_t>({5, std::nullopt, -1, 9})))
                   .slice(1, 6));
  auto entries = devcol::make_struct_column<>(
      {{"key", devcol::any_column<>(devcol::make_strings_column({"a", "b", "c", "d", "e", "f"}))},
       {"value", devcol::any_column<>(devcol::make_column<std::int32_t>({1, std::nullopt, 3, 4, 5, 6}))}});
  t.add("map", devcol::make_list_column<std::int32_t>({0, 1, 3, 3, 4, 6, 6}, devcol::any_column<>(std::move(entries)),
                                                       {true, true, false, true, true, true})
                   .as_map()
                   .slice(1, 6));
  t.add("list_view", devcol::make_list_view_column<std::int32_t>(
                         {9, 4, 0, 1, 3, 2, 5}, {1, 2, 3, 0, 2, 1, 5},
                         devcol::any_column<>(devcol::make_column<std::int16_t>({0, 1, 2, std::nullopt, 4, 5, 6, 7, 8, 9})),
                         {true, true, true, false, true, true, false})
                         .slice(1, 6));
  // unions of type codes 3 and 7 over int16 and string children with nulls, sliced to [1, 6)
  auto const shorts = [](std::vector<std::optional<std::int16_t>> v) { return devcol::any_column<>(devcol::make_column<std::int16_t>(v)); };
  auto const texts = [](std::vector<std::optional<std::string>> v) { return devcol::any_column<>(devcol::make_strings_column(v)); };
  t.add("sparse_union", devcol::make_union_column(devcol::union_mode::sparse, {3, 7},
                                                  {{"i", shorts({0, 1, std::nullopt, 3, 4, 5, 6})},
                                                   {"s", texts({"a", "b", "c", std::nullopt, "e", "f", "g"})}},
                                                  {3, 7, 3, 7, 7, 3, 3})
                            .slice(1, 6));
  t.add("dense_union", devcol::make_union_column(devcol::union_mode::dense, {3, 7},
                                                 {{"i", shorts({10, std::nullopt, 30, 40})},
                                                  {"s", texts({"x", "y", std::nullopt})}},
                                                 {3, 7, 3, 7, 7, 3, 3}, {0, 0, 1, 1, 2, 2, 3})
                           .slice(1, 6));
  return t;
}

/// The column `name` of batch 0, or of lone_columns().
devcol::any_column<> column_named(char const* name) {
  auto t = batch(0);
  if (!t.contains(name)) { t = lone_columns(); }
  return t[std::string_view(name)];
}

PyObject* stream(PyObject*, PyObject*) {
  return py::guarded([&] { return py::stream_capsule(batches()); });
}

PyObject* device_stream(PyObject*, PyObject*) {
  return py::guarded([&] { return py::device_stream_capsule(batches()); });
}

PyObject* schema(PyObject*, PyObject* args) {
  char const* name = nullptr;
  if (PyArg_ParseTuple(args, "s", &name) == 0) { return nullptr; }
  return py::guarded([&] { return py::schema_capsule(column_named(name)); });
}

PyObject* array(PyObject*, PyObject* args) {
  char const* name = nullptr;
  if (PyArg_ParseTuple(args, "s", &name) == 0) { return nullptr; }
  return py::guarded([&] { return py::array_capsules(column_named(name)); });
}

PyObject* device_array(PyObject*, PyObject* args) {
  char const* name = nullptr;
  if (PyArg_ParseTuple(args, "s", &name) == 0) { return nullptr; }
  return py::guarded([&] { return py::device_array_capsules(column_named(name)); });
}

/// A DLPack capsule of an int64 column without nulls: versioned unless `versioned` is false.
PyObject* dlpack(PyObject*, PyObject* args) {
  int versioned = 1;
  if (PyArg_ParseTuple(args, "p", &versioned) == 0) { return nullptr; }
  return py::guarded([&] {
    auto col = devcol::make_column<i64>({5, -1, std::numeric_limits<i64>::max(), 0});
    return py::dlpack_capsule(col, versioned != 0);
  });
}

/// Imports a stream capsule (CPU or device) into devcol tables and exports them again as a CPU
/// stream capsule: what Python gets back went through devcol's importer and exporter.
// A producer's DLPack capsule imported as a column of the type named, exported back as Arrow
// capsules for the test to compare with the producer's values.
PyObject* from_dlpack(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  char const* type = nullptr;
  if (PyArg_ParseTuple(args, "Os", &capsule, &type) == 0) { return nullptr; }
  return py::guarded([&]() -> PyObject* {
    std::string_view const name = type;
    if (name == "bool") { return py::array_capsules(py::column_from_dlpack_capsule<bool>(capsule)); }
    if (name == "int8") { return py::array_capsules(py::column_from_dlpack_capsule<std::int8_t>(capsule)); }
    if (name == "int64") { return py::array_capsules(py::column_from_dlpack_capsule<i64>(capsule)); }
    if (name == "float64") { return py::array_capsules(py::column_from_dlpack_capsule<double>(capsule)); }
    DEVCOL_FAIL("from_dlpack: no type named '", name, "'");
  });
}

PyObject* roundtrip_stream(PyObject*, PyObject* args) {
  PyObject* capsule = nullptr;
  if (PyArg_ParseTuple(args, "O", &capsule) == 0) { return nullptr; }
  return py::guarded([&] { return py::stream_capsule(py::tables_from_capsule(capsule)); });
}

/// Imports (schema, array) capsules (CPU or device) into a devcol column and exports it again.
PyObject* roundtrip_array(PyObject*, PyObject* args) {
  PyObject* schema_capsule = nullptr;
  PyObject* array_capsule = nullptr;
  if (PyArg_ParseTuple(args, "OO", &schema_capsule, &array_capsule) == 0) { return nullptr; }
  return py::guarded([&] { return py::array_capsules(py::column_from_capsules(schema_capsule, array_capsule)); });
}

PyMethodDef methods[] = {
    {"stream", stream, METH_NOARGS, "a CPU stream capsule of two devcol tables"},
    {"device_stream", device_stream, METH_NOARGS, "a device stream capsule of the same tables"},
    {"schema", schema, METH_VARARGS, "the schema capsule of a column of batch 0"},
    {"array", array, METH_VARARGS, "(schema, array) capsules of a column of batch 0"},
    {"device_array", device_array, METH_VARARGS, "(schema, device array) capsules of a column of batch 0"},
    {"dlpack", dlpack, METH_VARARGS, "a DLPack capsule of an int64 column"},
    {"from_dlpack", from_dlpack, METH_VARARGS, "(schema, array) capsules of a DLPack capsule's tensor read by devcol"},
    {"roundtrip_stream", roundtrip_stream, METH_VARARGS, "a stream capsule through devcol and back"},
    {"roundtrip_array", roundtrip_array, METH_VARARGS, "array capsules through devcol and back"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "devcol_capsules", "devcol's Arrow and DLPack capsules, for tests", -1,
                      methods, nullptr, nullptr, nullptr, nullptr};

}  // namespace

PyMODINIT_FUNC PyInit_devcol_capsules() { return PyModule_Create(&module); }
