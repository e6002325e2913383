#!/usr/bin/env python3
"""devcol::cast between float16 (Arrow's halffloat) and every number type against pyarrow's cast, on
the same columns, with numpy's float16 as a third opinion where the two could both be wrong.

What must agree:
- float16 -> float32 / float64: every one of the 65536 halves, bit for bit (NaN: a NaN of the same
  sign, since a payload's widening is not Arrow's to promise);
- float32 / float64 / every integer type -> float16: bit for bit with pyarrow's `cast(safe=False)`
  and with numpy's `astype(float16)` (one rounding to nearest, ties to even; past 65504 infinity);
  the inputs hold the midpoints between neighbouring halves and values a hair either side of them,
  every float32 exponent, integers at their types' extremes and near 2048 and 65520, NaN, ±inf, ±0.0;
- float16 -> an integer type: devcol's documented float-to-integer rule (toward zero, saturating at
  the target's limits, NaN 0), which is pyarrow's unsafe cast wherever the truncated value fits
  (pyarrow wraps the others); those rows are compared with pyarrow, the rest with the rule.

Every column has nulls whose hidden values are NaN or extremes, at odd offsets. Prints the number
of cases.
"""
import ctypes
import gc
import json
import math
import sys
import time
import unittest

import numpy as np
import pyarrow as pa

from test_pyarrow_peer import ArrowDeviceArray, ArrowSchema, addr, lib
from test_pyarrow_float_semantics import _call, export

lib.devcol_peer_cast_float16.argtypes = [ctypes.c_int, ctypes.c_char_p] + [ctypes.c_void_p] * 4 + [ctypes.c_char_p,
                                                                                                   ctypes.c_size_t]
lib.devcol_peer_cast_float16.restype = ctypes.c_int

# devcol's type name, pyarrow's type, numpy's dtype.
NUMBERS = {
    "float32": (pa.float32(), np.float32), "float64": (pa.float64(), np.float64),
    "int8": (pa.int8(), np.int8), "int16": (pa.int16(), np.int16), "int32": (pa.int32(), np.int32),
    "int64": (pa.int64(), np.int64), "uint8": (pa.uint8(), np.uint8), "uint16": (pa.uint16(), np.uint16),
    "uint32": (pa.uint32(), np.uint32), "uint64": (pa.uint64(), np.uint64),
}
OFFSETS = [1, 3, 61, 64]


def make_array(pa_type, values, valid, offset):
    """An array of `pa_type` holding numpy `values` (nulls' hidden values included), sliced at
    `offset` after rows that are null."""
    values = np.asarray(values)
    pad = np.zeros(offset, values.dtype)
    data = np.concatenate([pad, values])
    mask = np.concatenate([np.zeros(offset, bool), np.asarray(valid, bool)])
    arr = pa.Array.from_buffers(pa_type, len(data), [pa.py_buffer(np.packbits(mask, bitorder="little").tobytes()),
                                                     pa.py_buffer(data.tobytes())])
    return arr.slice(offset)


def devcol_cast(to_other, other, arr):
    schema, device = export(arr)
    out_schema, out_array = ArrowSchema(), ArrowDeviceArray()
    _call(lib.devcol_peer_cast_float16, int(to_other), other.encode(), addr(schema), addr(device), addr(out_schema),
          addr(out_array))
    result = pa.Array._import_from_c_device(addr(out_array), addr(out_schema))
    result.validate(full=True)
    return result


def values_of(arr, dtype):
    """The array's value slots as numpy (nulls' slots too), and its validity."""
    data = np.frombuffer(arr.buffers()[1], dtype=dtype)[arr.offset:arr.offset + len(arr)]
    return data, ~np.asarray(arr.is_null())


def half_bits(arr):
    data, valid = values_of(arr, np.uint16)
    return data, valid


