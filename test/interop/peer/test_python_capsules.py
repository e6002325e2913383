"""devcol's Arrow PyCapsule and DLPack capsules read by pyarrow, nanoarrow, polars, duckdb and
NumPy, and pyarrow's capsules read by devcol (through the devcol_capsules extension module, devcol_capsules.cpp).

Every batch devcol exports is checked against the values it was made from, validated by pyarrow
(`validate(full=True)`) and by nanoarrow (full validation of every leaf array, the default one of
nested arrays, which is what nanoarrow's Python package implements). The counts of what was
checked are printed at the end.
"""
import ctypes
import decimal
import math
import sys
import unittest

import duckdb
import nanoarrow as na
import numpy as np
import polars as pl
import pyarrow as pa

import devcol_capsules as dc

LO, HI = -(2**63), 2**63 - 1
COUNTS = {"pyarrow batches": 0, "nanoarrow validations": 0, "polars queries": 0, "duckdb queries": 0,
          "round trips": 0, "dlpack tensors": 0}


def expected_batch(k):
    return {
        "a": [LO, 1 + k, None, HI, 7, -3],
        "f": [math.nan, -0.0, math.inf, -math.inf, None, 2.5],
        "s": ["x", None, "", "zz", "\u00e9t\u00e9", "k"],
        "l": [[2, None], None, [4], [5, 6], [7], [8]],
        "b": [b"\x00", None, b"", b"\xff\xfe", b"ab", b"k"],
    }


# Columns read alone (devcol_capsules.cpp's lone_columns), not in the batches polars and duckdb read.
LONE = {
    "d256": (pa.decimal256(76, 2), [decimal.Decimal(f"{2**128}e-2"), decimal.Decimal("-123.45"), None,
                                    decimal.Decimal(f"{2**252}e-2"), decimal.Decimal("0.00")]),
    "null": (pa.null(), [None] * 5),
    "sv": (pa.string_view(), ["inline", None, "a string longer than twelve", "", "another long one, past 12 bytes"]),
    "bv": (pa.binary_view(), [b"\x00\xff", None, b"\xc3\x28 not UTF-8 \x00 past twelve", b"",
                            b"\x80 more than twelve bytes"]),
    "ree": (pa.run_end_encoded(pa.int32(), pa.int16()), [5, None, -1, -1, -1]),
    "map": (pa.map_(pa.string(), pa.int32()), [[("b", None), ("c", 3)], None, [("d", 4)], [("e", 5), ("f", 6)], []]),
    "list_view": (pa.list_view(pa.int16()), [[4, 5], [0, 1, 2], None, [None, 4], [2]]),
    "sparse_union": (pa.sparse_union([pa.field("i", pa.int16()), pa.field("s", pa.string())], [3, 7]),
                     ["b", None, None, "e", 5]),
    "dense_union": (pa.dense_union([pa.field("i", pa.int16()), pa.field("s", pa.string())], [3, 7]),
                    ["x", None, "y", None, 30]),
}

EXPECTED_SCHEMA = pa.schema([("a", pa.int64()), ("f", pa.float64()), ("s", pa.string()), ("l", pa.list_(pa.int32())),
                            ("b", pa.binary())])


def same(a, b):
    """Equality that tells NaN from NaN equal, and -0.0 from 0.0 apart."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


class Stream:
    """What a Python binding of devcol returns: an object with the PyCapsule protocol's methods."""

    def __init__(self, make):
        self.make = make

    def __arrow_c_stream__(self, requested_schema=None):
        return self.make()


class Column:
    def __init__(self, name):
        self.name = name

    def __arrow_c_schema__(self):
        return dc.schema(self.name)

    def __arrow_c_array__(self, requested_schema=None):
        return dc.array(self.name)

    def __arrow_c_device_array__(self, requested_schema=None, **kwargs):
        return dc.device_array(self.name)


class Tensor:
    def __init__(self):
        self.asked = []

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        self.asked.append(max_version)
        return dc.dlpack(max_version is not None and max_version[0] >= 1)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0: the host backend's memory


def buffer_of(carr, view, i):
    """Buffer `i` of `carr` as nanoarrow's view gives it; a list view's sizes (which nanoarrow 0.9's
    view leaves unsized, for pyarrow's own list views too) read from their address: as many values
    as the offsets."""
    try:
        return view.buffer(i)
    except RuntimeError:
        if i != 2 or carr.schema.format not in ("+vl", "+vL"):
            raise
        width = 4 if carr.schema.format == "+vl" else 8
        return ctypes.string_at(carr.buffers[2], (carr.offset + carr.length) * width)


