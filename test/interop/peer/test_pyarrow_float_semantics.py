#!/usr/bin/env python3
"""devcol's ops against pyarrow.compute, on the same columns: a differential test of floating-point
semantics (and of int32 / int64 on the same ops).

pyarrow makes the columns and exports them (`_export_to_c_device`); the devcol_peer library takes
each over, runs one devcol op and hands the result back, a column as an Arrow export that pyarrow
imports, scalars as JSON. The columns mix NaN (both signs, several payloads), +-inf, +-0.0,
denormals, repeated values (ties) and nulls, at sizes 0 to 1e5, sliced at odd offsets, from fixed
seeds. What must agree:

- exactly (-0.0 equal to 0.0 and any NaN equal to any NaN, except where stated): count, min, max,
  minmax; inclusive scans with min and max; compare with a scalar and with a column, every
  comparison; fill_null with the same scalars (the rows that were valid bit for bit); argsort against sort_indices (row numbers: both sorts are stable); sort against the
  rows that sort_indices picks, bit for bit but for NaN payloads (-0.0 keeps its sign and place);
  is_sorted against sort_indices (a column is sorted exactly when its stable sort leaves every row
  equal to the one already there, ties -0.0 / 0.0 and NaN / NaN included); integer sums, products
  and scans (no overflow in the generated ranges).
- within a bound, since the backend adds and multiplies in another order than Arrow does: sum,
  mean, product and the inclusive sum scan of floats. With u the unit roundoff of the type that
  accumulates (double for sum / mean / product; the column's type for the scan) and k the number
  of valid rows added, either result is within (k - 1) u sum(|x|) of the exact sum, so the two
  must be within 2 k u sum(|x|) (mean: that over the count, plus 2 u |mean|; product:
  2 k u |product|). Non-finite results must match exactly. The product's columns hold numbers in
  +-[0.8, 1.25] (and NaN, +-inf, +-0.0, nulls, but no denormals), so that no order of
  multiplication overflows or underflows: where one order underflows and the other does not, both
  are right, and no bound can compare them.

The scans are compared with Arrow's skip_nulls=True. Prints the number of cases checked.
"""
import array
import ctypes
import gc
import json
import math
import random
import sys
import time
import unittest

import pyarrow as pa
import pyarrow.compute as pc

from test_pyarrow_peer import ArrowDeviceArray, ArrowSchema, addr, lib

_p = ctypes.c_void_p
_s = ctypes.c_char_p
_out = [ctypes.c_char_p, ctypes.c_size_t]
lib.devcol_peer_reduce.argtypes = [_s, _p, _p] + _out
lib.devcol_peer_inclusive_scan.argtypes = [_s, _s, _p, _p, _p, _p] + _out
lib.devcol_peer_sort.argtypes = [_s, ctypes.c_int, ctypes.c_int, ctypes.c_int, _p, _p, _p, _p] + _out
lib.devcol_peer_is_sorted.argtypes = [_s, _p, _p] + _out
lib.devcol_peer_compare_scalar.argtypes = [_s, _s, ctypes.c_double, _p, _p, _p, _p] + _out
lib.devcol_peer_compare_columns.argtypes = [_s, _s, _p, _p, _p, _p, _p, _p] + _out
lib.devcol_peer_fill_null.argtypes = [_s, ctypes.c_double, _p, _p, _p, _p] + _out
for _f in ("reduce", "inclusive_scan", "sort", "is_sorted", "compare_scalar", "compare_columns", "fill_null"):
    getattr(lib, "devcol_peer_" + _f).restype = ctypes.c_int

# --- the columns ------------------------------------------------------------------------------------

