#!/usr/bin/env python3
"""Prints the nvcc flags that compile and link a program against the RAPIDS wheels from PyPI.

    nvcc -std=c++20 -arch=sm_90 -Iinclude $(python3 examples/rapids_flags.py rmm) examples/rmm_both_ways.cu -o rmm_both_ways
    nvcc -std=c++20 -arch=sm_90 -Iinclude $(python3 examples/rapids_flags.py cudf) examples/cudf_handoff.cu -o cudf_handoff

`rmm` needs `pip install librmm-cu13`; `cudf` also `pip install libcudf-cu13`. The flags hold the
wheels' include directories (RMM and libcudf ship the CCCL they were built with under
include/rapids: it must come before the CUDA toolkit's), their libraries, and run paths to them,
so the program runs from anywhere on this machine without LD_LIBRARY_PATH. Locations come from Python's import system
(importlib.util.find_spec: nothing is imported, nothing is downloaded). `--include-only` prints
only the -I flags (for compile-only checks). Exits 1, naming the missing wheel, if one is absent.
"""
import importlib.util
import os
import sys


def package_dir(name):
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"rapids_flags.py: the Python package {name} is not installed (see the README)")
    return spec.submodule_search_locations[0]


def existing(*parts):
    path = os.path.join(*parts)
    return path if os.path.isdir(path) else None


def flags(target, include_only):
    rmm, logger = package_dir("librmm"), package_dir("rapids_logger")
    includes = [os.path.join(rmm, "include", "rapids"), os.path.join(rmm, "include"), os.path.join(logger, "include")]
    libs = [(os.path.join(rmm, "lib64"), "rmm")]
    # (directory, libraries by soname) that the wheels' libraries load in turn
    deps = [(os.path.join(logger, "lib64"), ["librapids_logger.so"])]
    if target == "cudf":
        cudf, kvikio = package_dir("libcudf"), package_dir("libkvikio")
        includes = [os.path.join(cudf, "include", "rapids"), os.path.join(cudf, "include")] + includes[1:]
        includes.append(os.path.join(kvikio, "include"))
        libs.insert(0, (os.path.join(cudf, "lib64"), "cudf"))
        deps.append((os.path.join(kvikio, "lib64"), ["libkvikio.so"]))
        for extra, directory, names in (("nvidia.libnvcomp", "lib64", ["libnvcomp.so.5"]),
                                        ("nvidia.cu13", "lib", ["libnvrtc.so.13", "libnvJitLink.so.13"])):
            try:
                base = package_dir(extra)
            except SystemExit:
                continue  # the CUDA toolkit's own libraries serve instead
            deps.append((os.path.join(base, directory), names))
    elif target != "rmm":
        raise SystemExit("usage: rapids_flags.py {rmm|cudf} [--include-only]")
    out = [f"-I{d}" for d in includes if os.path.isdir(d)]
    if not include_only:
        # The wheels' libraries find each other only through $ORIGIN (their DT_RUNPATH), which does
        # not reach across wheels, and a library with DT_RUNPATH ignores the program's run paths for
        # its own dependencies. So the program loads those dependencies itself, by soname, from its
        # own run paths (kept even where the linker drops unused libraries by default); the wheels'
        # libraries then find them already loaded.
        out.append("-Xlinker=--no-as-needed")
        for directory, name in libs:
            out += [f"-L{directory}", f"-l{name}", f"-Xlinker=-rpath,{directory}"]
        for directory, names in deps:
            present = [n for n in names if os.path.exists(os.path.join(directory, n))]
            if present:
                out += [f"-L{directory}", f"-Xlinker=-rpath,{directory}"] + [f"-l:{n}" for n in present]
    return out


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--include-only"]
    if len(args) != 1:
        raise SystemExit("usage: rapids_flags.py {rmm|cudf} [--include-only]")
    print(" ".join(flags(args[0], "--include-only" in sys.argv[1:])))
