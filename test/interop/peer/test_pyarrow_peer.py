#!/usr/bin/env python3
"""pyarrow against devcol, through the Arrow C Device Data Interface (host backend: ARROW_DEVICE_CPU).

Loads the devcol_peer library (its path in the environment variable DEVCOL_PEER_LIBRARY, as CTest
sets it) with ctypes, allocates the C structs here and passes their addresses. Both directions:
devcol exports that pyarrow imports (`_import_from_c_device`, then `validate(full=True)` and the
values), and pyarrow exports (`_export_to_c_device`) that devcol imports and describes back as JSON.

The test columns are computed here on their own, from the same rule as the library's: row i of a
100-row column holds value_at(type, i), null when i % 7 == 3; devcol exports rows [13, 83).

pyarrow 26 has no device *stream* in Python (`RecordBatchReader._import_from_c_device` and
`_export_to_c_device` are missing): where they are missing, the stream tests drive the
`ArrowDeviceArrayStream` callbacks through ctypes, with pyarrow importing or exporting each batch.
"""
import ctypes
import decimal
import errno
import gc
import json
import os
import struct
import sys
import unittest

import pyarrow as pa

# --- the C structs, exactly as the specification gives them ------------------------------------------


class ArrowSchema(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("metadata", ctypes.c_char_p),
        ("flags", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class ArrowArray(ctypes.Structure):
    _fields_ = [
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.c_void_p),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class ArrowDeviceArray(ctypes.Structure):
    _fields_ = [
        ("array", ArrowArray),
        ("device_id", ctypes.c_int64),
        ("device_type", ctypes.c_int32),
        ("sync_event", ctypes.c_void_p),
        ("reserved", ctypes.c_int64 * 3),
    ]


class ArrowDeviceArrayStream(ctypes.Structure):
    pass


GET_SCHEMA = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowDeviceArrayStream), ctypes.POINTER(ArrowSchema))
GET_NEXT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowDeviceArrayStream), ctypes.POINTER(ArrowDeviceArray))
GET_LAST_ERROR = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(ArrowDeviceArrayStream))
RELEASE_STREAM = ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowDeviceArrayStream))
ArrowDeviceArrayStream._fields_ = [
    ("device_type", ctypes.c_int32),
    ("get_schema", GET_SCHEMA),
    ("get_next", GET_NEXT),
    ("get_last_error", GET_LAST_ERROR),
    ("release", RELEASE_STREAM),
    ("private_data", ctypes.c_void_p),
]

ARROW_DEVICE_CPU = 1

# --- the library ---------------------------------------------------------------------------------------

LIBRARY_PATH = os.environ.get("DEVCOL_PEER_LIBRARY", "")
if not LIBRARY_PATH:
    sys.exit("test_pyarrow_peer.py: set DEVCOL_PEER_LIBRARY to the path of the devcol_peer library")
lib = ctypes.CDLL(LIBRARY_PATH)
_p = ctypes.c_void_p
_out = [ctypes.c_char_p, ctypes.c_size_t]
lib.devcol_peer_live_allocations.argtypes = []
lib.devcol_peer_live_allocations.restype = ctypes.c_size_t
lib.devcol_peer_export_column.argtypes = [ctypes.c_char_p, _p, _p] + _out
lib.devcol_peer_export_table.argtypes = [ctypes.c_size_t, ctypes.c_size_t, _p, _p] + _out
lib.devcol_peer_export_stream.argtypes = [_p] + _out
lib.devcol_peer_import_column.argtypes = [ctypes.c_char_p, _p, _p] + _out
lib.devcol_peer_import_table.argtypes = [_p, _p] + _out
lib.devcol_peer_import_stream.argtypes = [_p] + _out
lib.devcol_peer_export_decimal.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, _p, _p] + _out
lib.devcol_peer_import_decimal.argtypes = [ctypes.c_int, _p, _p] + _out
lib.devcol_peer_export_fixed_size_binary.argtypes = [ctypes.c_size_t, _p, _p] + _out
lib.devcol_peer_import_fixed_size_binary.argtypes = [_p, _p] + _out
lib.devcol_peer_export_nested.argtypes = [ctypes.c_char_p, _p, _p] + _out
lib.devcol_peer_import_any.argtypes = [_p, _p] + _out
lib.devcol_peer_export_strings.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, _p, _p] + _out
lib.devcol_peer_import_strings.argtypes = [ctypes.c_int, _p, _p] + _out
for _f in ("export_column", "export_table", "export_stream", "import_column", "import_table", "import_stream",
           "export_decimal", "import_decimal", "export_fixed_size_binary", "import_fixed_size_binary",
           "export_nested", "import_any", "export_strings", "import_strings"):
    getattr(lib, "devcol_peer_" + _f).restype = ctypes.c_int