def revalidate(carr):
    """nanoarrow's validation of `carr`, rebuilt from its buffers: full for leaf arrays, default
    (or none, where nanoarrow has none) for arrays with children."""
    view = carr.view()
    children = [revalidate(carr.child(i)) for i in range(carr.n_children)]
    buffers = [buffer_of(carr, view, i) for i in range(view.n_buffers)]
    level = "default" if children else "full"
    try:
        out = na.c_array_from_buffers(carr.schema, carr.length, buffers, null_count=carr.null_count,
                                      offset=carr.offset, children=children, validation_level=level)
    except NotImplementedError:
        out = na.c_array_from_buffers(carr.schema, carr.length, buffers, null_count=carr.null_count,
                                      offset=carr.offset, children=children, validation_level="none")
    COUNTS["nanoarrow validations"] += 1
    return out


class Capsules(unittest.TestCase):
    def check_batches(self, batches):
        self.assertEqual(len(batches), 2)
        for k, batch in zip((0, 10), batches):
            batch.validate(full=True)
            self.assertTrue(batch.schema.equals(EXPECTED_SCHEMA), batch.schema)
            for name, values in expected_batch(k).items():
                self.assertTrue(same(batch.column(name).to_pylist(), values), (name, batch.column(name)))
            COUNTS["pyarrow batches"] += 1

    def test_pyarrow_reads_the_cpu_stream(self):
        reader = pa.RecordBatchReader.from_stream(Stream(dc.stream))
        self.check_batches(list(reader))

    def test_devcol_reads_its_device_stream_back(self):
        reader = pa.RecordBatchReader.from_stream(Stream(lambda: dc.roundtrip_stream(dc.device_stream())))
        self.check_batches(list(reader))
        COUNTS["round trips"] += 1

    def test_pyarrow_reads_arrays_and_schemas(self):
        expected = expected_batch(0)
        for name in expected:
            for array in (pa.array(Column(name)),
                          pa.Array._import_from_c_device_capsule(*dc.device_array(name))):
                array.validate(full=True)
                self.assertTrue(same(array.to_pylist(), expected[name]), (name, array))
                self.assertEqual(array.type, EXPECTED_SCHEMA.field(name).type)
            field = pa.Field._import_from_c_capsule(dc.schema(name))
            self.assertEqual(field.type, EXPECTED_SCHEMA.field(name).type)
            self.assertTrue(field.nullable)

    def test_nanoarrow_validates_every_export(self):
        stream = na.c_array_stream(Stream(dc.stream))
        batches = list(stream)
        self.assertEqual(len(batches), 2)
        for batch in batches:
            rebuilt = revalidate(batch)
            self.assertEqual(rebuilt.length, 6)
        for name in expected_batch(0):
            revalidate(na.c_array(Column(name)))
        for name in LONE:
            revalidate(na.c_array(Column(name)))

    def test_pyarrow_reads_lone_columns(self):
        for name, (arrow_type, values) in LONE.items():
            for array in (pa.array(Column(name)), pa.Array._import_from_c_device_capsule(*dc.device_array(name))):
                array.validate(full=True)
                self.assertEqual(array.type, arrow_type)
                self.assertEqual(array.to_pylist(), values, name)

    def test_polars_queries_a_devcol_table(self):
        df = pl.DataFrame(Stream(dc.stream))
        self.assertEqual(df.height, 12)
        self.assertEqual(df.columns, ["a", "f", "s", "l", "b"])
        out = df.select(pl.col("a").count().alias("a_valid"), pl.col("s").str.len_bytes().sum().alias("bytes"),
                        pl.col("l").list.len().sum().alias("items"), pl.col("f").is_nan().sum().alias("nans"))
        self.assertEqual(out.row(0), (10, 2 * (1 + 0 + 2 + 5 + 1), 2 * 7, 2))
        small = df.filter(pl.col("a") < 10).select(pl.col("a").sort()).to_series().to_list()
        self.assertEqual(small, [LO, LO, -3, -3, 1, 7, 7])
        COUNTS["polars queries"] += 2

    def test_duckdb_queries_a_devcol_table(self):
        devcol_table = Stream(dc.stream)  # found by name: duckdb scans Python objects with __arrow_c_stream__
        rows = duckdb.sql("SELECT count(*), count(a), max(a), min(a), count(s), sum(len(l)) FROM devcol_table").fetchall()
        self.assertEqual(rows, [(12, 10, HI, LO, 10, 14)])
        devcol_table = Stream(dc.stream)
        by_s = duckdb.sql("SELECT s, count(*) FROM devcol_table WHERE s IS NOT NULL GROUP BY s ORDER BY s").fetchall()
        self.assertEqual(by_s, [("", 2), ("k", 2), ("x", 2), ("zz", 2), ("\u00e9t\u00e9", 2)])
        COUNTS["duckdb queries"] += 2

    def test_devcol_imports_pyarrow_capsules(self):
        table = pa.table({
            "i": pa.array([1, None, LO, HI], pa.int64()),
            "d": pa.array([math.nan, -0.0, None, math.inf]),
            "s": pa.array(["a", None, "bcd", ""]).slice(0),
            "l": pa.array([[1, 2], None, [], [3]], pa.list_(pa.int64())),
            "st": pa.array([{"x": 1, "y": "p"}, None, {"x": None, "y": "q"}, {"x": 4, "y": None}]),
        }).slice(1, 3)
        back = pa.table(Stream(lambda: dc.roundtrip_stream(table.__arrow_c_stream__())))
        back.validate(full=True)
        self.assertTrue(back.schema.equals(table.schema), back.schema)
        for name in table.column_names:
            self.assertTrue(same(back.column(name).to_pylist(), table.column(name).to_pylist()), name)
        for name in table.column_names:
            column = table.column(name).combine_chunks()
            for capsules in (column.__arrow_c_array__(), column.__arrow_c_device_array__()):
                schema, array = dc.roundtrip_array(*capsules)
                out = pa.Array._import_from_c_capsule(schema, array)
                out.validate(full=True)
                self.assertTrue(same(out.to_pylist(), column.to_pylist()), name)
                COUNTS["round trips"] += 1

    def test_wrong_capsules_are_refused_by_name(self):
        schema = dc.schema("a")
        with self.assertRaisesRegex(ValueError, "expected a 'arrow_device_array' capsule, got a capsule named 'arrow_schema'"):
            dc.roundtrip_array(schema, dc.schema("a"))
        with self.assertRaisesRegex(ValueError, "expected a 'arrow_device_array_stream' capsule, got int"):
            dc.roundtrip_stream(3)

    def test_a_capsule_read_once_is_refused_the_second_time(self):
        # The capsule keeps its struct, marked released, after devcol moved the stream or array out:
        # a second read must refuse it, never call the callbacks of what its producer has freed.
        table = pa.table({"i": pa.array([1, None, 3], pa.int64())})
        for capsule in (table.__arrow_c_stream__(), dc.device_stream()):
            dc.roundtrip_stream(capsule)
            with self.assertRaisesRegex(ValueError, r"released \(release is NULL\)"):
                dc.roundtrip_stream(capsule)
        column = table.column("i").combine_chunks()
        for capsules in (column.__arrow_c_array__(), column.__arrow_c_device_array__()):
            dc.roundtrip_array(*capsules)
            with self.assertRaisesRegex(ValueError, r"released \(release is NULL\)"):
                dc.roundtrip_array(*capsules)

    def test_a_cpu_stream_without_callbacks_is_refused(self):
        # A producer's ArrowArrayStream with a NULL get_schema is refused before it is called, as the
        # device stream's reader refuses one; the capsule keeps it.
        class ArrowArrayStream(ctypes.Structure):
            pass
        release_type = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))
        ArrowArrayStream._fields_ = [("get_schema", ctypes.c_void_p), ("get_next", ctypes.c_void_p),
                                     ("get_last_error", ctypes.c_void_p), ("release", release_type),
                                     ("private_data", ctypes.c_void_p)]
        released = []

        def release(s):
            released.append(True)
            s.contents.release = release_type()
        callback = release_type(release)
        stream = ArrowArrayStream(None, None, None, callback, None)
        make_capsule = ctypes.pythonapi.PyCapsule_New
        make_capsule.restype = ctypes.py_object
        make_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        capsule = make_capsule(ctypes.addressof(stream), b"arrow_array_stream", None)
        with self.assertRaisesRegex(ValueError, "has a NULL get_schema or get_next"):
            dc.roundtrip_stream(capsule)
        self.assertEqual(released, [])  # still the capsule's
        self.assertTrue(bool(stream.release))

    def test_numpy_takes_dlpack_capsules_versioned_and_not(self):
        tensor = Tensor()
        values = np.from_dlpack(tensor)
        self.assertEqual(values.tolist(), [5, -1, HI, 0])
        self.assertEqual(values.dtype, np.int64)
        self.assertIsNotNone(tensor.asked[-1])  # NumPy 2 asks for a versioned tensor
        self.assertIn("dltensor_versioned", repr(dc.dlpack(True)))
        self.assertIn('"dltensor"', repr(dc.dlpack(False)))

        class Unversioned(Tensor):
            def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
                return dc.dlpack(False)

        self.assertEqual(np.from_dlpack(Unversioned()).tolist(), [5, -1, HI, 0])
        dc.dlpack(True)  # never consumed: its destructor calls the deleter (ASan/valgrind would see a leak)
        COUNTS["dlpack tensors"] += 2

    def test_devcol_takes_numpy_dlpack_capsules_versioned_and_not(self):
        cases = {
            "int64": np.array([LO, -1, 0, HI, 7], np.int64),
            "int8": np.array([-128, 127, 0, -1], np.int8),
            "float64": np.array([math.nan, -0.0, 0.0, math.inf, -math.inf, 5e-324, -1.5], np.float64),
            "bool": np.array([True, False, False, True, True], np.bool_),
        }
        for name, values in cases.items():
            for versioned in (True, False):
                with self.subTest(name=name, versioned=versioned):
                    # odd offsets too: a slice is a tensor whose data pointer (or byte_offset) moves
                    for view in (values, values[1:]):
                        capsule = view.__dlpack__(max_version=(1, 0)) if versioned else view.__dlpack__()
                        schema, array = dc.from_dlpack(capsule, name)
                        self.assertIn("used_dltensor", repr(capsule))  # consumed, as DLPack asks
                        got = pa.Array._import_from_c_capsule(schema, array)
                        got.validate(full=True)
                        want = pa.array(view)
                        self.assertEqual(got.type, want.type)
                        self.assertTrue(same(got.to_pylist(), want.to_pylist()), (name, got, want))
                        if name == "float64":  # bit for bit: NaN payload and the sign of zero
                            self.assertEqual(np.frombuffer(got.buffers()[1], np.uint64, len(got), got.offset * 8).tolist(),
                                             view.view(np.uint64).tolist())
                        COUNTS["dlpack tensors"] += 1
        # A C++ bool is 0 or 1: a NumPy bool array holding another byte is refused, by row and byte,
        # as BufferError (what DLPack asks a consumer to raise), and the tensor handed back.
        for versioned in (True, False):
            raw = np.frombuffer(bytearray(b"\x01\x00\x02\x01\xff"), np.bool_)
            capsule = raw.__dlpack__(max_version=(1, 0)) if versioned else raw.__dlpack__()
            with self.assertRaisesRegex(BufferError, "row 2 of a kDLBool tensor holds the byte 2, not 0 or 1"):
                dc.from_dlpack(capsule, "bool")
            self.assertIn("used_dltensor", repr(capsule))
            with self.assertRaisesRegex(BufferError, "expected a 'dltensor_versioned' or 'dltensor' capsule, got a "
                                                     "capsule named 'used_dltensor"):
                dc.from_dlpack(capsule, "bool")  # a consumed capsule is not read twice
            COUNTS["dlpack tensors"] += 1
        # What a column cannot be: a strided view, two dimensions, another dtype than asked.
        with self.assertRaisesRegex(BufferError, "stride 2 is not 1"):
            dc.from_dlpack(cases["int64"][::2].__dlpack__(max_version=(1, 0)), "int64")
        with self.assertRaisesRegex(BufferError, "ndim is 2"):
            dc.from_dlpack(np.zeros((2, 2), np.int64).__dlpack__(max_version=(1, 0)), "int64")
        with self.assertRaisesRegex(BufferError, r"dtype \(code 0, bits 8, lanes 1\) is not int64's"):
            dc.from_dlpack(cases["int8"].__dlpack__(max_version=(1, 0)), "int64")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    print("checked:", ", ".join(f"{v} {k}" for k, v in COUNTS.items()))
    sys.exit(0 if result.wasSuccessful() else 1)
