#!/usr/bin/env python3
"""The GPU figures of `.ci/gpu bench`, appended to bench/RESULTS.md.

Reads the Google Benchmark JSON files of devcol's CUDA benchmarks (medians of their repetitions),
times CuPy and PyTorch on the same data sizes and operations as bench_ops (int64 columns of 2^24
and 2^27 rows, no nulls), and appends one section: the device (from nvidia-smi), then a table of
milliseconds per call for devcol, Thrust called directly, CuPy and PyTorch, then the other
benchmarks' medians. A peer library that is missing is reported as such, never guessed.

Usage: gpu_report.py --results bench/RESULTS.md bench_ops.json [other.json ...]
"""
import argparse
import datetime
import json
import statistics
import subprocess
import sys

SIZES = (1 << 24, 1 << 27)
# bench_ops' operations, in its order: name -> (CuPy or PyTorch call on the data `d` of module `xp`).
OPS = [
    "sum", "min", "max", "minmax", "copy", "transform", "add", "compare", "cast_to_double",
    "gather", "filter", "inclusive_scan", "sort", "argsort", "is_sorted", "fill",
]


def device_description():
    query = ["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]
    return subprocess.run(query, check=True, capture_output=True, text=True).stdout.strip().splitlines()[0]


def read_benchmarks(paths):
    """{run_name: milliseconds} of the medians in Google Benchmark JSON files."""
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    medians = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for b in data.get("benchmarks", []):
            if b.get("aggregate_name") == "median":
                medians[b["run_name"]] = b["real_time"] * scale[b["time_unit"]]
    return medians


def peer_ops(xp, d):
    """The bench_ops operations in library `xp` (cupy or torch) on data `d`."""
    torch = xp.__name__ == "torch"
    return {
        "sum": lambda: d["x"].sum(),
        "min": lambda: d["x"].min(),
        "max": lambda: d["x"].max(),
        "minmax": (lambda: d["x"].aminmax()) if torch else (lambda: (d["x"].min(), d["x"].max())),
        "copy": lambda: d["x"].clone() if torch else d["x"].copy(),
        "transform": lambda: d["x"] * 2,
        "add": lambda: d["x"] + d["y"],
        "compare": lambda: d["x"] < 500000,
        "cast_to_double": lambda: d["x"].to(xp.float64) if torch else d["x"].astype(xp.float64),
        "gather": lambda: d["x"][d["idx"]],
        "filter": lambda: d["x"][d["keep"]],
        "inclusive_scan": lambda: d["x"].cumsum(0) if torch else xp.cumsum(d["x"]),
        "sort": (lambda: xp.sort(d["x"], stable=True)) if torch else (lambda: xp.sort(d["x"])),
        "argsort": (lambda: xp.argsort(d["x"], stable=True)) if torch else (lambda: xp.argsort(d["x"])),
        "is_sorted": lambda: bool((d["x"][1:] >= d["x"][:-1]).all()),
        "fill": lambda: d["t"].fill_(7) if torch else d["t"].fill(7),
    }


def time_peer(name):
    """{(op, rows): milliseconds} for CuPy ("cupy") or PyTorch ("torch"), or a reason it is absent."""
    try:
        if name == "cupy":
            import cupy as xp
            event = xp.cuda.Event
            def sync(): xp.cuda.Device().synchronize()
        else:
            import torch as xp
            if not xp.cuda.is_available():
                return "PyTorch sees no GPU"
            event = lambda: xp.cuda.Event(enable_timing=True)
            def sync(): xp.cuda.synchronize()
    except ImportError as e:
        return f"not installed ({e})"
    times = {}
    for n in SIZES:
        if name == "cupy":
            rng = xp.random.default_rng(n)
            d = {"x": rng.integers(0, 1000000, n).astype(xp.int64), "y": rng.integers(0, 1000, n).astype(xp.int64),
                 "idx": rng.integers(0, n, n).astype(xp.int32), "keep": rng.random(n) < 0.5,
                 "t": xp.zeros(n, dtype=xp.int64)}
        else:
            g = xp.Generator(device="cuda").manual_seed(n)
            d = {"x": xp.randint(0, 1000000, (n,), dtype=xp.int64, device="cuda", generator=g),
                 "y": xp.randint(0, 1000, (n,), dtype=xp.int64, device="cuda", generator=g),
                 "idx": xp.randint(0, n, (n,), dtype=xp.int32, device="cuda", generator=g),
                 "keep": xp.rand(n, device="cuda", generator=g) < 0.5,
                 "t": xp.zeros(n, dtype=xp.int64, device="cuda")}
        for op, call in peer_ops(xp, d).items():
            call()  # warm: kernels loaded, the caching allocator holds the result's block
            sync()
            batches = []
            for _ in range(5):
                start, stop = event(), event()
                start.record()
                for _ in range(5):
                    call()
                stop.record()
                stop.synchronize()
                batches.append(xp.cuda.get_elapsed_time(start, stop) / 5 if name == "cupy"
                               else start.elapsed_time(stop) / 5)
            times[(op, n)] = statistics.median(batches)
        del d
        if name == "cupy":
            xp.get_default_memory_pool().free_all_blocks()
        else:
            xp.cuda.empty_cache()
    return times


def fmt(value):
    if value is None:
        return "—"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="the Markdown file to append to")
    parser.add_argument("json", nargs="+", help="Google Benchmark JSON output of the CUDA benchmarks")
    args = parser.parse_args()

    device = device_description()
    ours = read_benchmarks(args.json)
    peers = {name: time_peer(name) for name in ("cupy", "torch")}

    lines = [
        "",
        f"## GPU: {device.split(',')[0]} ({datetime.date.today().isoformat()})",
        f"- **Device** (nvidia-smi: name, driver, memory): {device}.",
        "- **Command:** `.ci/gpu build && .ci/gpu bench` (Release, real SASS for sm_90; each iteration ends",
        "  with the stream synchronised). devcol and Thrust: medians of 3 Google Benchmark repetitions;",
        "  CuPy and PyTorch: medians of 5 batches of 5 calls timed with CUDA events, after a warm-up call.",
        "  Same data: int64 columns without nulls (x in [0, 10^6), y in [0, 1000)), int32 gather indices,",
        "  boolean filter flags; results from each library's caching pool.",
        "",
        "### Ops, milliseconds per call (lower is better)",
        "",
        "| op | rows | devcol | Thrust | CuPy | PyTorch |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    shown = set()
    for op in OPS:
        for n in SIZES:
            names = (f"devcol_{op}/{n}/real_time", f"thrust_{op}/{n}/real_time")
            shown.update(names)
            row = [op, f"2^{n.bit_length() - 1}", fmt(ours.get(names[0])), fmt(ours.get(names[1]))]
            for name in ("cupy", "torch"):
                row.append(fmt(peers[name].get((op, n))) if isinstance(peers[name], dict) else "—")
            lines.append("| " + " | ".join(row) + " |")
    for n in SIZES:
        shown.add(f"memcpy_baseline/{n}/real_time")
        copy = ours.get(f"memcpy_baseline/{n}/real_time")
        if copy is not None:
            lines.append(f"| device-to-device copy (baseline) | 2^{n.bit_length() - 1} | {fmt(copy)} | | | |")
    for name, label in (("cupy", "CuPy"), ("torch", "PyTorch")):
        if not isinstance(peers[name], dict):
            lines.append(f"\n{label}: {peers[name]}.")
    others = {k: v for k, v in ours.items() if k not in shown}
    if others:
        lines += ["", "### Other GPU benchmarks (medians, milliseconds)", "", "| benchmark | time |", "| --- | ---: |"]
        lines += [f"| `{k}` | {fmt(v)} |" for k, v in sorted(others.items())]
    with open(args.results, "a", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"appended {len(lines)} lines to {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
