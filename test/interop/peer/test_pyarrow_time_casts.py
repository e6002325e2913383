#!/usr/bin/env python3
"""devcol::cast between time units against pyarrow's cast, on the same columns: timestamps and
durations (s, ms, us, ns: the 12 ordered pairs of distinct units of each), times of day (time32[s],
time32[ms], time64[us], time64[ns]: 12 pairs) and dates (date32 <-> date64).

devcol's rule: a cast to a coarser unit truncates toward zero; a valid row whose result the target's
representation cannot hold makes cast() throw devcol::logic_error naming the first such row and its
ticks ("cast: row <r> holds <ticks> (<from>), which <to> cannot hold"); null rows are never refused,
whatever their hidden values. What must agree, per pair:

- a coarser unit: devcol's result equals pyarrow's `arr.cast(to, safe=False)` exactly (pyarrow's safe
  cast refuses any truncation, devcol's never does), nulls included;
- a finer 64-bit unit (timestamps, durations, time64[us] -> time64[ns]): devcol refuses exactly where
  pyarrow's safe cast raises for an out-of-bounds value, naming the first valid out-of-range row; else
  its result equals pyarrow's;
- where devcol is stricter than pyarrow, a model here says what devcol does: pyarrow's time32[s] ->
  time32[ms] wraps a value past int32 even when safe, and its unsafe time64 -> time32 and date64 ->
  date32 wrap a quotient past int32; devcol refuses those rows. Every other row of those pairs is
  still compared with pyarrow. (Arrow's own rules keep a time of day within a day, where no cast
  between time units overflows; out-of-range values reach devcol through buffers all the same, and
  its rule is the same for them.)

The model (Python integers) is checked against pyarrow wherever pyarrow's answer is the rule, so the
cases where only the model speaks use a model that is right elsewhere. The columns hold the edges of
each pair (INT64_MAX // 1000 and one past, and so on, both signs), the representation's extremes,
values that truncate (both signs), null rows hiding values that would be refused, at odd offsets and
sizes 0 to 100003. Prints the number of cases checked.
"""
import ctypes
import gc
import itertools
import json
import sys
import time
import unittest

import numpy as np
import pyarrow as pa

from test_pyarrow_peer import ArrowDeviceArray, ArrowSchema, addr, lib
from test_pyarrow_float_semantics import _call, export

lib.devcol_peer_cast.argtypes = [ctypes.c_char_p, ctypes.c_char_p] + [ctypes.c_void_p] * 4 + [ctypes.c_char_p,
                                                                                              ctypes.c_size_t]
lib.devcol_peer_cast.restype = ctypes.c_int

NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
DAY_NS = 86_400 * 10**9
# The kinds, each a list of (pyarrow type, nanoseconds per tick, bits of the representation).
KINDS = {
    "timestamp": [(pa.timestamp(u), NS[u], 64) for u in NS],
    "duration": [(pa.duration(u), NS[u], 64) for u in NS],
    "time": [(pa.time32("s"), NS["s"], 32), (pa.time32("ms"), NS["ms"], 32), (pa.time64("us"), NS["us"], 64),
             (pa.time64("ns"), NS["ns"], 64)],
    "date": [(pa.date32(), DAY_NS, 32), (pa.date64(), NS["ms"], 64)],
}
PAIRS = [(kind, a, b) for kind, types in KINDS.items() for a, b in itertools.permutations(types, 2)]
assert len(PAIRS) == 38
OFFSETS = [1, 3, 7, 61]


def rep_range(bits):
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


