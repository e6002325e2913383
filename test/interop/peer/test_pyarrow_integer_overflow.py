#!/usr/bin/env python3
"""devcol's integer sum, product and inclusive sum scan against pyarrow.compute's sum, product and
cumulative_sum, on the same columns, where the results overflow.

pyarrow.compute wraps in two's complement where check_overflow is False (its default): sum and
product accumulate in int64 (signed inputs) or uint64 (unsigned ones), cumulative_sum in the input's
own type. devcol's sum and product accumulate in sum_type_t<T> (int64 / uint64) and its inclusive
scan in T, and are documented to wrap the same way, so the results must agree exactly: the same
integer for sum and product (null for no valid row), the same array, type and null rows for the scan
(compared with skip_nulls=True, the running sum skipping nulls as devcol's does). count, min and max,
which devcol_peer_reduce gives on the way, must agree exactly too.

numpy makes the columns: every signed and unsigned type from 8 to 64 bits, values at and near the
type's extremes (so that running sums pass the type's range every few rows, and 64-bit sums pass
int64's or uint64's), odd values near the extremes (so that a wrapped product is not simply 0, as any
product of 64 even numbers is modulo 2^64), sizes 0 to 100003, sliced at odd offsets, with nulls whose
hidden values are extremes too. Wrapping is order-free (addition and multiplication modulo 2^64 are
associative and commutative), so devcol's parallel order and Arrow's sequential one must still agree
bit for bit.

The test also checks that it tests what it says: for every type, some scans, and (64-bit types) some
sums, and some products overflow, by the exact value in Python integers. Prints the number of cases.
"""
import gc
import itertools
import sys
import time
import unittest

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from test_pyarrow_peer import lib
from test_pyarrow_float_semantics import devcol_reduce, devcol_scan, first_difference

TYPES = {
    "int8": (pa.int8(), np.int8), "int16": (pa.int16(), np.int16),
    "int32": (pa.int32(), np.int32), "int64": (pa.int64(), np.int64),
    "uint8": (pa.uint8(), np.uint8), "uint16": (pa.uint16(), np.uint16),
    "uint32": (pa.uint32(), np.uint32), "uint64": (pa.uint64(), np.uint64),
}
SIZES = [0, 1, 63, 64, 65, 1000, 100_003]
OFFSETS = [0, 1, 3, 61]
NULL_RATES = [0.0, 0.1, 1.0]
# What the valid rows hold: "extremes" the type's limits, their neighbours, -1, 0, 1 and values in the
# outer eighths of the range; "near_max" / "near_min" values in the top / bottom sixteenth (a running
# sum passes the range every row or two); "odd" odd values near both limits, for products.
PROFILES = ["extremes", "near_max", "near_min", "odd"]


