#!/usr/bin/env python3
"""Build-time benchmark: how long a consumer's file takes to compile, against a Thrust-only file.

Compiles each program of this folder in turn, `--rounds` rounds, interleaved so that a change in
the machine's load hits every file alike, and prints the median seconds of each and its ratio to
the reference file compiled in the same run by the same compiler (with `--nvcc`, the reference is
also compiled as CUDA, so nvcc's rows read against a Thrust-only file under nvcc), as a Markdown
table. Host programs are compiled with
`g++ -std=c++20 -O2 -fopenmp`, CUDA ones with plain `nvcc -std=c++20 -arch=sm_90`, as users do.

    python3 bench/build_time/measure.py [--rounds 5] [--nvcc] [--precompiled] [--extra-flags "..."]

`--precompiled` also compiles the table/Arrow programs as a consumer of devcol::precompiled does
(`-DDEVCOL_PRECOMPILED=1`: the instantiations the library holds are declared, not compiled); the
library itself is built once per installation, not per file, and is not timed.

Not a test: it asserts nothing; figures go to bench/RESULTS.md with the machine and the load.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = os.path.normpath(os.path.join(HERE, "..", "..", "include"))

HOST = ["reference.cpp", "forward_declarations.cpp", "umbrella.cpp", "fixed_width.cpp", "table_arrow.cpp",
        "table_arrow_headers.cpp"]
# The table/Arrow program through the umbrella, and through the four headers it uses.
PRECOMPILED = ["table_arrow.cpp", "table_arrow_headers.cpp"]
CUDA = ["reference.cpp", "umbrella.cpp", "cuda_consumer.cu"]


def cccl_include(nvcc):
    """The toolkit's CCCL headers (Thrust, CUB, libcu++), found next to nvcc."""
    root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    for candidate in (os.path.join(root, "include", "cccl"), os.path.join(root, "targets", "x86_64-linux", "include", "cccl")):
        if os.path.isdir(candidate):
            return candidate
    sys.exit("measure.py: CCCL headers not found next to " + nvcc)


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit("measure.py: failed: " + " ".join(command) + "\n" + result.stderr[-4000:])
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--nvcc", action="store_true", help="also compile the umbrella and the CUDA consumer with nvcc")
    parser.add_argument("--extra-flags", default="", help="flags added to every g++ command (e.g. -ftime-trace with clang)")
    parser.add_argument("--precompiled", action="store_true",
                        help="also compile the table/Arrow program in the precompiled mode")
    parser.add_argument("--cxx", default="g++")
    args = parser.parse_args()
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        sys.exit("measure.py: nvcc not on PATH (its CCCL is the one devcol's host backend uses)")
    cccl = cccl_include(nvcc)
    out_dir = tempfile.mkdtemp(prefix="devcol-build-time-")
    jobs = []
    for name in HOST:
        command = [args.cxx, "-std=c++20", "-O2", "-fopenmp", "-I" + INCLUDE, "-I" + cccl, *args.extra_flags.split(),
                   "-c", os.path.join(HERE, name), "-o", os.path.join(out_dir, name + ".o")]
        jobs.append((args.cxx + " -O2", name, command))
    if args.precompiled:
        for name in PRECOMPILED:
            command = [args.cxx, "-std=c++20", "-O2", "-fopenmp", "-DDEVCOL_PRECOMPILED=1", "-I" + INCLUDE, "-I" + cccl,
                       *args.extra_flags.split(), "-c", os.path.join(HERE, name),
                       "-o", os.path.join(out_dir, name + ".precompiled.o")]
            jobs.append((args.cxx + " -O2, precompiled mode", name, command))
    if args.nvcc:
        for name in CUDA:
            command = [nvcc, "-std=c++20", "-arch=sm_90", "-I" + INCLUDE, "-x", "cu", "-c", os.path.join(HERE, name),
                       "-o", os.path.join(out_dir, name + ".cu.o")]
            jobs.append(("nvcc sm_90", name, command))
    times = {(compiler, name): [] for compiler, name, _ in jobs}
    for _ in range(args.rounds):
        for compiler, name, command in jobs:
            times[(compiler, name)].append(timed(command))
    shutil.rmtree(out_dir, ignore_errors=True)
    # Each compiler's rows against the reference compiled by that compiler (nvcc: as CUDA).
    references = {compiler: statistics.median(samples) for (compiler, name), samples in times.items()
                  if name == "reference.cpp"}
    reference = references[args.cxx + " -O2"]
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds, load average at the end {load:.2f}, {os.cpu_count()} cores")
    print()
    print("| compiler | file | median | vs reference |")
    print("| --- | --- | --- | --- |")
    for (compiler, name), samples in times.items():
        median = statistics.median(samples)
        base = references.get(compiler, reference)
        print(f"| {compiler} | {name} | {median:.2f} s | {median / base:.1f}x |")


if __name__ == "__main__":
    main()