class Float16Casts(unittest.TestCase):
    cases = 0

    def tearDown(self):
        gc.collect()
        self.assertEqual(lib.devcol_peer_live_allocations(), 0, "devcol allocations still live after the test")

    def same_halves(self, got, expected, where):
        """Bit for bit, but NaN only by being NaN of the same sign."""
        got, expected = got.astype(np.uint16), expected.astype(np.uint16)
        nan_got = (got & 0x7C00) == 0x7C00
        nan_got &= (got & 0x3FF) != 0
        nan_expected = ((expected & 0x7C00) == 0x7C00) & ((expected & 0x3FF) != 0)
        self.assertTrue(np.array_equal(nan_got, nan_expected), f"{where}: NaN rows differ")
        self.assertTrue(np.array_equal(got >> 15, expected >> 15), f"{where}: signs differ")
        differ = np.nonzero((got != expected) & ~nan_got)[0]
        self.assertEqual(len(differ), 0, f"{where}: first differing row {differ[:1]}: devcol "
                                         f"{got[differ[:1]]}, expected {expected[differ[:1]]}")

    def to_half(self, other, values, valid, offset, where):
        pa_type, dtype = NUMBERS[other]
        arr = make_array(pa_type, np.asarray(values, dtype), valid, offset)
        got = devcol_cast(False, other, arr)
        self.assertEqual(got.type, pa.float16(), where)
        ref = arr.cast(pa.float16(), safe=False)
        self.assertTrue(got.is_null().equals(arr.is_null()), f"{where}: null rows")
        got_bits, ok = half_bits(got)
        ref_bits, _ = half_bits(ref)
        numpy_bits = np.asarray(values, dtype).astype(np.float16).view(np.uint16)
        self.same_halves(got_bits[ok], ref_bits[ok], f"{where}, against pyarrow")
        self.same_halves(got_bits[ok], numpy_bits[ok], f"{where}, against numpy")
        Float16Casts.cases += 1

    def test_every_half_to_floats(self):
        every = np.arange(0x10000, dtype=np.uint16)
        for k, target in enumerate(["float32", "float64"]):
            for offset in OFFSETS:
                valid = np.ones(len(every), bool)
                valid[offset::7] = False  # nulls hiding NaN, infinity and extremes alike
                arr = make_array(pa.float16(), every, valid, offset)
                got = devcol_cast(True, target, arr)
                ref = arr.cast(NUMBERS[target][0])
                where = f"halffloat -> {target} at offset {offset}"
                self.assertTrue(got.is_null().equals(arr.is_null()), where)
                g, ok = values_of(got, NUMBERS[target][1])
                r, _ = values_of(ref, NUMBERS[target][1])
                g, r = g[ok], r[ok]
                both_nan = np.isnan(g) & np.isnan(r)
                self.assertTrue(np.array_equal(np.isnan(g), np.isnan(r)), f"{where}: NaN rows differ")
                self.assertTrue(np.array_equal(np.signbit(g), np.signbit(r)), f"{where}: signs differ")
                self.assertTrue(np.array_equal(g[~both_nan].view(np.uint8), r[~both_nan].view(np.uint8)), where)
                self.assertTrue(np.array_equal(g[~both_nan], every[ok].view(np.float16)[~both_nan].astype(g.dtype)),
                                f"{where}, against numpy")
                Float16Casts.cases += 1

    def test_floats_to_half(self):
        rng = np.random.default_rng(11)
        halves = np.arange(0x10000, dtype=np.uint16).view(np.float16)
        finite = np.sort(halves[np.isfinite(halves)].astype(np.float64))
        finite = np.unique(finite)
        mids = (finite[:-1] + finite[1:]) / 2  # exact in float64: neighbours differ in 11 bits at most
        edges = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 65504.0, 65519.99, 65520.0, 65536.0, 1e300, -1e300,
                 2.0 ** -24, 2.0 ** -25, 2.0 ** -26, 1e-300, 5e-324]
        # Every float32 exponent, random fractions; float64's whole range.
        f32 = (rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32)).view(np.float32)
        f64 = rng.integers(0, 2 ** 64, 200_000, dtype=np.uint64, endpoint=False).view(np.float64)
        near = rng.uniform(-70000, 70000, 200_000)
        for other in ["float32", "float64"]:
            dtype = NUMBERS[other][1]
            tiny = np.finfo(dtype).eps  # a relative hair either side of each midpoint
            cases = {
                "midpoints": mids,
                "above midpoints": mids * (1 + 4 * tiny),
                "below midpoints": mids * (1 - 4 * tiny),
                "edges": np.array(edges),
                "random bits": f32 if other == "float32" else f64,
                "within range": near,
            }
            for k, (what, values) in enumerate(cases.items()):
                values = np.asarray(values).astype(dtype)
                n = len(values)
                valid = rng.random(n) >= 0.1
                hidden = values.copy()
                hidden[~valid] = np.nan
                self.to_half(other, hidden, valid, OFFSETS[k % len(OFFSETS)], f"{other} -> halffloat, {what}")

    def test_integers_to_half(self):
        rng = np.random.default_rng(13)
        for k, other in enumerate(n for n in NUMBERS if not n.startswith("float")):
            dtype = NUMBERS[other][1]
            lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
            edges = sorted({v for v in [lo, lo + 1, -65520, -65519, -2049, -1, 0, 1, 2047, 2048, 2049, 2050, 2051,
                                        4097, 65504, 65505, 65519, 65520, 65521, 2 ** 53 + 1, hi - 1, hi]
                            if lo <= v <= hi})
            values = np.concatenate([np.array(edges, dtype),
                                     rng.integers(lo, hi, 100_003, dtype=dtype, endpoint=True),
                                     rng.integers(max(lo, -70000), min(hi, 70000), 50_000, dtype=dtype, endpoint=True)])
            valid = rng.random(len(values)) >= 0.1
            valid[:len(edges)] = True
            hidden = values.copy()
            hidden[~valid] = hi
            self.to_half(other, hidden, valid, OFFSETS[k % len(OFFSETS)], f"{other} -> halffloat")
            self.to_half(other, np.array([], dtype), np.array([], bool), 1, f"{other} -> halffloat, empty")

    def test_half_to_integers(self):
        every = np.arange(0x10000, dtype=np.uint16)
        as_float = every.view(np.float16).astype(np.float64)
        for k, other in enumerate(n for n in NUMBERS if not n.startswith("float")):
            pa_type, dtype = NUMBERS[other]
            lo, hi = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
            offset = OFFSETS[k % len(OFFSETS)]
            valid = np.ones(len(every), bool)
            valid[offset::5] = False
            arr = make_array(pa.float16(), every, valid, offset)
            got = devcol_cast(True, other, arr)
            where = f"halffloat -> {other}"
            self.assertEqual(got.type, pa_type, where)
            self.assertTrue(got.is_null().equals(arr.is_null()), where)
            ref = arr.cast(pa_type, safe=False)
            g, ok = values_of(got, dtype)
            r, _ = values_of(ref, dtype)
            fits = 0
            for i in np.nonzero(ok)[0]:
                x = as_float[i]
                if math.isnan(x):
                    expected = 0
                elif x <= lo:
                    expected = lo
                elif x >= hi:
                    expected = hi
                else:
                    expected = int(x)  # toward zero, in range: pyarrow's answer too
                    fits += 1
                    self.assertEqual(int(r[i]), expected, f"{where}: pyarrow, half {every[i]:#06x}")
                self.assertEqual(int(g[i]), expected, f"{where}: devcol, half {every[i]:#06x}")
            self.assertGreater(fits, 100, where)
            Float16Casts.cases += 1


_started = time.monotonic()


def tearDownModule():
    print(f"\nfloat16 casts: {Float16Casts.cases} cases checked against pyarrow {pa.__version__} and numpy "
          f"{np.__version__} in {time.monotonic() - _started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    np.seterr(over="ignore")  # float64 inputs past float32's range, and numpy's own casts to float16
    unittest.main()