REFUSED = 1  # devcol::arrow_error
OTHER_ERROR = 2


def call(function, *args):
    """Calls a devcol_peer function; returns (code, text): JSON on success, else the message."""
    out = ctypes.create_string_buffer(1 << 20)
    code = function(*args, out, len(out))
    return code, out.value.decode()


def addr(struct):
    return ctypes.addressof(struct)


# --- the test columns, computed here -----------------------------------------------------------------

BASE_ROWS, FIRST, LAST = 100, 13, 83

TYPES = {
    "int8": pa.int8(), "int16": pa.int16(), "int32": pa.int32(), "int64": pa.int64(),
    "uint8": pa.uint8(), "uint16": pa.uint16(), "uint32": pa.uint32(), "uint64": pa.uint64(),
    "float32": pa.float32(), "float64": pa.float64(), "bool": pa.bool_(),
    "timestamp[s]": pa.timestamp("s"), "timestamp[ms]": pa.timestamp("ms"),
    "timestamp[us]": pa.timestamp("us"), "timestamp[ns]": pa.timestamp("ns"),
    "duration[s]": pa.duration("s"), "duration[ms]": pa.duration("ms"),
    "duration[us]": pa.duration("us"), "duration[ns]": pa.duration("ns"),
}
# The order of devcol's any_column, which the exported table follows.
TABLE_ORDER = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
               "bool", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]",
               "duration[s]", "duration[ms]", "duration[us]", "duration[ns]"]
TIME_UNIT_NAMES = ("timestamp", "duration")


def value_at(name, i):
    if name == "bool":
        return i % 3 == 0
    if name == "float32":
        return (i - 50) * 0.25
    if name == "float64":
        return (i - 50) * 1048576.125
    if name.startswith(TIME_UNIT_NAMES):
        return (i - 50) * 1000000007  # the count of units
    signed = name.startswith("int")
    bits = int(name[3:] if signed else name[4:])
    x = (i * 0x9E3779B97F4A7C15 + 11) % 2**64 % 2**bits
    return x - 2**bits if signed and x >= 2 ** (bits - 1) else x


def null_at(i):
    return i % 7 == 3


def expected(name, first=FIRST, last=LAST):
    return [None if null_at(i) else value_at(name, i) for i in range(first, last)]


def raw_values(array):
    """The values as Python numbers: time types as their int64 counts (no datetime conversion)."""
    if pa.types.is_timestamp(array.type) or pa.types.is_duration(array.type):
        array = array.view(pa.int64())
    return array.to_pylist()


def pyarrow_array(name, tz=None):
    """The 100-row test column made by pyarrow itself."""
    t = TYPES[name]
    if tz is not None:
        t = pa.timestamp(t.unit, tz=tz)
    values = expected(name, 0, BASE_ROWS)
    if name.startswith(TIME_UNIT_NAMES):
        return pa.array(values, type=pa.int64()).view(t)
    return pa.array(values, type=t)


# Decimals: (bits, the pyarrow type's maker, the widest precision); the unscaled value of row i.
DECIMALS = [(32, pa.decimal32, 9), (64, pa.decimal64, 18), (128, pa.decimal128, 38)]
EXACT = decimal.Context(prec=100)  # wider than any decimal128: no rounding in the conversions


def decimal_at(bits, i):
    k = i - 50
    return {32: k * 1234567, 64: k * 12345678901234, 128: k * 10**30 + i * 7}[bits]


def expected_decimals(bits, first=FIRST, last=LAST):
    """The unscaled values of rows [first, last), None for nulls."""
    return [None if null_at(i) else decimal_at(bits, i) for i in range(first, last)]


def unscaled(values, scale):
    """pyarrow's decimal.Decimal values as unscaled integers at `scale`."""
    return [None if v is None else int(v.scaleb(scale, context=EXACT)) for v in values]


def pyarrow_decimals(bits, make, precision, scale):
    """The 100-row decimal test column made by pyarrow itself."""
    values = [None if v is None else decimal.Decimal(v).scaleb(-scale, context=EXACT)
              for v in expected_decimals(bits, 0, BASE_ROWS)]
    return pa.array(values, type=make(precision, scale))


def binary_at(width, i):
    return bytes((31 * i + 7 * b) & 0xFF for b in range(width))


def expected_binary(width, first=FIRST, last=LAST):
    return [None if null_at(i) else binary_at(width, i) for i in range(first, last)]


# --- a device stream through ctypes (where pyarrow has none in Python) ------------------------------