SEEDS = range(20)
# (pyarrow type, array code of the values, array code of their bits, bits of the mantissa)
FLOATS = {"float32": (pa.float32(), "f", "I", 23), "float64": (pa.float64(), "d", "Q", 52)}
# |value| bound: sums cannot overflow here (test_pyarrow_integer_overflow.py makes them overflow)
INTS = {"int32": (pa.int32(), 10_000), "int64": (pa.int64(), 2**40)}
ORDERS = [(descending, nulls_first) for descending in (0, 1) for nulls_first in (0, 1)]
CMPS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
# What a float row is, by seed: the probabilities of NaN, an infinity, a zero, a denormal and a
# repeated small value; the rest are numbers spread over many orders of magnitude.
PROFILES = [
    dict(nan=0.01, inf=0.01, zero=0.02, denormal=0.02, tie=0.3),
    dict(nan=0.2, inf=0.1, zero=0.15, denormal=0.15, tie=0.2),
    dict(nan=0.0, inf=0.0, zero=0.0, denormal=0.0, tie=0.3),   # finite: sums are compared by value
    dict(nan=1.0, inf=0.0, zero=0.0, denormal=0.0, tie=0.0),   # every valid row NaN
    dict(nan=0.3, inf=0.0, zero=0.7, denormal=0.0, tie=0.0),   # zeros of both signs and NaN: ties
]
NULL_RATES = [0.0, 0.1, 0.5, 0.02]
OFFSETS = [1, 3, 7, 13, 61]


def sizes(seed, kind):
    """Sizes for one seed: small and odd ones for every seed, larger ones for some (the time goes
    into generating and checking the largest, in Python)."""
    out = [0, 1, 2, 3, 7, 64, 65, 129, 1000]
    if seed % 2 == 1:
        out.append(4097)
    if seed % 5 == 0:
        out.append(10_007)
    if seed < (4 if kind in FLOATS else 1):
        out.append(100_000)
    return out


