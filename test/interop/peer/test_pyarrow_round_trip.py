#!/usr/bin/env python3
"""Arrow -> devcol -> Arrow, differentially against pyarrow: schema fidelity and the newer kinds.

A record batch built here (dates, times of day, binary and large binary, decimal256, null,
fixed-size lists, string and binary views, maps (keys sorted or not), list views, run-end encoded, sparse and
dense unions, half floats, fixed-size binary of width 0,
month_day_nano intervals, timestamps with time zones, a non-nullable field, field and schema metadata, a list with
a named non-nullable child, a struct with metadata on a child, an ordered dictionary, dictionaries over every
integer index type and one with a null value, the arrow.uuid extension and an unregistered one), sliced at an odd offset, with nulls, goes through
devcol_peer_round_trip: devcol imports it as a table (`table_from_arrow`), runs an op on every
column (none, gather, filter, concatenate, is_null; sort and compare on dates, times, binary and
decimal256), and exports the result. pyarrow imports that, validates it (`validate(full=True)`),
and it must equal what pyarrow computes on its own: the schema with `check_metadata=True`, and the
data.

Uses the C structs and the library of test_pyarrow_peer.py (DEVCOL_PEER_LIBRARY, as CTest sets it).
"""
import ctypes
import decimal
import gc
import unittest

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import test_pyarrow_peer as peer

lib = peer.lib
lib.devcol_peer_round_trip.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                       ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.devcol_peer_round_trip.restype = ctypes.c_int
lib.devcol_peer_stream_schema.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
lib.devcol_peer_stream_schema.restype = ctypes.c_int

ROWS, FIRST, LAST = 100, 13, 70  # the batch is sliced to rows [13, 70): an offset off the byte boundary

def null_at(i):
    return i % 7 == 3


def mask():
    return np.array([null_at(i) for i in range(ROWS)])


def viewed(values, storage, arrow_type):
    """ROWS values of a numpy dtype, viewed as `arrow_type` (same width), null where null_at."""
    return pa.array(np.array(values, dtype=storage), mask=mask()).view(arrow_type)


def dated_fields():
    i = np.arange(ROWS)
    yield pa.field("date32", pa.date32()), viewed((i - 50) * 37, np.int32, pa.date32())
    yield pa.field("date64", pa.date64()), viewed((i - 50) * 86400000, np.int64, pa.date64())
    yield pa.field("time32_s", pa.time32("s")), viewed((i * 877) % 86400, np.int32, pa.time32("s"))
    yield pa.field("time32_ms", pa.time32("ms")), viewed((i * 8770001) % 86400000, np.int32, pa.time32("ms"))
    yield pa.field("time64_us", pa.time64("us")), viewed((i * 987654321) % 86400000000, np.int64, pa.time64("us"))
    yield pa.field("time64_ns", pa.time64("ns")), viewed((i * 98765432101) % 86400000000000, np.int64,
                                                      pa.time64("ns"))