def read_device_stream(stream):
    """Consumes an ArrowDeviceArrayStream as a reader would, pyarrow importing the schema and each
    batch; releases the stream. Raises RuntimeError with get_last_error's message on an error."""
    try:
        if hasattr(pa.RecordBatchReader, "_import_from_c_device"):
            return list(pa.RecordBatchReader._import_from_c_device(addr(stream)))
        if stream.device_type != ARROW_DEVICE_CPU:
            raise RuntimeError(f"stream.device_type is {stream.device_type}, not CPU")
        def expect_ok(code, call):
            if code != 0:
                message = stream.get_last_error(ctypes.byref(stream))
                raise RuntimeError(f"{call}: errno {code}: {ctypes.string_at(message).decode() if message else ''}")

        schema_struct = ArrowSchema()
        expect_ok(stream.get_schema(ctypes.byref(stream), ctypes.byref(schema_struct)), "get_schema")
        schema = pa.Schema._import_from_c(addr(schema_struct))
        batches = []
        while True:
            array = ArrowDeviceArray()
            expect_ok(stream.get_next(ctypes.byref(stream), ctypes.byref(array)), "get_next")
            if not array.array.release:
                return batches
            if array.device_type != stream.device_type:
                raise RuntimeError(f"array.device_type {array.device_type} is not the stream's")
            batches.append(pa.RecordBatch._import_from_c_device(addr(array), schema))
    finally:
        if stream.release:
            stream.release(ctypes.byref(stream))


class PyarrowDeviceStream:
    """An ArrowDeviceArrayStream whose schema and batches pyarrow exports (`_export_to_c`,
    `_export_to_c_device`); the callbacks run in Python."""

    def __init__(self, schema, batches, failure=None):
        """Serves `batches`, then raises `failure` (a message) from get_next if one is given."""
        self.schema, self.batches, self.failure = schema, list(batches), failure
        self.error, self.released = b"", False
        # Kept here: ctypes frees a callback's trampoline with its Python object.
        self._callbacks = (GET_SCHEMA(self._get_schema), GET_NEXT(self._get_next),
                           GET_LAST_ERROR(self._get_last_error), RELEASE_STREAM(self._release))
        self.struct = ArrowDeviceArrayStream(ARROW_DEVICE_CPU, *self._callbacks, None)

    def _guard(self, f):
        try:
            f()
            return 0
        except Exception as e:  # a C callback must not raise
            self.error = ctypes.create_string_buffer(str(e).encode())
            return errno.EIO

    def _get_schema(self, _, out):
        return self._guard(lambda: self.schema._export_to_c(ctypes.cast(out, ctypes.c_void_p).value))

    def _get_next(self, _, out):
        def next_batch():
            if not self.batches:
                if self.failure:
                    raise RuntimeError(self.failure)
                ctypes.memset(out, 0, ctypes.sizeof(ArrowDeviceArray))  # the end: a released array
                return
            self.batches.pop(0)._export_to_c_device(ctypes.cast(out, ctypes.c_void_p).value)
        return self._guard(next_batch)

    def _get_last_error(self, _):
        return ctypes.addressof(self.error) if self.error else None

    def _release(self, stream):
        self.batches, self.released = [], True
        stream.contents.release = RELEASE_STREAM()


# --- the tests -------------------------------------------------------------------------------------------


class PeerTest(unittest.TestCase):
    def tearDown(self):
        # Whatever devcol allocated for exports pyarrow released, and for imports devcol dropped.
        gc.collect()
        self.assertEqual(lib.devcol_peer_live_allocations(), 0, "devcol allocations still live after the test")

    def assert_released(self, schema, array):
        self.assertFalse(schema.release, "the ArrowSchema was not released or moved")
        self.assertFalse(array.array.release, "the ArrowArray was not released or moved")

    def assert_values(self, array, name, first=FIRST, last=LAST):
        self.assertEqual(raw_values(array), expected(name, first, last))
        self.assertEqual(array.null_count, sum(null_at(i) for i in range(first, last)))