def null_mask(rng, n, rate):
    """A validity bitmap (LSB first, as Arrow's) with about `rate` of the rows null, or None."""
    if rate == 0.0:
        return None
    if rate == 1.0:
        return pa.py_buffer(bytes((n + 7) // 8))
    null = rng.getrandbits(n)
    for _ in range(round(-math.log2(rate)) - 1):  # the AND of k random words has 2^-k of its bits set
        null &= rng.getrandbits(n)
    valid = ~null & ((1 << n) - 1)
    return pa.py_buffer(valid.to_bytes((n + 7) // 8, "little"))


def float_column(rng, name, n, profile, null_rate, product=False):
    """n rows of float32 / float64 as the profile says; for `product`, numbers in +-[0.8, 1.25] and
    no denormals."""
    pa_type, code, bits_code, mantissa = FLOATS[name]
    values = array.array(code, bytes(n * array.array(code).itemsize))
    bits = memoryview(values).cast("B").cast(bits_code)
    width = 32 if code == "f" else 64
    sign_bit = 1 << (width - 1)
    exponent_ones = ((1 << (width - 1 - mantissa)) - 1) << mantissa
    span = 30 if code == "f" else 300
    p_nan, p_inf, p_zero = profile["nan"], profile["inf"], profile["zero"]
    p_denormal = 0.0 if product else profile["denormal"]
    p_tie = profile["tie"]
    for i in range(n):
        r = rng.random()
        if r < p_nan:
            sign = sign_bit if rng.random() < 0.5 else 0
            payload = rng.choice((1 << (mantissa - 1), 1, (1 << mantissa) - 1, rng.randrange(1, 1 << mantissa)))
            bits[i] = sign | exponent_ones | payload | (1 << (mantissa - 1))  # quiet: no signalling NaN
        elif (r := r - p_nan) < p_inf:
            values[i] = math.inf if rng.random() < 0.5 else -math.inf
        elif (r := r - p_inf) < p_zero:
            values[i] = 0.0 if rng.random() < 0.5 else -0.0
        elif (r := r - p_zero) < p_denormal:
            bits[i] = (sign_bit if rng.random() < 0.5 else 0) | rng.choice((1, rng.randrange(1, 1 << mantissa)))
        elif product:
            values[i] = rng.choice((1.0, -1.0)) * rng.uniform(0.8, 1.25)
        elif r - p_denormal < p_tie:
            values[i] = rng.choice((1.0, -1.0, 0.5, 2.0, -3.25, 1e-3))
        else:
            values[i] = rng.uniform(-1.0, 1.0) * 10.0 ** rng.uniform(-span, span)
    return pa.Array.from_buffers(pa_type, n, [null_mask(rng, n, null_rate), pa.py_buffer(values)])


def int_column(rng, name, n, null_rate, product=False):
    pa_type, bound = INTS[name]
    if product:  # the product stays far inside int64: few rows are not +-1
        values = [rng.choice((1, -1)) if rng.random() < 0.999 else rng.choice((0, 2, -2)) for _ in range(n)]
    else:
        values = [rng.choice((-3, 0, 1, 7)) if rng.random() < 0.3 else rng.randrange(-bound, bound + 1)
                  for _ in range(n)]
    data = array.array("i" if name == "int32" else "q", values)
    return pa.Array.from_buffers(pa_type, n, [null_mask(rng, n, null_rate), pa.py_buffer(data)])


def sliced(make, n, offset):
    """make(total) sliced to n rows at `offset`, with rows after the slice too."""
    return make(offset + n + 3).slice(offset, n)


# --- devcol through the library ---------------------------------------------------------------------

_answer = ctypes.create_string_buffer(1 << 16)


class DevcolError(AssertionError):
    pass


def export(arr):
    schema, device = ArrowSchema(), ArrowDeviceArray()
    arr._export_to_c_device(addr(device), addr(schema))
    return schema, device


def _call(function, *args):
    code = function(*args, _answer, len(_answer))
    text = _answer.value.decode()
    if code != 0:
        raise DevcolError(f"{function.__name__}: code {code}: {text}")
    return text


def _call_for_array(function, *args):
    out_schema, out_array = ArrowSchema(), ArrowDeviceArray()
    _call(function, *args, addr(out_schema), addr(out_array))
    result = pa.Array._import_from_c_device(addr(out_array), addr(out_schema))
    result.validate(full=True)
    return result


def devcol_reduce(name, arr):
    schema, device = export(arr)
    return json.loads(_call(lib.devcol_peer_reduce, name.encode(), addr(schema), addr(device)))


def devcol_scan(name, op, arr):
    schema, device = export(arr)
    return _call_for_array(lib.devcol_peer_inclusive_scan, name.encode(), op.encode(), addr(schema), addr(device))


def devcol_sort(name, indices, descending, nulls_first, arr):
    schema, device = export(arr)
    return _call_for_array(lib.devcol_peer_sort, name.encode(), indices, descending, nulls_first, addr(schema),
                           addr(device))


def devcol_is_sorted(name, arr):
    schema, device = export(arr)
    return json.loads(_call(lib.devcol_peer_is_sorted, name.encode(), addr(schema), addr(device)))["is_sorted"]


def devcol_compare_scalar(name, cmp, scalar, arr):
    schema, device = export(arr)
    return _call_for_array(lib.devcol_peer_compare_scalar, name.encode(), cmp.encode(), scalar, addr(schema),
                           addr(device))


def devcol_fill_null(name, scalar, arr):
    schema, device = export(arr)
    return _call_for_array(lib.devcol_peer_fill_null, name.encode(), scalar, addr(schema), addr(device))


def devcol_compare_columns(name, cmp, a, b):
    schema_a, device_a = export(a)
    schema_b, device_b = export(b)
    return _call_for_array(lib.devcol_peer_compare_columns, name.encode(), cmp.encode(), addr(schema_a),
                           addr(device_a), addr(schema_b), addr(device_b))


# --- what "equal" means ------------------------------------------------------------------------------

NAN = "NaN"


def same(a, b):
    """Scalars: None equal only to None, any NaN to any NaN, -0.0 to 0.0, else by value."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def ties(values):
    """A list whose == is `same` row by row."""
    return [NAN if v is not None and v != v else v for v in values]


def bits_but_nan(values):
    """A list whose == is equality bit for bit, but for NaN payloads (zeros keep their sign)."""
    return [NAN if v != v else (v, math.copysign(1.0, v)) if v == 0 else v for v in values]


def row_bytes(arr):
    """The value bytes of each row of a fixed-width array (at its offset): equal bit for bit, NaN
    payloads and the sign of zero included."""
    if len(arr) == 0:
        return []
    width = arr.type.bit_width // 8
    data = arr.buffers()[1].to_pybytes()[arr.offset * width:(arr.offset + len(arr)) * width]
    return [data[i * width:(i + 1) * width] for i in range(len(arr))]


def within(dev, ref, bound):
    if dev is None or ref is None or not (math.isfinite(dev) and math.isfinite(ref)):
        return same(dev, ref)
    return abs(dev - ref) <= bound


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"row {i}: devcol {x!r}, pyarrow {y!r}"
    return f"lengths {len(a)} and {len(b)}"


UNIT_ROUNDOFF = {"float32": 2.0**-24, "float64": 2.0**-53, "double": 2.0**-53}


class FloatSemantics(unittest.TestCase):
    cases = 0

    def check(self, ok, what):
        FloatSemantics.cases += 1
        if not ok:
            self.fail(f"{self.where}: {what() if callable(what) else what}")

    def tearDown(self):
        gc.collect()
        self.assertEqual(lib.devcol_peer_live_allocations(), 0, "devcol allocations still live after the test")

    # --- the ops, each against pyarrow.compute -----------------------------------------------------

    def check_reductions(self, name, x, is_float):
        got = devcol_reduce(name, x)
        self.check(got["count"] == pc.count(x).as_py(), lambda: f"count {got['count']} != {pc.count(x)}")
        lo, hi = pc.min(x).as_py(), pc.max(x).as_py()
        both = pc.min_max(x).as_py()
        self.check(same(got["min"], lo), lambda: f"min {got['min']!r} != {lo!r}")
        self.check(same(got["max"], hi), lambda: f"max {got['max']!r} != {hi!r}")
        expected_minmax = None if both["min"] is None else [both["min"], both["max"]]
        self.check((got["minmax"] is None) == (expected_minmax is None) and
                   (got["minmax"] is None or all(map(same, got["minmax"], expected_minmax))),
                   lambda: f"minmax {got['minmax']!r} != {expected_minmax!r}")
        total, mean, product = pc.sum(x).as_py(), pc.mean(x).as_py(), pc.product(x).as_py()
        if not is_float:
            self.check(got["sum"] == total, lambda: f"sum {got['sum']} != {total}")
            self.check(got["product"] == product, lambda: f"product {got['product']} != {product}")
            bound = 2 * len(x) * UNIT_ROUNDOFF["double"] * abs(mean) if mean is not None else 0.0
            self.check(within(got["mean"], mean, bound), lambda: f"mean {got['mean']!r} != {mean!r}")
            return
        valid = [v for v in x.to_pylist() if v is not None and math.isfinite(v)]
        k, u, magnitude = len(valid), UNIT_ROUNDOFF["double"], math.fsum(map(abs, valid))
        self.check(within(got["sum"], total, 2 * k * u * magnitude), lambda: f"sum {got['sum']!r} != {total!r}")
        count = got["count"] or 1
        mean_bound = 2 * k * u * magnitude / count + 2 * u * abs(mean or 0.0)
        self.check(within(got["mean"], mean, mean_bound), lambda: f"mean {got['mean']!r} != {mean!r}")

    def check_product(self, name, x, is_float):
        got = devcol_reduce(name, x)["product"]
        product = pc.product(x).as_py()
        bound = 2 * len(x) * UNIT_ROUNDOFF["double"] * abs(product) if is_float and product is not None else 0.0
        self.check(within(got, product, bound), lambda: f"product {got!r} != {product!r}")

    def check_scans(self, name, x, is_float):
        for op, arrow in (("min", pc.cumulative_min), ("max", pc.cumulative_max)):
            got, ref = devcol_scan(name, op, x), arrow(x, skip_nulls=True)
            self.check(got.type == ref.type and ties(got.to_pylist()) == ties(ref.to_pylist()),
                       lambda: f"inclusive_scan {op}: " + first_difference(ties(got.to_pylist()),
                                                                          ties(ref.to_pylist())))
        got = devcol_scan(name, "sum", x).to_pylist()
        ref = pc.cumulative_sum(x, skip_nulls=True).to_pylist()
        if not is_float:
            self.check(got == ref, lambda: "inclusive_scan sum: " + first_difference(got, ref))
            return
        u, k, magnitude, ok, where = UNIT_ROUNDOFF[name], 0, 0.0, len(got) == len(ref), ""
        for i, (v, d, r) in enumerate(zip(x.to_pylist(), got, ref)):
            if v is not None and math.isfinite(v):
                k, magnitude = k + 1, magnitude + abs(v)
            if not within(d, r, 2 * k * u * magnitude * (1 + 1e-9)):  # (1 + 1e-9): magnitude's own rounding
                ok, where = False, f"row {i}: devcol {d!r}, pyarrow {r!r}"
                break
        self.check(ok, lambda: "inclusive_scan sum: " + where)

    def check_sorts(self, name, x):
        for descending, nulls_first in ORDERS:
            order = "descending" if descending else "ascending"
            placement = "at_start" if nulls_first else "at_end"
            ref = pc.array_sort_indices(x, order=order, null_placement=placement).cast(pa.int64())
            got = devcol_sort(name, 1, descending, nulls_first, x)
            self.check(got.equals(ref), lambda: f"argsort {order} {placement}: " +
                       first_difference(got.to_pylist(), ref.to_pylist()))
            got_values = devcol_sort(name, 0, descending, nulls_first, x).to_pylist()
            ref_values = x.take(ref).to_pylist()
            self.check(bits_but_nan(got_values) == bits_but_nan(ref_values),
                       lambda: f"sort {order} {placement}: " + first_difference(bits_but_nan(got_values),
                                                                              bits_but_nan(ref_values)))

    def check_is_sorted(self, name, x):
        # x itself (rarely sorted), and x in each of the four orders Arrow gives it.
        candidates = [x] + [x.take(pc.array_sort_indices(x, order="descending" if d else "ascending",
                                                         null_placement="at_start" if f else "at_end"))
                            for d, f in ORDERS]
        for y in candidates:
            got = devcol_is_sorted(name, y)
            rows = ties(y.to_pylist())
            for k, (descending, nulls_first) in enumerate(ORDERS):
                order = pc.array_sort_indices(y, order="descending" if descending else "ascending",
                                              null_placement="at_start" if nulls_first else "at_end")
                expected = ties(y.take(order).to_pylist()) == rows
                self.check(got[k] == expected,
                           f"is_sorted(descending={descending}, nulls_first={nulls_first}) is {got[k]}, "
                           f"pyarrow's sort_indices says {expected}")

    def scalars(self, name, x):
        """What x is compared with: the specials, and values that x holds."""
        present = [v for v in x.to_pylist() if v is not None and v == v]
        if name in FLOATS:
            tiny = 2.0**-149 if name == "float32" else 5e-324
            out = [math.nan, math.inf, -math.inf, 0.0, -0.0, tiny, 1.0]
        else:
            out = [0, 1, -3]
        if present:
            out += [present[0], present[-1]]
        return out

    def check_compare_scalar(self, name, x):
        for s in self.scalars(name, x):
            for cmp in CMPS:
                got = devcol_compare_scalar(name, cmp, float(s), x)
                ref = getattr(pc, cmp)(x, pa.scalar(s, type=x.type))
                self.check(got.equals(ref), lambda: f"compare {cmp} {s!r}: " +
                           first_difference(got.to_pylist(), ref.to_pylist()))

    def check_compare_columns(self, name, a, b):
        for cmp in CMPS:
            got = devcol_compare_columns(name, cmp, a, b)
            ref = getattr(pc, cmp)(a, b)
            self.check(got.equals(ref), lambda: f"compare {cmp} (columns): " +
                       first_difference(got.to_pylist(), ref.to_pylist()))

    def check_fill_null(self, name, x):
        """fill_null against pyarrow's, with each of the scalars compare uses: no nulls left, each row
        that was valid bit for bit the same (NaN payloads and -0.0 included: the values move as
        bytes), each filled row the scalar (any NaN for NaN)."""
        for s in self.scalars(name, x):
            got = devcol_fill_null(name, float(s), x)
            ref = pc.fill_null(x, pa.scalar(s, type=x.type))
            self.check(got.type == ref.type and got.null_count == 0 and ref.null_count == 0,
                       lambda: f"fill_null {s!r}: type {got.type}, {got.null_count} nulls left")
            valid = [v is not None for v in x.to_pylist()]
            got_rows, ref_rows, x_rows = row_bytes(got), row_bytes(ref), row_bytes(x)
            kept = [g for g, ok in zip(got_rows, valid) if ok]
            self.check(kept == [r for r, ok in zip(x_rows, valid) if ok] == [r for r, ok in zip(ref_rows, valid) if ok],
                       lambda: f"fill_null {s!r}: a valid row changed")
            filled = [v for v, ok in zip(got.to_pylist(), valid) if not ok]
            want = [v for v, ok in zip(ref.to_pylist(), valid) if not ok]
            self.check(bits_but_nan(filled) == bits_but_nan(want),
                       lambda: f"fill_null {s!r}: " + first_difference(bits_but_nan(filled), bits_but_nan(want)))

    # --- the cases -------------------------------------------------------------------------------------

    def run_type(self, name):
        is_float = name in FLOATS
        for seed in SEEDS:
            profile = PROFILES[seed % len(PROFILES)]
            null_rate = NULL_RATES[seed // len(PROFILES) % len(NULL_RATES)]
            for n in sizes(seed, name) + ["all null"]:
                rng = random.Random(f"{name} {seed} {n}")
                rate = 1.0 if n == "all null" else null_rate
                n = 5 if n == "all null" else n
                offset = OFFSETS[(seed + n) % len(OFFSETS)]
                self.where = f"{name}, seed {seed}, {n} rows at offset {offset}, null rate {rate}"
                if is_float:
                    def make(total, product=False):
                        return float_column(rng, name, total, profile, rate, product)
                else:
                    def make(total, product=False):
                        return int_column(rng, name, total, rate, product)
                x = sliced(make, n, offset)
                # The second column of a comparison: x's rows, shifted, or x's own, row by row, so
                # that equal pairs (NaN / NaN, -0.0 / 0.0) occur.
                shift = rng.randrange(0, n) if n else 0
                rolled = pa.concat_arrays([x.slice(shift), x.slice(0, shift)])
                keep = pa.array([rng.random() < 0.3 for _ in range(n)], type=pa.bool_())
                # pyarrow's if_else makes a new array at offset 0: put it at offset 5.
                other = pa.concat_arrays([make(5), pc.if_else(keep, x, rolled)]).slice(5) if n else x
                self.check_reductions(name, x, is_float)
                self.check_product(name, sliced(lambda total: make(total, True), n, offset), is_float)
                self.check_scans(name, x, is_float)
                self.check_sorts(name, x)
                self.check_is_sorted(name, x)
                self.check_compare_scalar(name, x)
                self.check_compare_columns(name, x, other)
                self.check_fill_null(name, x)

    def test_float32(self):
        self.run_type("float32")

    def test_float64(self):
        self.run_type("float64")

    def test_int32(self):
        self.run_type("int32")

    def test_int64(self):
        self.run_type("int64")


_started = time.monotonic()


def tearDownModule():
    print(f"\nfloat semantics: {FloatSemantics.cases} cases checked against pyarrow.compute {pa.__version__} "
          f"in {time.monotonic() - _started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
