#!/usr/bin/env python3
"""devcol's gather and filter against pyarrow.compute's take and filter, on the same columns: a
differential test of the selection ops on int32, int64, float32 and float64.

numpy makes the columns (random bit patterns of the type, with NaN of both signs and several
payloads, +-inf, +-0.0, denormals and the type's extremes mixed in, and nulls), pyarrow slices them
(at offsets 0, 1, 3 and 61) and exports them; the devcol_peer library gathers or filters them with pyarrow's own
indices and flags (null indices and null flags included) and hands the result back as an Arrow
export. The two results must agree bit for bit: the same type and length, the same null rows, and
the same value bits in every valid row (a NaN's payload and a zero's sign included).

Besides small and odd sizes, each type is gathered and filtered at a size whose result is 40 MiB or
more, beyond the 32 MiB from which devcol's host kernels write their results with streaming stores:
that path is checked against pyarrow too, not only against devcol's own Thrust path. Each of the
streamed kernels' cases runs: a filter with nulls in the values and the flags, in neither, and in
the flags only; a gather with nulls in the values and the indices, and in neither.

Prints the number of cases checked.
"""
import sys
import unittest

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from test_pyarrow_peer import addr, lib
from test_pyarrow_float_semantics import _call_for_array, export

import ctypes

_p = ctypes.c_void_p
_out = [ctypes.c_char_p, ctypes.c_size_t]
for _f in ("gather", "filter"):
    function = getattr(lib, "devcol_peer_" + _f)
    function.argtypes = [ctypes.c_char_p, _p, _p, _p, _p, _p, _p] + _out
    function.restype = ctypes.c_int

# name: (pyarrow type, numpy type of the values, numpy type of their bits)
TYPES = {
    "int32": (pa.int32(), np.int32, np.uint32),
    "int64": (pa.int64(), np.int64, np.uint64),
    "float32": (pa.float32(), np.float32, np.uint32),
    "float64": (pa.float64(), np.float64, np.uint64),
}
SMALL_SIZES = [0, 1, 2, 7, 63, 64, 65, 129, 1000, 4097, 65_537]
OFFSETS = [0, 1, 3, 61]
STREAMED_BYTES = 40 << 20  # a result at least this large is written with streaming stores (from 32 MiB)


def validity(rng, n, null_rate):
    """A validity bitmap (LSB first) with about `null_rate` of n rows null, or None for no nulls."""
    if null_rate == 0.0:
        return None
    valid = rng.random(n) >= null_rate
    return pa.py_buffer(np.packbits(valid, bitorder="little").tobytes())


def values(rng, name, n):
    """n values of the type: random bit patterns, a tenth of them replaced by the cases that hurt."""
    _, value_type, bits_type = TYPES[name]
    width = np.dtype(bits_type).itemsize * 8
    bits = rng.integers(0, 1 << width, size=n, dtype=np.uint64 if width == 64 else np.uint32).astype(bits_type)
    if np.issubdtype(value_type, np.floating):
        info = np.finfo(value_type)
        mantissa = info.nmant
        sign = bits_type(1) << bits_type(width - 1)
        exponent = bits_type(((1 << (width - 1 - mantissa)) - 1) << mantissa)
        special = [
            exponent | bits_type(1 << (mantissa - 1)),           # the quiet NaN
            sign | exponent | bits_type(1 << (mantissa - 1)),    # -NaN
            exponent | bits_type((1 << mantissa) - 1),           # NaN, every payload bit
            sign | exponent | bits_type(1),                      # -NaN, a signalling payload
            exponent, sign | exponent,                           # +-inf
            bits_type(0), sign,                                  # +-0.0
            bits_type(1), sign | bits_type(1),                   # the smallest denormals
            np.array(info.max, value_type).view(bits_type), np.array(info.min, value_type).view(bits_type),
            np.array(info.tiny, value_type).view(bits_type),
        ]
    else:
        info = np.iinfo(value_type)
        special = [np.array(v, value_type).view(bits_type) for v in (info.min, info.max, 0, -1, 1, info.min + 1)]
    replaced = rng.random(n) < 0.1
    bits[replaced] = rng.choice(np.array(special, bits_type), size=int(replaced.sum()))
    return bits


def column(rng, name, n, null_rate, offset):
    """n rows of the type with about null_rate of them null, sliced at `offset` out of a larger array."""
    total = offset + n + 3
    arr = pa.Array.from_buffers(TYPES[name][0], total,
                                [validity(rng, total, null_rate), pa.py_buffer(values(rng, name, total).tobytes())])
    return arr.slice(offset, n)


def indices(rng, size, n, null_rate, offset):
    """`n` int32 indices into `size` rows (any order, repeats), about null_rate of them null, sliced."""
    total = offset + n + 3
    rows = rng.integers(0, size, size=total, dtype=np.int32) if size > 0 else np.zeros(total, np.int32)
    arr = pa.Array.from_buffers(pa.int32(), total, [validity(rng, total, null_rate if size > 0 else 1.0),
                                                    pa.py_buffer(rows.tobytes())])
    return arr.slice(offset, n)