class DevcolToPyarrow(PeerTest):
    def test_every_type_imports_validates_and_reads_back(self):
        for name in TYPES:
            with self.subTest(type=name):
                schema, array = ArrowSchema(), ArrowDeviceArray()
                code, text = call(lib.devcol_peer_export_column, name.encode(), addr(schema), addr(array))
                self.assertEqual(code, 0, text)
                self.assertGreater(lib.devcol_peer_live_allocations(), 0)
                # What the host backend states before pyarrow reads anything.
                self.assertEqual(array.device_type, ARROW_DEVICE_CPU)
                self.assertEqual(array.device_id, -1)
                self.assertIsNone(array.sync_event)
                self.assertEqual(list(array.reserved), [0, 0, 0])
                self.assertEqual((array.array.offset, array.array.length), (FIRST, LAST - FIRST))
                self.assertEqual(schema.name.decode(), name)

                devcol_values = ctypes.cast(array.array.buffers, ctypes.POINTER(ctypes.c_void_p))[1]

                arr = pa.Array._import_from_c_device(addr(array), addr(schema))
                self.assert_released(schema, array)  # moved into pyarrow
                self.assertEqual(arr.type, TYPES[name])
                self.assertTrue(arr.is_cpu)
                arr.validate(full=True)
                self.assertEqual(arr.offset, FIRST)
                self.assert_values(arr, name)
                # pyarrow's own slicing over devcol's memory.
                self.assertEqual(raw_values(arr.slice(5, 11)), expected(name)[5:16])
                # Zero-copy: pyarrow reads the buffer devcol exported (for bool, the packed bits).
                self.assertEqual(arr.buffers()[1].address, devcol_values)
                del arr
                gc.collect()
                self.assertEqual(lib.devcol_peer_live_allocations(), 0, "pyarrow did not release the export")

    def test_a_table_imports_as_a_record_batch(self):
        schema, array = ArrowSchema(), ArrowDeviceArray()
        code, text = call(lib.devcol_peer_export_table, FIRST, LAST, addr(schema), addr(array))
        self.assertEqual(code, 0, text)
        self.assertEqual(array.device_type, ARROW_DEVICE_CPU)
        batch = pa.RecordBatch._import_from_c_device(addr(array), addr(schema))
        self.assert_released(schema, array)
        batch.validate(full=True)
        self.assertEqual(batch.num_rows, LAST - FIRST)
        self.assertEqual(batch.schema.names, TABLE_ORDER)
        for name in TABLE_ORDER:
            with self.subTest(column=name):
                column = batch.column(name)
                self.assertEqual(column.type, TYPES[name])
                self.assert_values(column, name)
        # A slice of the batch, read through pyarrow.
        part = batch.slice(7, 20)
        part.validate(full=True)
        self.assertEqual(raw_values(part.column("int32")), expected("int32", FIRST + 7, FIRST + 27))

    def test_a_stream_imports_batch_by_batch(self):
        stream = ArrowDeviceArrayStream()
        code, text = call(lib.devcol_peer_export_stream, addr(stream))
        self.assertEqual(code, 0, text)
        self.assertEqual(stream.device_type, ARROW_DEVICE_CPU)
        batches = read_device_stream(stream)
        self.assertFalse(stream.release, "the stream was not released")
        self.assertEqual(len(batches), 3)
        for batch, (first, last) in zip(batches, [(0, 30), (37, 61), (61, 100)]):
            with self.subTest(rows=(first, last)):
                batch.validate(full=True)
                self.assertEqual(batch.schema.names, TABLE_ORDER)
                for name in TABLE_ORDER:
                    self.assertEqual(batch.column(name).type, TYPES[name])
                    self.assert_values(batch.column(name), name, first, last)
        # tearDown checks that pyarrow released every batch once this test's references are gone.

    def test_an_unknown_type_name_is_an_error_with_a_message(self):
        schema, array = ArrowSchema(), ArrowDeviceArray()
        code, text = call(lib.devcol_peer_export_column, b"decimal128", addr(schema), addr(array))
        self.assertEqual(code, OTHER_ERROR)
        self.assertIn("no column type named 'decimal128'", text)
        self.assert_released(schema, array)  # never written


class DecimalAndBinaryToPyarrow(PeerTest):
    def test_decimals_import_validate_and_read_back(self):
        for bits, make, precision in DECIMALS:
            for scale in (2, -3):
                with self.subTest(bits=bits, scale=scale):
                    schema, array = ArrowSchema(), ArrowDeviceArray()
                    code, text = call(lib.devcol_peer_export_decimal, bits, precision, scale, addr(schema), addr(array))
                    self.assertEqual(code, 0, text)
                    self.assertEqual(array.device_type, ARROW_DEVICE_CPU)
                    self.assertEqual((array.array.offset, array.array.length), (FIRST, LAST - FIRST))
                    devcol_values = ctypes.cast(array.array.buffers, ctypes.POINTER(ctypes.c_void_p))[1]
                    arr = pa.Array._import_from_c_device(addr(array), addr(schema))
                    self.assert_released(schema, array)
                    self.assertEqual(arr.type, make(precision, scale))
                    arr.validate(full=True)  # checks every value against the precision too
                    self.assertEqual(arr.offset, FIRST)
                    self.assertEqual(arr.null_count, sum(null_at(i) for i in range(FIRST, LAST)))
                    self.assertEqual(unscaled(arr.to_pylist(), scale), expected_decimals(bits))
                    self.assertEqual(unscaled(arr.slice(5, 11).to_pylist(), scale), expected_decimals(bits)[5:16])
                    self.assertEqual(arr.buffers()[1].address, devcol_values)  # zero-copy
                    del arr
                    gc.collect()
                    self.assertEqual(lib.devcol_peer_live_allocations(), 0, "pyarrow did not release the export")

    def test_fixed_size_binary_imports_validates_and_reads_back(self):
        for width in (1, 3, 16):
            with self.subTest(width=width):
                schema, array = ArrowSchema(), ArrowDeviceArray()
                code, text = call(lib.devcol_peer_export_fixed_size_binary, width, addr(schema), addr(array))
                self.assertEqual(code, 0, text)
                devcol_values = ctypes.cast(array.array.buffers, ctypes.POINTER(ctypes.c_void_p))[1]
                arr = pa.Array._import_from_c_device(addr(array), addr(schema))
                self.assert_released(schema, array)
                self.assertEqual(arr.type, pa.binary(width))
                arr.validate(full=True)
                self.assertEqual(arr.offset, FIRST)
                self.assertEqual(arr.to_pylist(), expected_binary(width))
                self.assertEqual(arr.slice(7, 9).to_pylist(), expected_binary(width)[7:16])
                self.assertEqual(arr.buffers()[1].address, devcol_values)
                del arr
                gc.collect()
                self.assertEqual(lib.devcol_peer_live_allocations(), 0, "pyarrow did not release the export")


