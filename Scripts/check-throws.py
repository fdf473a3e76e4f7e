#!/usr/bin/env python3
"""Checks, from SwiftPM's symbol graph, that every error a public function throws is public.

Usage: Scripts/check-throws.py [SYMBOLGRAPH_DIR]

Run `swift package dump-symbol-graph --minimum-access-level public
--skip-synthesized-members` first (or at a lower level: only public and open symbols are
checked); the directory defaults to the one it writes (the one Scripts/api-count.py reads). Every public function, method, initializer and subscript of
FluidGradient, FluidGradientIO and FluidGradientTesting that throws must:

- use typed throws, `throws(SomeError)`: then the compiler guarantees the function throws
  nothing else, which a `- Throws:` line in a doc comment cannot;
- throw a type the public graphs hold (the compiler already refuses a public function
  whose thrown type is less visible, so this holds the line if that ever changes);
- throw a type that conforms to FluidGradientError, the one way a caller tells its
  input from a failure;
- say what it throws in a `- Throws:` line of its doc comment.

Prints each function that does not, and exits 1; otherwise prints the count.
"""
import glob
import json
import os
import sys

MODULES = ("FluidGradient", "FluidGradientIO", "FluidGradientTesting")
PUBLIC = ("public", "open")
PROTOCOL = "FluidGradient.FluidGradientError"
CALLABLE = ("swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript",
            "swift.type.subscript", "swift.func.op")


def graphs(directory):
    for module in MODULES:
        for path in sorted(glob.glob(os.path.join(directory, f"{module}.symbols.json"))
                           + glob.glob(os.path.join(directory, f"{module}@*.symbols.json"))):
            with open(path) as file:
                yield module, json.load(file)


def thrown_type(fragments):
    """('untyped', None), ('typed', precise id and name), or None when nothing is thrown."""
    for index, fragment in enumerate(fragments):
        if fragment["kind"] != "keyword" or fragment["spelling"] not in ("throws", "rethrows"):
            continue
        if fragment["spelling"] == "rethrows":
            return ("rethrows", None)
        following = fragments[index + 1:index + 3]
        if (len(following) == 2 and following[0]["spelling"].startswith("(")
                and following[1]["kind"] == "typeIdentifier"):
            return ("typed", (following[1].get("preciseIdentifier"), following[1]["spelling"]))
        return ("untyped", None)
    return None


def main():
    args = sys.argv[1:]
    found = sorted(glob.glob(".build/*/symbolgraph"))
    directory = args[0] if args else (found[0] if found else ".build/symbolgraph")
    missing = [m for m in MODULES if not os.path.exists(os.path.join(directory, f"{m}.symbols.json"))]
    if missing:
        print(f"no symbol graph for {', '.join(missing)} in {directory}", file=sys.stderr)
        return 2
    public, conformances, throwing, protocol = set(), [], [], None
    for module, graph in graphs(directory):
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in PUBLIC:
                continue
            public.add(symbol["identifier"]["precise"])
            if module + "." + ".".join(symbol["pathComponents"]) == PROTOCOL:
                protocol = symbol["identifier"]["precise"]
            if symbol["kind"]["identifier"] in CALLABLE:
                throws = thrown_type(symbol.get("declarationFragments", []))
                if throws:
                    name = module + "." + ".".join(symbol["pathComponents"])
                    doc = "\n".join(line["text"] for line in symbol.get("docComment", {}).get("lines", []))
                    throwing.append((name, throws, doc))
        conformances += [(r["source"], r["target"]) for r in graph["relationships"] if r["kind"] == "conformsTo"]
    conforming = {source for source, target in conformances if target == protocol}
    problems = [] if protocol else [f"no {PROTOCOL} in the graphs"]
    for name, (kind, typed), doc in sorted(throwing, key=lambda item: item[0]):
        if kind != "typed":
            problems.append(f"{name}: {kind} throws; give the error type, throws(SomeError)")
            continue
        precise, type_name = typed
        if precise not in public:
            problems.append(f"{name}: throws {type_name}, which is not public")
        elif precise not in conforming:
            problems.append(f"{name}: throws {type_name}, which does not conform to FluidGradientError")
        if "- Throws:" not in doc:
            problems.append(f"{name}: its doc comment has no '- Throws:' line")
    for problem in problems:
        print(problem)
    print(f"public throwing functions {len(throwing)}, each throwing one public FluidGradientError type: "
          + ("no" if problems else "yes"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