def flags(rng, n, keep_rate, null_rate, offset):
    """n bools, about keep_rate of them true and null_rate null, sliced at `offset`."""
    total = offset + n + 3
    kept = rng.random(total) < keep_rate
    arr = pa.Array.from_buffers(pa.bool_(), total, [validity(rng, total, null_rate),
                                                    pa.py_buffer(np.packbits(kept, bitorder="little").tobytes())])
    return arr.slice(offset, n)


def devcol_op(op, name, arr, selector):
    schema, device = export(arr)
    selector_schema, selector_device = export(selector)
    return _call_for_array(getattr(lib, "devcol_peer_" + op), name.encode(), addr(schema), addr(device),
                           addr(selector_schema), addr(selector_device))


def bits_of(arr, name):
    """The value bits of every row of a primitive array, as numpy integers (null rows included)."""
    bits_type = TYPES[name][2]
    width = np.dtype(bits_type).itemsize
    data = arr.buffers()[1]
    return np.frombuffer(data, dtype=bits_type, count=len(arr), offset=arr.offset * width) if len(arr) else \
        np.zeros(0, bits_type)


class SelectionAgainstPyarrow(unittest.TestCase):
    cases = 0

    @classmethod
    def tearDownClass(cls):
        print(f"\n{cls.cases} gather and filter cases agree with pyarrow.compute", file=sys.stderr)

    def assert_same(self, got, want, name, what):
        self.assertEqual(got.type, want.type, what)
        self.assertEqual(len(got), len(want), what)
        got_valid = np.asarray(got.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        want_valid = np.asarray(want.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
        if not np.array_equal(got_valid, want_valid):
            row = int(np.flatnonzero(got_valid != want_valid)[0])
            self.fail(f"{what}: row {row} is {'valid' if got_valid[row] else 'null'} in devcol's result, "
                      f"{'valid' if want_valid[row] else 'null'} in pyarrow's")
        got_bits, want_bits = bits_of(got, name)[got_valid], bits_of(want, name)[want_valid]
        if not np.array_equal(got_bits, want_bits):
            row = int(np.flatnonzero(got_valid)[np.flatnonzero(got_bits != want_bits)[0]])
            self.fail(f"{what}: row {row} has bits {int(bits_of(got, name)[row]):#x} in devcol's result, "
                      f"{int(bits_of(want, name)[row]):#x} in pyarrow's")
        SelectionAgainstPyarrow.cases += 1

    def check_gather(self, name, arr, rows, what):
        self.assert_same(devcol_op("gather", name, arr, rows), pc.take(arr, rows), name, what)

    def check_filter(self, name, arr, keep, what):
        want = pc.filter(arr, keep, null_selection_behavior="drop")
        self.assert_same(devcol_op("filter", name, arr, keep), want, name, what)

    def test_small_and_odd_sizes_offsets_and_nulls(self):
        rng = np.random.default_rng(20261206)
        for name in TYPES:
            for n in SMALL_SIZES:
                for offset in OFFSETS:
                    for null_rate in (0.0, 0.1, 1.0):
                        what = f"{name}, {n} rows at offset {offset}, null rate {null_rate}"
                        arr = column(rng, name, n, null_rate, offset)
                        for count, index_nulls in ((n, 0.0), (2 * n + 1, 0.05), (n // 3, 1.0)):
                            with self.subTest(op="gather", case=what, indices=count, index_nulls=index_nulls):
                                self.check_gather(name, arr, indices(rng, n, count, index_nulls, offset + 2),
                                                  f"gather of {what} by {count} indices ({index_nulls} null)")
                        for keep_rate, flag_nulls in ((0.7, 0.1), (0.0, 0.0), (1.0, 0.0), (0.5, 1.0), (0.97, 0.0)):
                            with self.subTest(op="filter", case=what, keep=keep_rate, flag_nulls=flag_nulls):
                                self.check_filter(name, arr, flags(rng, n, keep_rate, flag_nulls, offset + 5),
                                                  f"filter of {what}, {keep_rate} kept ({flag_nulls} null flags)")

    def test_results_written_with_streaming_stores(self):
        rng = np.random.default_rng(32 << 20)
        for name in TYPES:
            width = np.dtype(TYPES[name][2]).itemsize
            rows = STREAMED_BYTES // width
            # The filter keeps about 0.7 of the valid flags' rows, 0.9 of them valid: 0.63 of n.
            n = int(rows / 0.6)
            for value_nulls in (0.1, 0.0):
                arr = column(rng, name, n, value_nulls, 3)
                for flag_nulls in ((0.1,) if value_nulls else (0.0, 0.1)):
                    with self.subTest(op="filter", type=name, value_nulls=value_nulls, flag_nulls=flag_nulls):
                        self.check_filter(name, arr, flags(rng, n, 0.7, flag_nulls, 7),
                                          f"filter of {n} {name} rows ({value_nulls} null, {flag_nulls} null "
                                          f"flags) into at least {STREAMED_BYTES >> 20} MiB")
                index_nulls = 0.05 if value_nulls else 0.0
                with self.subTest(op="gather", type=name, value_nulls=value_nulls, index_nulls=index_nulls):
                    self.check_gather(name, arr, indices(rng, n, rows + 5, index_nulls, 1),
                                      f"gather of {rows + 5} {name} rows out of {n} ({value_nulls} null, "
                                      f"{index_nulls} null indices)")


if __name__ == "__main__":
    unittest.main()