class PyarrowToDevcolDecimalAndBinary(PeerTest):
    def import_with(self, function, first_arg, arr):
        schema, array = ArrowSchema(), ArrowDeviceArray()
        arr._export_to_c_device(addr(array), addr(schema))
        args = ([first_arg] if first_arg is not None else []) + [addr(schema), addr(array)]
        code, text = call(function, *args)
        self.assert_released(schema, array)
        return code, text

    def test_decimals_whole_and_sliced_off_the_byte_boundary(self):
        for bits, make, precision in DECIMALS:
            for scale in (4, -1):
                for first, last in [(0, BASE_ROWS), (FIRST, 83)]:
                    with self.subTest(bits=bits, scale=scale, rows=(first, last)):
                        arr = pyarrow_decimals(bits, make, precision, scale).slice(first, last - first)
                        code, text = self.import_with(lib.devcol_peer_import_decimal, bits, arr)
                        self.assertEqual(code, 0, text)
                        got = json.loads(text)
                        self.assertEqual(got["type"], f"decimal{bits}({precision}, {scale})")
                        self.assertEqual((got["precision"], got["scale"]), (precision, scale))
                        self.assertEqual(got["size"], len(arr))
                        self.assertEqual(got["null_count"], arr.null_count)
                        self.assertEqual(got["values"], expected_decimals(bits, first, last))
                        self.assertEqual(got["offset"], arr.offset)
                        self.assertEqual(got["data"], arr.buffers()[1].address + arr.offset * bits // 8, "not zero-copy")

    def test_fixed_size_binary_whole_and_sliced(self):
        for width in (1, 5, 16):
            for first, last in [(0, BASE_ROWS), (FIRST, 83)]:
                with self.subTest(width=width, rows=(first, last)):
                    values = expected_binary(width, 0, BASE_ROWS)
                    arr = pa.array(values, type=pa.binary(width)).slice(first, last - first)
                    code, text = self.import_with(lib.devcol_peer_import_fixed_size_binary, None, arr)
                    self.assertEqual(code, 0, text)
                    got = json.loads(text)
                    self.assertEqual(got["type"], f"fixed_size_binary[{width}]")
                    self.assertEqual(got["null_count"], arr.null_count)
                    self.assertEqual([None if v is None else bytes.fromhex(v) for v in got["values"]],
                                     expected_binary(width, first, last))
                    self.assertEqual(got["offset"], arr.offset)
                    self.assertEqual(got["data"], arr.buffers()[1].address, "not zero-copy")

    def test_an_empty_decimal_array_imports(self):
        code, text = self.import_with(lib.devcol_peer_import_decimal, 128, pa.array([], type=pa.decimal128(5, 1)))
        self.assertEqual(code, 0, text)
        self.assertEqual(json.loads(text)["values"], [])

    def test_decimal256_asked_as_decimal128_is_refused_by_name_and_released(self):
        code, text = self.import_with(lib.devcol_peer_import_decimal, 128, pa.array([1], type=pa.decimal256(40, 0)))
        self.assertEqual(code, REFUSED, text)
        self.assertIn("is decimal256, not decimal128", text)

    def test_a_decimal_of_another_width_is_refused(self):
        code, text = self.import_with(lib.devcol_peer_import_decimal, 64, pa.array([1], type=pa.decimal128(10, 2)))
        self.assertEqual(code, REFUSED, text)
        self.assertIn("is decimal128, not decimal64", text)

    def test_a_variable_width_binary_is_refused_as_fixed_size(self):
        code, text = self.import_with(lib.devcol_peer_import_fixed_size_binary, None, pa.array([b"ab"]))
        self.assertEqual(code, REFUSED, text)
        self.assertIn("format 'z' is not a fixed-size binary", text)


class PyarrowToDevcol(PeerTest):
    def import_column(self, name, arr, as_name=None):
        """Exports `arr` from pyarrow and imports it into devcol as `as_name` (default `name`);
        checks that devcol took both structs over. Returns (code, text)."""
        schema, array = ArrowSchema(), ArrowDeviceArray()
        arr._export_to_c_device(addr(array), addr(schema))
        self.assertEqual(array.device_type, ARROW_DEVICE_CPU)
        code, text = call(lib.devcol_peer_import_column, (as_name or name).encode(), addr(schema), addr(array))
        self.assert_released(schema, array)
        return code, text

    def assert_devcol_saw(self, text, name, arr, first, last):
        got = json.loads(text)
        self.assertEqual(got["type"], name)
        self.assertEqual(got["size"], len(arr))
        self.assertEqual(got["null_count"], arr.null_count)
        self.assertEqual(got["values"], expected(name, first, last))
        if name != "bool":  # bools are unpacked (a copy); everything else is borrowed at pyarrow's offset
            width = arr.type.bit_width // 8
            self.assertEqual(got["data"], arr.buffers()[1].address + arr.offset * width, "not zero-copy")
            self.assertEqual(got["offset"], arr.offset)

    def test_every_type_whole_and_sliced_off_the_byte_boundary(self):
        for name in TYPES:
            for first, last in [(0, BASE_ROWS), (FIRST, 83)]:
                with self.subTest(type=name, rows=(first, last)):
                    arr = pyarrow_array(name).slice(first, last - first)
                    code, text = self.import_column(name, arr)
                    self.assertEqual(code, 0, text)
                    self.assert_devcol_saw(text, name, arr, first, last)

    def test_a_sliced_int64_array_is_borrowed_at_its_offset(self):
        arr = pyarrow_array("int64").slice(3, 10)
        code, text = self.import_column("int64", arr)
        self.assertEqual(code, 0, text)
        got = json.loads(text)
        self.assertEqual(got["offset"], 3)
        self.assertEqual(got["values"], expected("int64", 3, 13))
        self.assertEqual(got["data"], arr.buffers()[1].address + 3 * 8)

    def test_a_pyarrow_bool_array_is_unpacked(self):
        arr = pa.array([True, False, None, True, True, False, None, False, True, True, False], type=pa.bool_())
        for first in (0, 3):
            with self.subTest(offset=first):
                part = arr.slice(first)
                code, text = self.import_column("bool", part)
                self.assertEqual(code, 0, text)
                got = json.loads(text)
                self.assertEqual(got["values"], part.to_pylist())
                self.assertEqual(got["null_count"], part.null_count)

    def test_a_timestamp_with_a_time_zone_imports_as_its_unit(self):
        for tz in ("UTC", "Europe/Paris", "+05:30"):
            with self.subTest(tz=tz):
                arr = pyarrow_array("timestamp[ms]", tz=tz).slice(FIRST, 70)
                code, text = self.import_column("timestamp[ms]", arr)
                self.assertEqual(code, 0, text)
                self.assert_devcol_saw(text, "timestamp[ms]", arr, FIRST, 83)

    def test_the_release_callback_runs_when_devcol_drops_the_column(self):
        before = pa.total_allocated_bytes()
        arr = pa.array(range(100000), type=pa.int64())
        self.assertGreater(pa.total_allocated_bytes(), before)
        schema, array = ArrowSchema(), ArrowDeviceArray()
        arr._export_to_c_device(addr(array), addr(schema))
        del arr  # now only the export holds pyarrow's buffer
        gc.collect()
        self.assertGreater(pa.total_allocated_bytes(), before)
        code, text = call(lib.devcol_peer_import_column, b"int64", addr(schema), addr(array))
        self.assertEqual(code, 0, text)
        self.assertEqual(pa.total_allocated_bytes(), before, "devcol did not release pyarrow's array")

    def test_a_record_batch_imports_as_a_table(self):
        columns = [pyarrow_array(name) for name in TABLE_ORDER]
        batch = pa.RecordBatch.from_arrays(columns, names=TABLE_ORDER)
        for first, last in [(0, BASE_ROWS), (FIRST, 83)]:
            with self.subTest(rows=(first, last)):
                part = batch.slice(first, last - first)
                schema, array = ArrowSchema(), ArrowDeviceArray()
                part._export_to_c_device(addr(array), addr(schema))
                code, text = call(lib.devcol_peer_import_table, addr(schema), addr(array))
                self.assert_released(schema, array)
                self.assertEqual(code, 0, text)
                got = json.loads(text)
                self.assertEqual(got["num_rows"], last - first)
                self.assertEqual([c["name"] for c in got["columns"]], TABLE_ORDER)
                for c in got["columns"]:
                    self.assertEqual(c["column"]["type"], c["name"])
                    self.assertEqual(c["column"]["values"], expected(c["name"], first, last), c["name"])

    def test_a_stream_of_record_batches_imports_as_tables(self):
        columns = [pyarrow_array(name) for name in TABLE_ORDER]
        batch = pa.RecordBatch.from_arrays(columns, names=TABLE_ORDER)
        ranges = [(0, 30), (37, 61), (61, 100)]
        parts = [batch.slice(first, last - first) for first, last in ranges]
        stream = ArrowDeviceArrayStream()
        if hasattr(pa.RecordBatchReader, "_export_to_c_device"):
            pa.RecordBatchReader.from_batches(batch.schema, parts)._export_to_c_device(addr(stream))
        else:
            producer = PyarrowDeviceStream(batch.schema, parts)
            ctypes.pointer(stream)[0] = producer.struct
        code, text = call(lib.devcol_peer_import_stream, addr(stream))
        self.assertEqual(code, 0, text)
        if not hasattr(pa.RecordBatchReader, "_export_to_c_device"):
            self.assertTrue(producer.released, "devcol did not release the stream")
        got = json.loads(text)
        self.assertEqual(len(got["batches"]), 3)
        for table, (first, last) in zip(got["batches"], ranges):
            self.assertEqual(table["num_rows"], last - first)
            for c in table["columns"]:
                self.assertEqual(c["column"]["values"], expected(c["name"], first, last), c["name"])

    def test_a_failing_stream_is_reported_with_its_message_and_released(self):
        batch = pa.record_batch({"n": pa.array([1, None, 3], type=pa.int64())})
        producer = PyarrowDeviceStream(batch.schema, [batch], failure="the disk went away")
        stream = ArrowDeviceArrayStream()
        ctypes.pointer(stream)[0] = producer.struct
        code, text = call(lib.devcol_peer_import_stream, addr(stream))
        self.assertEqual(code, REFUSED, text)
        self.assertIn(f"errno {errno.EIO}", text)
        self.assertIn("the disk went away", text)
        self.assertTrue(producer.released, "devcol did not release the stream")

    def test_misaligned_values_are_copied_not_read_misaligned(self):
        values = [7, -1, 2**62, None, 5]
        buffer = pa.allocate_buffer(48)  # 64-byte aligned, writable
        memoryview(buffer).cast("B")[4:44] = struct.pack("<5q", *[v or 0 for v in values])
        data = buffer.slice(4)  # the int64s start 4 bytes past an aligned address
        self.assertEqual(data.address % 8, 4)
        validity = pa.array([v is not None for v in values]).buffers()[1]
        arr = pa.Array.from_buffers(pa.int64(), len(values), [validity, data], null_count=1)
        self.assertEqual(arr.to_pylist(), values)
        code, text = self.import_column("int64", arr)
        self.assertEqual(code, 0, text)
        got = json.loads(text)
        self.assertEqual(got["values"], values)
        self.assertEqual(got["data"] % 8, 0)  # a copy, aligned

    def test_a_string_array_imported_as_int64_is_refused_and_released(self):
        before = pa.total_allocated_bytes()
        arr = pa.array(["a", "bc", None, "def"])
        code, text = self.import_column("int64", arr)
        self.assertEqual(code, REFUSED, text)
        self.assertIn("format 'u' is not int64", text)
        self.assertEqual(arr.to_pylist(), ["a", "bc", None, "def"])  # pyarrow's array is untouched
        arr.validate(full=True)
        del arr
        gc.collect()
        self.assertEqual(pa.total_allocated_bytes(), before, "the refused array was not released")

    def test_an_int32_array_imported_as_int64_is_refused(self):
        code, text = self.import_column("int64", pa.array([1, 2, 3], type=pa.int32()))
        self.assertEqual(code, REFUSED, text)
        self.assertIn("format 'i' is not int64", text)

    def test_a_record_batch_with_string_and_nested_columns_imports(self):
        batch = pa.record_batch({"n": pa.array([1, 2], type=pa.int64()), "s": pa.array(["x", None]),
                                 "l": pa.array([[1], None], type=pa.list_(pa.int64()))})
        schema, array = ArrowSchema(), ArrowDeviceArray()
        batch._export_to_c_device(addr(array), addr(schema))
        code, text = call(lib.devcol_peer_import_table, addr(schema), addr(array))
        self.assertEqual(code, 0, text)
        self.assert_released(schema, array)
        columns = json.loads(text)["columns"]
        self.assertEqual([c["column"]["type"] for c in columns], ["int64", "string", "list<int64>"])
        self.assertEqual(columns[2]["column"]["values"], [[1], None])


# --- nested: lists, structs, dictionaries, and list<struct<string, int64>> -------------------------

NESTED_TYPES = {
    "list_struct": pa.list_(pa.struct([("a", pa.string()), ("b", pa.int64())])),
    "list": pa.list_(pa.int64()),
    "large_list": pa.large_list(pa.string()),
    "struct": pa.struct([("x", pa.float64()), ("y", pa.bool_())]),
    "dictionary": pa.dictionary(pa.int32(), pa.string()),
}


def same_type(a, b):
    """Equal types, list field names aside (Arrow C++ calls the child "item", as devcol does)."""
    return a.equals(b, check_metadata=False) or str(a).replace("element", "item") == str(b).replace("element", "item")


class NestedDevcolToPyarrow(PeerTest):
    def test_every_nested_kind_imports_validates_and_reads_back(self):
        for kind, arrow_type in NESTED_TYPES.items():
            with self.subTest(kind=kind):
                schema, array = ArrowSchema(), ArrowDeviceArray()
                code, text = call(lib.devcol_peer_export_nested, kind.encode(), addr(schema), addr(array))
                self.assertEqual(code, 0, text)
                described = json.loads(text)
                self.assertEqual((array.array.offset, array.array.length), (FIRST, LAST - FIRST))  # zero-copy slice
                arr = pa.Array._import_from_c_device(addr(array), addr(schema))
                self.assert_released(schema, array)
                self.assertTrue(same_type(arr.type, arrow_type), f"{arr.type} is not {arrow_type}")
                arr.validate(full=True)
                self.assertEqual(arr.null_count, described["null_count"])
                self.assertEqual(arr.to_pylist(), described["values"])
                self.assertEqual(arr.slice(5, 11).to_pylist(), described["values"][5:16])
                del arr
                gc.collect()
                self.assertEqual(lib.devcol_peer_live_allocations(), 0, "pyarrow did not release the export")


class NestedPyarrowToDevcol(PeerTest):
    def import_any(self, arr):
        schema, array = ArrowSchema(), ArrowDeviceArray()
        arr._export_to_c_device(addr(array), addr(schema))
        code, text = call(lib.devcol_peer_import_any, addr(schema), addr(array))
        self.assert_released(schema, array)
        return code, text

    def arrays(self):
        rows = []
        for i in range(100):
            if i % 7 == 3:
                rows.append(None)
                continue
            rows.append([None if (i + k) % 9 == 7 else {"a": None if k == 1 else "s" * k + str(i),
                                                        "b": None if (i + k) % 6 == 4 else i * 10 + k}
                         for k in range(i % 4)])
        yield "list<struct<a: string, b: int64>>", pa.array(rows, type=NESTED_TYPES["list_struct"])
        yield "list<int64>", pa.array([None if i % 5 == 2 else list(range(i % 4)) for i in range(100)],
                                      type=pa.list_(pa.int64()))
        yield "large_list<string>", pa.array([None if i % 5 == 2 else ["x" * k for k in range(i % 3)]
                                              for i in range(100)], type=pa.large_list(pa.string()))
        yield "struct<x: float64, y: bool>", pa.array(
            [None if i % 6 == 5 else {"x": i / 4, "y": None if i % 5 == 2 else i % 2 == 0} for i in range(100)],
            type=NESTED_TYPES["struct"])
        yield "dictionary<values=string, indices=int32>", pa.array(
            [None if i % 7 == 3 else ["red", "green", "blue"][i % 3] for i in range(100)]).dictionary_encode()

    def test_every_nested_kind_whole_sliced_and_empty(self):
        for type_name, arr in self.arrays():
            for first, last in ((0, 100), (13, 83), (5, 5)):
                with self.subTest(type=type_name, first=first, last=last):
                    part = arr.slice(first, last - first)
                    code, text = self.import_any(part)
                    self.assertEqual(code, 0, text)
                    described = json.loads(text)
                    self.assertEqual(described["type"], type_name)
                    self.assertEqual(described["size"], last - first)
                    self.assertEqual(described["null_count"], part.null_count)
                    self.assertEqual(described["values"], part.to_pylist())

    def test_bad_list_offsets_are_refused_and_released(self):
        offsets = pa.array([0, 3, 2, 4], type=pa.int32())
        values = pa.array([1, 2, 3, 4], type=pa.int64())
        arr = pa.ListArray.from_buffers(pa.list_(pa.int64()), 3, [None, offsets.buffers()[1]], children=[values])
        code, text = self.import_any(arr)
        self.assertEqual(code, REFUSED, text)
        self.assertIn("array.buffers[1] (offsets)", text)


if __name__ == "__main__":
    print(f"pyarrow {pa.__version__}; device stream in Python: "
          f"{hasattr(pa.RecordBatchReader, '_import_from_c_device')} (import), "
          f"{hasattr(pa.RecordBatchReader, '_export_to_c_device')} (export)", file=sys.stderr)
    unittest.main()