class Pair:
    """What a cast from one time type to another does to the ticks, by devcol's rule."""

    def __init__(self, kind, source, target):
        (self.source, source_ns, self.source_bits), (self.target, target_ns, self.target_bits) = source, target
        self.kind = kind
        self.factor = source_ns // target_ns if source_ns > target_ns else 1
        self.divisor = target_ns // source_ns if target_ns > source_ns else 1
        self.source_lo, self.source_hi = rep_range(self.source_bits)
        to_lo, to_hi = rep_range(self.target_bits)
        # The ticks whose result the target holds (truncation toward zero rounds both bounds inward;
        # a quotient lies in [to_lo, to_hi] exactly for ticks within a divisor's reach of its multiples).
        if self.factor > 1:
            self.lowest, self.highest = -(-to_lo // self.factor), to_hi // self.factor
        else:
            self.lowest = to_lo * self.divisor - (self.divisor - 1)
            self.highest = to_hi * self.divisor + (self.divisor - 1)
        self.lowest, self.highest = max(self.lowest, self.source_lo), min(self.highest, self.source_hi)
        self.refuses = (self.lowest, self.highest) != (self.source_lo, self.source_hi)
        # Where pyarrow's answer is devcol's rule: a coarser unit (unsafe) always; a finer one to 64 bits
        # (safe). pyarrow's time32[s] -> time32[ms] wraps even when safe: the model speaks for its refusals.
        self.pyarrow_refuses = self.factor > 1 and self.target_bits == 64
        self.stricter = self.refuses and not self.pyarrow_refuses

    def __str__(self):
        return f"{self.source} -> {self.target}"

    def convert(self, t):
        if self.factor > 1:
            return t * self.factor
        q = abs(t) // self.divisor
        return q if t >= 0 else -q

    def model(self, rows):
        """devcol's answer for rows (ticks, None for null): ("refused", row, ticks) or ("cast", rows)."""
        for r, t in enumerate(rows):
            if t is not None and not self.lowest <= t <= self.highest:
                return ("refused", r, t)
        return ("cast", [None if t is None else self.convert(t) for t in rows])

    def edges(self):
        """Ticks that hurt this pair: the representation's extremes, the bounds of what the target holds
        and one past each, values that truncate (both signs) and their neighbours."""
        d, f = self.divisor, self.factor
        out = {0, 1, -1, self.source_lo, self.source_hi, self.source_lo + 1, self.source_hi - 1}
        for e in (self.lowest, self.highest):
            out |= {e - 1, e, e + 1}
        for m in (d - 1, d, d + 1, 2 * d - 1, 1999 * d // 1000 + 1, 86_399 * f):
            out |= {m, -m}
        return sorted(t for t in out if self.source_lo <= t <= self.source_hi)

    def inside(self):
        return [t for t in self.edges() if self.lowest <= t <= self.highest]

    def outside(self):
        return [t for t in self.edges() if not self.lowest <= t <= self.highest]


def ticks_type(bits):
    return pa.int32() if bits == 32 else pa.int64()


def make_array(pa_type, bits, ticks, valid, offset):
    """An array of `pa_type` holding `ticks` (every row, nulls' hidden values included), `valid` saying
    which rows are valid, built from buffers and sliced at `offset` (the rows before and after the slice
    are nulls hiding the type's extremes)."""
    lo, hi = rep_range(bits)
    dtype = np.int32 if bits == 32 else np.int64
    data = np.concatenate([np.full(offset, hi, dtype), np.asarray(ticks, dtype), np.array([lo, hi], dtype)])
    mask = np.concatenate([np.zeros(offset, bool), np.asarray(valid, bool), np.zeros(2, bool)])
    arr = pa.Array.from_buffers(pa_type, len(data), [pa.py_buffer(np.packbits(mask, bitorder="little").tobytes()),
                                                     pa.py_buffer(data.tobytes())])
    return arr.slice(offset, len(ticks))


def ticks_of(arr, bits):
    """The rows of a time array as ticks (None for null)."""
    return arr.view(ticks_type(bits)).to_pylist()


def devcol_cast(pair, arr):
    """("refused", message) or ("cast", the result as pyarrow imports it)."""
    schema, device = export(arr)
    out_schema, out_array = ArrowSchema(), ArrowDeviceArray()
    answer = json.loads(_call(lib.devcol_peer_cast, str(pair.source).encode(), str(pair.target).encode(),
                              addr(schema), addr(device), addr(out_schema), addr(out_array)))
    if answer["refused"] is not None:
        assert out_array.array.release is None and out_schema.release is None, "a refused cast exported a result"
        return ("refused", answer["refused"])
    result = pa.Array._import_from_c_device(addr(out_array), addr(out_schema))
    result.validate()  # full validation too where the source passes it: see check()
    return ("cast", result)


def pyarrow_cast(pair, arr):
    """pyarrow's answer where it is devcol's rule: ("refused", message) or ("cast", array)."""
    try:
        return ("cast", arr.cast(pair.target, safe=pair.factor > 1))
    except pa.ArrowInvalid as e:
        return ("refused", str(e))


class TimeCasts(unittest.TestCase):
    cases = 0
    by_outcome = {"cast": 0, "refused": 0, "stricter": 0}

    def tearDown(self):
        gc.collect()
        self.assertEqual(lib.devcol_peer_live_allocations(), 0, "devcol allocations still live after the test")

    def check(self, pair, arr, what):
        where = f"{pair}, {what}, {len(arr)} rows at offset {arr.offset}"
        rows = ticks_of(arr, pair.source_bits)
        model = pair.model(rows)
        got = devcol_cast(pair, arr)
        ref = pyarrow_cast(pair, arr)
        TimeCasts.cases += 1
        if model[0] == "refused":
            _, row, ticks = model
            self.assertEqual(got[0], "refused", f"{where}: devcol cast row {row} ({ticks} ticks), which "
                                                f"{pair.target} cannot hold")
            expected = f"cast: row {row} holds {ticks} ({pair.source}), which {pair.target} cannot hold"
            self.assertIn(expected, got[1], f"{where}: devcol's message")
            if pair.pyarrow_refuses:
                self.assertEqual(ref[0], "refused", f"{where}: devcol refused row {row}, pyarrow's cast did not")
                self.assertIn("out of bounds", ref[1], where)
            else:
                TimeCasts.by_outcome["stricter"] += 1
            TimeCasts.by_outcome["refused"] += 1
            return
        self.assertEqual(got[0], "cast", f"{where}: devcol refused: {got[1]}")
        result = got[1]
        self.assertEqual(result.type, pair.target, where)
        self.assertEqual(ticks_of(result, pair.target_bits), model[1], f"{where}: devcol against the model")
        self.assertEqual(ref[0], "cast", f"{where}: pyarrow refused what devcol cast: {ref[1]}")
        self.assertTrue(result.equals(ref[1]), f"{where}: devcol {ticks_of(result, pair.target_bits)[:20]}, "
                                               f"pyarrow {ticks_of(ref[1], pair.target_bits)[:20]}")
        try:
            ref[1].validate(full=True)
        except pa.ArrowInvalid:
            pass  # a time of day beyond a day, a date64 of no whole day: Arrow's value rules, not devcol's
        else:
            result.validate(full=True)
        TimeCasts.by_outcome["cast"] += 1

    def run_pair(self, kind, source, target):
        pair = Pair(kind, source, target)
        rng = np.random.default_rng(PAIRS.index((kind, source, target)) + 7)
        inside, outside = pair.inside(), pair.outside()
        # Null rows hide what would be refused (or the extremes, where nothing is).
        hidden = outside or [pair.source_lo, pair.source_hi]
        for k, n in enumerate([0, 1, 7, 64, 65, 1000]):
            offset = OFFSETS[k % len(OFFSETS)]
            valid = rng.random(n) >= 0.3
            fits = np.where(valid, rng.choice(inside, n), rng.choice(hidden, n)) if n else []
            self.check(pair, make_array(pair.source, pair.source_bits, fits, valid, offset), "every valid row fits")
            self.check(pair, make_array(pair.source, pair.source_bits, rng.choice(hidden, n) if n else [],
                                        np.zeros(n, bool), offset), "all null, hiding values that do not fit")
            if n:
                # Every edge value, valid: those that fit first (refused at the first that does not, if
                # any), then shuffled.
                edges = inside + outside
                self.check(pair, make_array(pair.source, pair.source_bits, edges, np.ones(len(edges), bool), offset),
                           "the edges, those that fit first")
                shuffled = rng.permutation(edges)
                self.check(pair, make_array(pair.source, pair.source_bits, shuffled, np.ones(len(edges), bool),
                                            offset), "the edges, shuffled")
        # Each value that does not fit, alone between those that do: every bound checked on its own.
        for e in outside:
            rows = inside + [e] + inside
            self.check(pair, make_array(pair.source, pair.source_bits, rows, np.ones(len(rows), bool), 3),
                       f"{e} alone does not fit")
            if outside and n:
                # One valid row that does not fit, after nulls hiding such values.
                bad = int(rng.integers(0, n))
                ticks = np.array(fits, dtype=np.int64)
                ticks[bad] = rng.choice(outside)
                v = valid.copy()
                v[bad] = True
                v[:bad][rng.random(bad) < 0.5] = False
                ticks[:bad][~v[:bad]] = rng.choice(outside, int((~v[:bad]).sum()))
                self.check(pair, make_array(pair.source, pair.source_bits, ticks, v, offset),
                           f"row {bad} does not fit, nulls before it hide such values")
        if outside:
            # 100003 rows, the first valid row that does not fit late, more after it, nulls hiding such
            # values before it: the parallel search must name the first.
            n = 100_003
            valid = rng.random(n) >= 0.2
            ticks = np.where(valid, rng.choice(inside, n), rng.choice(outside, n))
            for bad in (70_001, 70_002, 99_000, n - 1):
                ticks[bad], valid[bad] = rng.choice(outside), True
            self.check(pair, make_array(pair.source, pair.source_bits, ticks, valid, 5),
                       "rows 70001 on do not fit, nulls hiding such values before")
            valid[70_001] = False  # the next one becomes the first
            self.check(pair, make_array(pair.source, pair.source_bits, ticks, valid, 5), "row 70001 null")
        n = 100_003
        valid = rng.random(n) >= 0.1
        ticks = np.where(valid, rng.choice(inside, n), rng.choice(hidden, n))
        self.check(pair, make_array(pair.source, pair.source_bits, ticks, valid, 3), "100003 rows that fit")


def _add_pair_tests():
    for kind, source, target in PAIRS:
        def test(self, kind=kind, source=source, target=target):
            self.run_pair(kind, source, target)
        name = f"test_{source[0]}_to_{target[0]}".replace("[", "_").replace("]", "")
        setattr(TimeCasts, name, test)


_add_pair_tests()
_started = time.monotonic()


def tearDownModule():
    print(f"\ntime casts: {TimeCasts.cases} cases over {len(PAIRS)} pairs checked against pyarrow {pa.__version__} "
          f"({TimeCasts.by_outcome['cast']} cast, {TimeCasts.by_outcome['refused']} refused, of which "
          f"{TimeCasts.by_outcome['stricter']} where pyarrow wraps and the model speaks) "
          f"in {time.monotonic() - _started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
