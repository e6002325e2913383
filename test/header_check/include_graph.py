#!/usr/bin/env python3
"""The include graph of devcol's headers against DESIGN.md's layers.

Checks, over every header under include/devcol (detail ones included), each `#include <devcol/...>`:
  1. it runs down or sideways: a layer includes only its own layer and those below it;
  2. it names no other layer's `detail/` header, apart from the few below that exist to be shared
     (what a layer offers to the layers above it is otherwise a public, documented header);
  3. no header reaches itself again through its includes (no include loop).
Prints every violation, one a line, and exits 1 if there is any; prints a one-line summary otherwise.
Usage: include_graph.py INCLUDE_DIR, or include_graph.py --self-test (the checker finds each kind of
violation in a small tree made for it, and passes a clean one).
"""
import contextlib
import io
import pathlib
import re
import sys
import tempfile

# DESIGN.md's layers, bottom-up; the umbrella header (devcol/devcol.hpp) sits above them all.
LAYERS = ["core", "memory", "buffer", "spill", "column", "ops", "interop"]
# Detail headers meant for the layers above their own, each with its reason.
SHARED_DETAIL = {
    # whatever captured a stream asks it before queuing work there (memory, buffer, interop)
    "devcol/core/detail/retired_streams.hpp",
    # the process-wide objects static destruction must not end: retired streams (core), the spill
    # registry (buffer)
    "devcol/core/detail/immortal.hpp",
    # the Thrust execution policy on a stream: every kernel of ops and interop launches through it
    "devcol/column/detail/execution.hpp",
    # the row helpers of variable-width kinds that string ops share with the columns
    "devcol/column/detail/rows.hpp",
    # a fixed-width column seen as its width's word: ops and interop move bytes once per width
    "devcol/column/detail/width_word.hpp",
    # the bounds check of index columns: gather and scatter (ops), dictionaries (column, interop)
    "devcol/column/detail/index_bounds.hpp",
    # the check that offsets or run ends increase: run-end encoded columns (column), their import
    # and the offsets of every variable-width import (interop)
    "devcol/column/detail/increasing.hpp",
    # the one wrapping add and multiply: sequences (column), sums, products and scans (ops)
    "devcol/column/detail/wrapping.hpp",
    # the split of a pass over rows among OpenMP threads: the executor's host loops (column) and
    # the host fast paths (ops)
    "devcol/column/detail/host_chunks.hpp",
}
INCLUDE = re.compile(r'^\s*#\s*include\s*<(devcol/[^>]+)>', re.MULTILINE)


def layer_of(header: str) -> int:
    parts = header.split("/")
    if len(parts) == 2:  # devcol/devcol.hpp
        return len(LAYERS)
    if parts[1] not in LAYERS:
        raise SystemExit(f"{header}: folder '{parts[1]}' is not a layer of DESIGN.md ({', '.join(LAYERS)})")
    return LAYERS.index(parts[1])


def is_detail(header: str) -> bool:
    return "/detail/" in header


def main(include_dir: str) -> int:
    root = pathlib.Path(include_dir)
    graph = {}
    for path in sorted(root.glob("devcol/**/*.hpp")):
        header = path.relative_to(root).as_posix()
        graph[header] = INCLUDE.findall(path.read_text(encoding="utf-8"))
    problems = []
    for header, includes in graph.items():
        for included in includes:
            if included not in graph:
                problems.append(f"{header} includes {included}, which does not exist")
                continue
            if layer_of(included) > layer_of(header):
                problems.append(f"{header} includes {included}: an upward include "
                                f"({LAYERS[layer_of(header)] if layer_of(header) < len(LAYERS) else 'umbrella'}"
                                f" below {LAYERS[layer_of(included)]})")
            if (is_detail(included) and included not in SHARED_DETAIL and layer_of(included) != layer_of(header)
                    and layer_of(header) < len(LAYERS)):
                problems.append(f"{header} includes {included}: another layer's detail header")
    # Include loops: Tarjan's strongly connected components; any component of two or more headers
    # (or a header that includes itself) is a loop.
    index, low, on_stack, stack, loops = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        work = [(node, iter(graph[node]))]
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        while work:
            current, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[current] = min(low[current], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[current])
            if low[current] == index[current]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == current:
                        break
                if len(component) > 1 or current in graph[current]:
                    loops.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    for loop in loops:
        problems.append("include loop among: " + ", ".join(loop))
    for problem in problems:
        print(problem)
    if problems:
        return 1
    edges = sum(len(v) for v in graph.values())
    print(f"include graph: {len(graph)} headers, {edges} includes; no upward include, no other layer's "
          "detail header, no loop")
    return 0


def self_test() -> int:
    cases = {
        "upward include": ({"devcol/core/a.hpp": "devcol/ops/b.hpp", "devcol/ops/b.hpp": None}, "upward include"),
        "detail header": ({"devcol/spill/a.hpp": "devcol/buffer/detail/b.hpp", "devcol/buffer/detail/b.hpp": None},
                          "another layer's detail header"),
        "loop": ({"devcol/column/a.hpp": "devcol/column/b.hpp", "devcol/column/b.hpp": "devcol/column/a.hpp"},
                 "include loop among: devcol/column/a.hpp, devcol/column/b.hpp"),
        "clean": ({"devcol/ops/a.hpp": "devcol/column/detail/execution.hpp",
                   "devcol/column/detail/execution.hpp": "devcol/core/b.hpp", "devcol/core/b.hpp": None}, None),
    }
    failures = 0
    for name, (tree, expected) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            for header, included in tree.items():
                path = pathlib.Path(root, header)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(f"#include <{included}>\n" if included else "")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = main(root)
        ok = status == 0 if expected is None else (status == 1 and expected in out.getvalue())
        print(f"{'ok' if ok else 'FAILED'}: {name}: {out.getvalue().strip()}")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sys.exit(self_test() if sys.argv[1] == "--self-test" else main(sys.argv[1]))