def limits(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def uniform(rng, dtype, lo, hi, n):
    """n values of `dtype` drawn uniformly from [lo, hi]."""
    return rng.integers(lo, hi, size=n, dtype=dtype, endpoint=True)


def values(rng, dtype, n, profile):
    lo, hi = limits(dtype)
    span = hi - lo + 1
    if profile == "near_max":
        return uniform(rng, dtype, hi - span // 16, hi, n)
    if profile == "near_min":
        return uniform(rng, dtype, lo, lo + span // 16, n)
    top = uniform(rng, dtype, hi - span // 8, hi, n)
    bottom = uniform(rng, dtype, lo, lo + span // 8, n)
    out = np.where(rng.random(n) < 0.5, top, bottom)
    if profile == "odd":
        bits = out.view(np.dtype(dtype).str.replace("i", "u"))
        return (bits | bits.dtype.type(1)).view(dtype)
    special = np.array(sorted({lo, hi, lo + 1, hi - 1, 0, 1, hi // 2 + 1} | ({-1} if lo < 0 else set())), dtype)
    chosen = rng.random(n) < 0.4
    out[chosen] = rng.choice(special, size=int(chosen.sum()))
    return out


def column(rng, name, n, profile, null_rate, offset):
    """n rows sliced at `offset` out of a larger column, about null_rate of them null; the hidden values
    of the null rows are drawn as the valid ones are (extremes), so that adding one would show."""
    pa_type, dtype = TYPES[name]
    total = offset + n + 5
    data = values(rng, dtype, total, profile)
    validity = None
    if null_rate > 0.0:
        valid = rng.random(total) >= null_rate
        validity = pa.py_buffer(np.packbits(valid, bitorder="little").tobytes())
    arr = pa.Array.from_buffers(pa_type, total, [validity, pa.py_buffer(data.tobytes())])
    return arr.slice(offset, n)


# --- what the exact values say: whether a case overflows at all ---------------------------------------

def sum_range(dtype):
    return (-(1 << 63), (1 << 63) - 1) if np.issubdtype(dtype, np.signedinteger) else (0, (1 << 64) - 1)


def scan_overflows(valid, dtype):
    lo, hi = limits(dtype)
    return any(not lo <= s <= hi for s in itertools.accumulate(valid))


def sum_overflows(valid, dtype):
    lo, hi = sum_range(dtype)
    return not lo <= sum(valid) <= hi


def product_overflows(valid, dtype):
    """Whether the exact product lies outside sum_type_t's range. Stops at the first partial product
    beyond 2^64: with no zero row, no later row (|v| >= 1) brings it back."""
    if 0 in valid:
        return False
    lo, hi = sum_range(dtype)
    p = 1
    for v in valid:
        p *= v
        if abs(p) > 1 << 64:
            return True
    return not lo <= p <= hi


class IntegerOverflow(unittest.TestCase):
    cases = 0
    overflows = {}  # (type, "scan" / "sum" / "product") -> the cases whose exact result overflows

    def tearDown(self):
        gc.collect()
        self.assertEqual(lib.devcol_peer_live_allocations(), 0, "devcol allocations still live after the test")

    def check(self, ok, what):
        IntegerOverflow.cases += 1
        if not ok:
            self.fail(f"{self.where}: {what() if callable(what) else what}")

    def count_overflow(self, name, op, overflowed):
        key = (name, op)
        IntegerOverflow.overflows[key] = IntegerOverflow.overflows.get(key, 0) + int(overflowed)

    def check_case(self, name, x):
        dtype = TYPES[name][1]
        valid = [v for v in x.to_pylist() if v is not None]
        got = devcol_reduce(name, x)
        for key, ref in (("count", pc.count(x)), ("min", pc.min(x)), ("max", pc.max(x)), ("sum", pc.sum(x)),
                         ("product", pc.product(x))):
            ref = ref.as_py()
            self.check(got[key] == ref and type(got[key]) is type(ref),
                       lambda: f"{key}: devcol {got[key]!r}, pyarrow {ref!r}")
        scanned = devcol_scan(name, "sum", x)
        ref = pc.cumulative_sum(x, skip_nulls=True)
        self.check(scanned.type == ref.type == x.type and scanned.equals(ref),
                   lambda: f"inclusive_scan sum ({scanned.type}, pyarrow {ref.type}): " +
                   first_difference(scanned.to_pylist(), ref.to_pylist()))
        self.count_overflow(name, "scan", scan_overflows(valid, dtype))
        self.count_overflow(name, "sum", sum_overflows(valid, dtype))
        self.count_overflow(name, "product", product_overflows(valid, dtype))

    def run_type(self, name):
        rng = np.random.default_rng(list(TYPES).index(name) + 2027)
        for k, (n, profile, null_rate) in enumerate(itertools.product(SIZES, PROFILES, NULL_RATES)):
            if n == 100_003 and null_rate == 1.0:
                continue  # all null: the small sizes show it
            offset = OFFSETS[k % len(OFFSETS)]
            self.where = f"{name}, {n} rows at offset {offset}, {profile}, null rate {null_rate}"
            self.check_case(name, column(rng, name, n, profile, null_rate, offset))
        # The claims of the docstring: every type wraps its scans and products, 64-bit types their sums.
        for op in ("scan", "product") + (("sum",) if np.dtype(TYPES[name][1]).itemsize == 8 else ()):
            self.assertGreater(IntegerOverflow.overflows.get((name, op), 0), 5, f"{name}: too few {op}s overflow")

    def test_int8(self):
        self.run_type("int8")

    def test_int16(self):
        self.run_type("int16")

    def test_int32(self):
        self.run_type("int32")

    def test_int64(self):
        self.run_type("int64")

    def test_uint8(self):
        self.run_type("uint8")

    def test_uint16(self):
        self.run_type("uint16")

    def test_uint32(self):
        self.run_type("uint32")

    def test_uint64(self):
        self.run_type("uint64")


_started = time.monotonic()


def tearDownModule():
    wrapped = {op: sum(v for (_, o), v in IntegerOverflow.overflows.items() if o == op)
               for op in ("scan", "sum", "product")}
    print(f"\ninteger overflow: {IntegerOverflow.cases} cases checked against pyarrow.compute {pa.__version__} "
          f"(exact results past the range: {wrapped['scan']} scans, {wrapped['sum']} sums, {wrapped['product']} "
          f"products) in {time.monotonic() - _started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
