#!/usr/bin/env python3
"""Counts the public API of the library modules from SwiftPM's symbol graph.

Usage: Scripts/api-count.py [--list] [SYMBOLGRAPH_DIR]

Run `swift package dump-symbol-graph --minimum-access-level public
--skip-synthesized-members` first (or at a lower level: only public and open
symbols count); the directory defaults to the one it writes.
A top-level symbol is one whose pathComponents has length 1. A declaration is
any symbol the graphs hold for FluidGradient, FluidGradientIO and
FluidGradientTesting, including those in their extensions of other modules'
types. Exits 1 when a declaration has no doc comment or a limit is passed.
"""
import glob
import json
import os
import sys

MODULES = ("FluidGradient", "FluidGradientIO", "FluidGradientTesting")
# A graph dumped at a lower access level (as `./run test` dumps it, once for every check)
# holds the package's own declarations too; only these count.
PUBLIC = ("public", "open")
MOST_TOP_LEVEL, MOST_DECLARATIONS = 34, 397


def symbols(directory):
    for module in MODULES:
        for path in sorted(glob.glob(os.path.join(directory, f"{module}.symbols.json"))
                           + glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))):
            with open(path) as file:
                graph = json.load(file)
            for symbol in graph["symbols"]:
                # An extension block (--emit-extension-block-symbols, for DocC) declares nothing.
                if symbol.get("accessLevel") in PUBLIC and symbol["kind"]["identifier"] != "swift.extension":
                    yield module, symbol


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    found = sorted(glob.glob(".build/*/symbolgraph"))
    directory = args[0] if args else (found[0] if found else ".build/symbolgraph")
    missing = [m for m in MODULES if not os.path.exists(os.path.join(directory, f"{m}.symbols.json"))]
    if missing:
        print(f"no symbol graph for {', '.join(missing)} in {directory}", file=sys.stderr)
        return 2
    seen, top, undocumented = set(), [], []
    for module, symbol in symbols(directory):
        key = symbol["identifier"]["precise"]
        if key in seen:
            continue
        seen.add(key)
        name = module + "." + ".".join(symbol["pathComponents"])
        if len(symbol["pathComponents"]) == 1:
            top.append(name)
        if not symbol.get("docComment", {}).get("lines"):
            undocumented.append(name)
    if "--list" in sys.argv:
        for name in sorted(top):
            print("top-level", name)
        for name in sorted(undocumented):
            print("undocumented", name)
    print(f"top-level {len(top)} (at most {MOST_TOP_LEVEL}), declarations {len(seen)} "
          f"(at most {MOST_DECLARATIONS}), undocumented {len(undocumented)}")
    return 0 if len(top) <= MOST_TOP_LEVEL and len(seen) <= MOST_DECLARATIONS and not undocumented else 1


if __name__ == "__main__":
    sys.exit(main())