def binary_fields():
    """Binary and large binary: bytes that are not UTF-8 (NUL, 0xFF, 0xC3), empty rows among them."""
    rows = [None if null_at(k) else bytes([0, 255, 195, 97, k % 256][(k + b) % 5] for b in range(k % 6))
            for k in range(ROWS)]
    yield pa.field("binary", pa.binary()), pa.array(rows, pa.binary())
    yield pa.field("large_binary", pa.large_binary(), metadata={"k": "v"}), pa.array(rows, pa.large_binary())
    # Rows of up to 20 bytes, most sharing their first 7 (NUL and 0xFF among them), some prefixes of
    # the others: a sort must order them by the bytes past the seventh, and shorter before longer.
    prefix = bytes([0, 255, 195, 97, 0, 255, 98])
    shared = [None if null_at(k) else prefix[:k % 8] if k % 5 == 0 else
              prefix + bytes([0, 255, 195, 97][(k * b + k // 4) % 4] for b in range(k % 14)) for k in range(ROWS)]
    yield pa.field("binary_shared_prefix", pa.binary()), pa.array(shared, pa.binary())


def decimal256_fields():
    """decimal256 of 76 digits: both signs, past 128 bits, ties."""
    values = [None if null_at(k) else decimal.Decimal(f"{(k % 9 - 4) * 7 ** (k % 90)}e-3") for k in range(ROWS)]
    yield pa.field("decimal256", pa.decimal256(76, 3)), pa.array(values, pa.decimal256(76, 3))


def ordered_fields():
    """The newer columns with an order: sort and compare run on them."""
    yield from dated_fields()
    yield from binary_fields()
    yield from decimal256_fields()


def fields():
    """(field, array of ROWS rows) for every column of the test batch."""
    yield from ordered_fields()
    yield pa.field("null", pa.null()), pa.nulls(ROWS)
    # fixed-size binary of width 0: every row the empty string, as Arrow allows
    yield pa.field("fixed_size_binary_0", pa.binary(0)), pa.array(
        [None if null_at(k) else b"" for k in range(ROWS)], pa.binary(0))
    triples = pa.list_(pa.int16(), 3)
    yield pa.field("fixed_size_list", triples), pa.array(
        [None if null_at(k) else [k, None if k % 4 == 1 else -k, 7] for k in range(ROWS)], triples)
    pairs = pa.list_(pa.field("name", pa.string(), nullable=False), 2)
    yield pa.field("fixed_size_list_named", pairs), pa.array(
        [None if null_at(k) else ["a" * (k % 3), str(k)] for k in range(ROWS)], pairs)
    i = np.arange(ROWS)
    halves = np.array((i - 50) * 0.25, dtype=np.float16).view(np.uint16)
    yield pa.field("halffloat", pa.float16()), viewed(halves, np.uint16, pa.float16())
    # interval[months] and interval[day_time] have no array class in pyarrow's Python API: the Arrow C++
    # peer test (test_arrow_cpp_arrays.cpp) and test_arrow_types.cpp cover them.
    yield pa.field("month_day_nano", pa.month_day_nano_interval()), pa.array(
        [None if null_at(k) else (k - 50, k % 31, k * 1000000007) for k in range(ROWS)], pa.month_day_nano_interval())
    instants = [None if null_at(k) else (k - 50) * 3600 * 1000003 for k in range(ROWS)]
    yield pa.field("ts_new_york", pa.timestamp("us", tz="America/New_York")), pa.array(
        instants, pa.timestamp("us", tz="America/New_York"))
    yield pa.field("ts_utc", pa.timestamp("ns", tz="UTC")), pa.array(instants, pa.timestamp("ns", tz="UTC"))
    yield pa.field("not_null", pa.int64(), nullable=False), pa.array(i * 3 - 7, pa.int64())
    yield pa.field("with_metadata", pa.float64(), metadata={"unit": "m", "note": "caf\u00e9"}), pa.array(
        [None if null_at(k) else k / 8 for k in range(ROWS)], pa.float64())
    list_type = pa.list_(pa.field("element", pa.int32(), nullable=False))
    yield pa.field("list_named", list_type), pa.array(
        [None if null_at(k) else list(range(k % 4)) for k in range(ROWS)], list_type)
    struct_type = pa.struct([pa.field("a", pa.string(), metadata={"k": "v"}), pa.field("b", pa.int8(), nullable=False)])
    yield pa.field("struct_metadata", struct_type), pa.array(
        [None if null_at(k) else {"a": None if k % 5 == 1 else "s" * (k % 3), "b": k % 100} for k in range(ROWS)],
        struct_type)
    words = ["red", "green", "blue", "teal"]
    ordered = pa.dictionary(pa.int8(), pa.string(), ordered=True)
    yield pa.field("ordered", ordered), pa.DictionaryArray.from_arrays(
        pa.array([None if null_at(k) else k % 4 for k in range(ROWS)], pa.int8()), pa.array(words))
    for index in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(), pa.uint64()):
        values = pa.array(words, pa.large_string() if index == pa.uint32() else pa.string())  # polars: large
        yield pa.field(f"dictionary_{index}", pa.dictionary(index, values.type)), pa.DictionaryArray.from_arrays(
            pa.array([None if null_at(k) else (k * 3) % 4 for k in range(ROWS)], index), values)
    # a null value among the dictionary's: pyarrow's is_null counts the rows naming it as null
    yield pa.field("dictionary_null_value", pa.dictionary(pa.int16(), pa.string())), pa.DictionaryArray.from_arrays(
        pa.array([None if null_at(k) else k % 3 for k in range(ROWS)], pa.int16()), pa.array(["red", None, "blue"]))
    uuids = [None if null_at(k) else bytes((k * 7 + b) % 256 for b in range(16)) for k in range(ROWS)]
    yield pa.field("uuid", pa.uuid()), pa.array(uuids, pa.uuid())
    yield pa.field("unregistered_extension", pa.binary(16), metadata={
        "ARROW:extension:name": "devcol.test.unknown", "ARROW:extension:metadata": "{\"v\": 1}"}), pa.array(
        uuids, pa.binary(16))
    for keys_sorted in (False, True):  # the flag is the schema's: it must come back through every op
        map_type = pa.map_(pa.string(), pa.int32(), keys_sorted=keys_sorted)
        yield pa.field(f"map_sorted_{keys_sorted}", map_type), pa.array(
            [None if null_at(k) else [(f"k{k}_{j}", None if j == 1 else k * 10 + j) for j in range(k % 4)]
             for k in range(ROWS)], map_type)
    # list views: rows over a shared child, out of order and overlapping (offsets not monotonic)
    view_values = pa.array([None if k % 11 == 5 else k * 3 for k in range(60)], pa.int64())
    starts, lengths = [(k * 37) % 50 for k in range(ROWS)], [k % 7 for k in range(ROWS)]
    yield pa.field("list_view", pa.list_view(pa.int64())), pa.ListViewArray.from_arrays(
        pa.array(starts, pa.int32()), pa.array(lengths, pa.int32()), view_values, mask=pa.array(mask()))
    yield pa.field("large_list_view", pa.large_list_view(pa.int64())), pa.LargeListViewArray.from_arrays(
        pa.array(starts, pa.int64()), pa.array(lengths, pa.int64()), view_values, mask=pa.array(mask()))
    yield from view_fields()


def view_fields():
    """String view and binary view: rows inline (up to 12 bytes) and out of line, empty rows, nulls,
    bytes that are not UTF-8 in the binary view, in pyarrow's own data buffers."""
    text = [None if null_at(k) else ("k" * (k % 13) if k % 2 == 0 else f"an out-of-line row, number {k}")
            for k in range(ROWS)]
    yield pa.field("string_view", pa.string_view()), pa.array(text, pa.string_view())
    raw = [None if null_at(k) else bytes([0, 255, 195, 40][(k + b) % 4] for b in range(k % 30)) for k in range(ROWS)]
    yield pa.field("binary_view", pa.binary_view(), metadata={"k": "v"}), pa.array(raw, pa.binary_view())


def run_end_encoded_fields():
    """Run-end encoded over int16, int32 and int64 run ends (runs of 1 to 4 rows, some values null),
    and one over strings: the batch's slice puts their logical offset at 13, inside a run."""
    for end_type, value_type in ((pa.int16(), pa.int64()), (pa.int32(), pa.string()), (pa.int64(), pa.float64())):
        ends, values, end = [], [], 0
        while end < ROWS:
            r = len(ends)
            end = min(ROWS, end + r % 4 + 1)
            ends.append(end)
            values.append(None if r % 5 == 2 else (f"v{r}" if value_type == pa.string() else r * 10))
        array = pa.RunEndEncodedArray.from_arrays(pa.array(ends, end_type), pa.array(values, value_type))
        yield pa.field(f"run_end_encoded_{end_type}", array.type), array


def union_fields():
    """A sparse and a dense union of type codes 3, 7 and 5 (not 0..n-1) over int64, string and double
    children with nulls of their own; the dense union's children hold only their own rows, after an
    unused first row, so that its offsets start past 0. The batch's slice puts their offset at 13."""
    codes = [7 if k % 3 == 0 else (5 if k % 7 == 1 else 3) for k in range(ROWS)]

    def value(code, k):
        if code == 3:
            return None if k % 5 == 2 else k * 10
        if code == 7:
            return None if k % 4 == 1 else f"s{k}"
        return None if k % 2 == 0 else k / 4

    types = (pa.int64(), pa.string(), pa.float64())
    names, type_codes = ["i", "s", "d"], [3, 7, 5]
    ids = pa.array(codes, pa.int8())
    sparse = [pa.array([value(code, k) for k in range(ROWS)], t) for code, t in zip(type_codes, types)]
    yield pa.field("sparse_union", pa.sparse_union([pa.field(n, t) for n, t in zip(names, types)], type_codes)), \
        pa.UnionArray.from_sparse(ids, sparse, names, type_codes)
    dense = {code: [None] for code in type_codes}
    offsets = []
    for k, code in enumerate(codes):
        offsets.append(len(dense[code]))
        dense[code].append(value(code, k))
    children = [pa.array(dense[code], t) for code, t in zip(type_codes, types)]
    yield pa.field("dense_union", pa.dense_union([pa.field(n, t) for n, t in zip(names, types)], type_codes)), \
        pa.UnionArray.from_dense(ids, pa.array(offsets, pa.int32()), children, names, type_codes)


SCHEMA_METADATA = {"pandas": "{\"index_columns\": []}", "origin": "devcol round trip"}
ORDERED = [f.name for f, _ in ordered_fields()]


def test_batch():
    pairs = list(fields()) + list(run_end_encoded_fields()) + list(union_fields())
    schema = pa.schema([f for f, _ in pairs], metadata=SCHEMA_METADATA)
    return pa.RecordBatch.from_arrays([a for _, a in pairs], schema=schema).slice(FIRST, LAST - FIRST)


def gather_indices(n):
    return pa.array([None if i % 5 == 4 else (7 * i + 3) % n for i in range(n)], pa.int32())


def filter_flags(n):
    return pa.array([None if i % 4 == 2 else i % 3 != 1 for i in range(n)], pa.bool_())


# The plain types pyarrow's take and filter run on for the view types, which have no kernel of their own.
PLAIN = {pa.string_view(): pa.string(), pa.binary_view(): pa.binary()}


def is_ree(array):
    return pa.types.is_run_end_encoded(array.type)


def decoded(array):
    """A run-end encoded array's logical rows (pyarrow compares its runs, which devcol's ops need not
    match); any other array as it is."""
    return pc.run_end_decode(array) if is_ree(array) else array


def expected(batch, op):
    """What pyarrow computes for op on every column of batch (the peer's apply_op, in pyarrow)."""
    n = batch.num_rows
    if op in ("none", "concatenate"):
        return batch
    if op in ("gather", "filter"):  # column by column: pyarrow has no take or filter of run-end encoded arrays or views
        def apply(d):
            return d.take(gather_indices(n)) if op == "gather" else d.filter(filter_flags(n), null_selection_behavior="drop")
        out = []
        for c in batch.columns:
            if is_ree(c):
                out.append(pc.run_end_encode(apply(decoded(c)), run_end_type=c.type.run_end_type))
            elif c.type in PLAIN:
                out.append(apply(c.cast(PLAIN[c.type])).cast(c.type))
            else:
                out.append(apply(c))
        return pa.RecordBatch.from_arrays(out, schema=batch.schema)
    bools = []
    if op == "is_null":
        names = batch.schema.names
        bools = [pc.is_null(c) for c in batch.columns]
    else:
        names = [name for name in batch.schema.names if name in ORDERED]
        for name in names:
            c = batch.column(name)
            if op == "sort":
                bools.append(c.take(pc.array_sort_indices(c, null_placement="at_end")))
            else:
                bools.append(pc.less(c, c.take(pa.array(range(n - 1, -1, -1)))))
    kept = [batch.schema.field(name) for name in names]
    out_fields = [f if op == "sort" else pa.field(f.name, pa.bool_()) for f in kept]
    return pa.RecordBatch.from_arrays(bools, schema=pa.schema(out_fields, metadata=batch.schema.metadata))


class RoundTrip(peer.PeerTest):
    def round_trip(self, batch, op):
        schema, array = peer.ArrowSchema(), peer.ArrowDeviceArray()
        batch._export_to_c_device(ctypes.addressof(array), ctypes.addressof(schema))
        out_schema, out_array = peer.ArrowSchema(), peer.ArrowDeviceArray()
        code, text = peer.call(lib.devcol_peer_round_trip, op.encode(), ctypes.addressof(schema),
                               ctypes.addressof(array), ctypes.addressof(out_schema), ctypes.addressof(out_array))
        self.assert_released(schema, array)
        self.assertEqual(code, 0, text)
        return pa.RecordBatch._import_from_c_device(ctypes.addressof(out_array), ctypes.addressof(out_schema))

    def test_every_column_keeps_its_schema_and_data_through_each_op(self):
        batch = test_batch()
        cases = 0
        for op in ("none", "gather", "filter", "concatenate", "is_null", "sort", "compare"):
            got = self.round_trip(batch, op)
            want = expected(batch, op)
            got.validate(full=True)
            with self.subTest(op=op, what="schema"):
                self.assertTrue(got.schema.equals(want.schema, check_metadata=True),
                                f"{op}:\n{got.schema}\n!=\n{want.schema}")
            for name in want.schema.names:
                cases += 1
                with self.subTest(op=op, column=name):
                    g, w = got.column(name), want.column(name)
                    self.assertEqual(g.type, w.type)
                    self.assertEqual(g.null_count, w.null_count)
                    if pa.types.is_dictionary(w.type):  # devcol's concatenate appends dictionaries, unlike pyarrow's
                        self.assertEqual(g.to_pylist(), w.to_pylist())
                    else:
                        self.assertTrue(decoded(g).equals(decoded(w)), f"{g}\n!=\n{w}")
            del got
            gc.collect()
        print(f"\n{cases} differential column cases over {batch.num_columns} columns", flush=True)

    def test_a_stream_without_batches_gives_its_whole_schema(self):
        # A query with no result rows: the reader's schema() is all a consumer learns of the columns.
        schema = test_batch().schema
        stream = peer.PyarrowDeviceStream(schema, [])
        out_schema = peer.ArrowSchema()
        code, text = peer.call(lib.devcol_peer_stream_schema, ctypes.addressof(stream.struct),
                               ctypes.addressof(out_schema))
        self.assertEqual(code, 0, text)
        self.assertTrue(stream.released)
        got = pa.Schema._import_from_c(ctypes.addressof(out_schema))
        self.assertTrue(got.equals(schema, check_metadata=True), f"\n{got}\n!=\n{schema}")
        print(f"\nstream schema of {len(schema)} fields equal", flush=True)

    def test_a_batch_whose_columns_repeat_a_name_keeps_each_in_its_place(self):
        # A query engine's `SELECT a, b, a` gives such a batch; Arrow allows it, and so does a devcol table.
        i = np.arange(ROWS)
        batch = pa.RecordBatch.from_arrays(
            [pa.array(i, pa.int64(), mask=mask()), pa.array(i.astype(str)), pa.array(i * 0.5)],
            schema=pa.schema([pa.field("a", pa.int64()), pa.field("b", pa.string()),
                              pa.field("a", pa.float64(), nullable=False)])).slice(FIRST, LAST - FIRST)
        for op in ("none", "gather"):
            with self.subTest(op=op):
                got = self.round_trip(batch, op)
                got.validate(full=True)
                want = expected(batch, op)
                self.assertTrue(got.schema.equals(want.schema, check_metadata=True), f"{got.schema}\n!=\n{want.schema}")
                for k in range(3):
                    self.assertTrue(got.column(k).equals(want.column(k)), f"{op}, column {k}")
                del got
                gc.collect()

    def test_types_devcol_does_not_import_are_refused_naming_what_it_does(self):
        # Every Arrow format is imported now: what is refused is a format string that is no Arrow type
        # ("+x", "x"), written into the exported schema; the producer's structs must still be released.
        for bad in (b"+x", b"x"):
            with self.subTest(format=bad):
                schema, array = peer.ArrowSchema(), peer.ArrowDeviceArray()
                batch = pa.record_batch([pa.array([1, 2], pa.int32())], names=["c"])
                batch._export_to_c_device(ctypes.addressof(array), ctypes.addressof(schema))
                child = ctypes.cast(schema.children, ctypes.POINTER(ctypes.POINTER(peer.ArrowSchema)))[0].contents
                kept = ctypes.create_string_buffer(bad)  # alive until the import is done
                child.format = ctypes.cast(kept, ctypes.c_char_p)
                out_schema, out_array = peer.ArrowSchema(), peer.ArrowDeviceArray()
                code, text = peer.call(lib.devcol_peer_round_trip, b"none", ctypes.addressof(schema),
                                       ctypes.addressof(array), ctypes.addressof(out_schema),
                                       ctypes.addressof(out_array))
                self.assert_released(schema, array)
                self.assertEqual(code, peer.REFUSED, text)
                self.assertIn(bad.decode(), text)
                for imported in ("utf8", "binary", "list", "struct", "dictionaries", "decimal", "date32", "time64",
                                 "null", "union"):
                    self.assertIn(imported, text)

if __name__ == "__main__":
    unittest.main()
