#!/usr/bin/env python3
"""Checks that the command line and the studio render only through the libraries' public API.

Usage: Scripts/check-road.py [SYMBOLGRAPH_DIR]

Run `swift package dump-symbol-graph --minimum-access-level internal
--skip-synthesized-members` first (the directory defaults to the one it writes; `./run
test` dumps it once for this and Scripts/api-count.py). The road
is the frame pipeline, the sinks, the video and animated-image encoders and the bundle
writer: every `package` declaration of FluidGradientIO whose source lies in its `Output/`
or `Bundle/` folder. The command (Sources/fluidgradient) and the studio (Studio/Sources)
must name none of them; they call `Preset.write(to:…)` and the other public functions,
which take that road themselves.

A type, function or constant of the road is found by its name anywhere in a client's code
(comments and string literals left out). A member the road adds to a type of elsewhere
(`extension Preset { package var … }`) is found as `.name`, when no other declaration in
the graphs, the command's own included, shares its name. The command's `bench`, which times the engine's own stages,
uses the engine's renderer on purpose; the engine is not the road.

Prints each use as file:line: name (declared in FILE), and exits 1; otherwise says how many
declarations were checked in how many files.
"""
import glob
import json
import os
import re
import sys

ROAD_MODULE = "FluidGradientIO"
ROAD_FOLDERS = ("Sources/FluidGradientIO/Output/", "Sources/FluidGradientIO/Bundle/")
CLIENTS = ("Sources/fluidgradient", "Studio/Sources")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DECLARATION = re.compile(r"\b(?:func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)")


def base_name(title):
    """`run(_:into:)` -> `run`; `init(path:)` -> `init`."""
    return IDENTIFIER.match(title).group(0) if IDENTIFIER.match(title) else title


def relative(uri, root):
    path = uri[len("file://"):] if uri.startswith("file://") else uri
    return os.path.relpath(path, root)


def load(directory, root):
    """The road's package declarations, and every declared name with how often it occurs."""
    road, names = [], {}
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        module = os.path.basename(path).split(".")[0].split("@")[0]
        with open(path) as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            title = base_name(symbol["pathComponents"][-1])
            names[title] = names.get(title, 0) + 1
            location = symbol.get("location", {}).get("uri", "")
            if module != ROAD_MODULE or symbol.get("accessLevel") != "package" or not location:
                continue
            source = relative(location, root)
            if source.startswith(ROAD_FOLDERS):
                road.append((symbol["pathComponents"], title, source))
    return road, names


def code_lines(text):
    """The file's lines with comments and string literals blanked, keeping line numbers."""
    out, index, length = [], 0, len(text)
    state = None  # None, "line", "block", "string", "multiline"
    depth = 0
    while index < length:
        char, pair = text[index], text[index:index + 2]
        if state is None:
            if pair == "//":
                state = "line"
            elif pair == "/*":
                state, depth = "block", 1
                index += 1
            elif text[index:index + 3] == '"""':
                state = "multiline"
                index += 2
            elif char == '"':
                state = "string"
            else:
                out.append(char)
                index += 1
                continue
            out.append(" ")
        elif state == "line":
            if char == "\n":
                state = None
                out.append("\n")
            else:
                out.append(" ")
        elif state == "block":
            if pair == "/*":
                depth += 1
                index += 1
            elif pair == "*/":
                depth -= 1
                index += 1
                if depth == 0:
                    state = None
            out.append("\n" if char == "\n" else " ")
        elif state == "string":
            if char == "\\":
                index += 1
            elif char == '"' or char == "\n":
                state = None
            out.append("\n" if char == "\n" else " ")
        elif state == "multiline":
            if text[index:index + 3] == '"""':
                state = None
                index += 2
            out.append("\n" if char == "\n" else " ")
        index += 1
    return "".join(out).split("\n")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = sys.argv[1:]
    found = sorted(glob.glob(os.path.join(root, ".build/*/symbolgraph")))
    directory = args[0] if args else (found[0] if found else os.path.join(root, ".build/symbolgraph"))
    if not os.path.exists(os.path.join(directory, f"{ROAD_MODULE}.symbols.json")):
        print(f"no symbol graph for {ROAD_MODULE} in {directory}", file=sys.stderr)
        return 2
    road, names = load(directory, root)
    if not any(source for _, _, source in road):
        print("the graph holds no package declaration of the road; dump it with "
              "--minimum-access-level internal", file=sys.stderr)
        return 2
    files = [path for client in CLIENTS
             for path in sorted(glob.glob(os.path.join(root, client, "**", "*.swift"), recursive=True))]
    sources = {}
    for path in files:
        with open(path, encoding="utf-8") as file:
            sources[path] = code_lines(file.read())
        # The clients' own members, which SwiftPM dumps no graph of (they are executables).
        for line in sources[path]:
            for name in DECLARATION.findall(line):
                names[name] = names.get(name, 0) + 1
    road_types = {path[0] for path, _, _ in road if len(path) == 1}
    top_level = {}  # name -> where it is declared
    members = {}
    for path, title, source in road:
        if len(path) == 1:
            top_level[title] = source
        elif path[0] not in road_types and names.get(title, 0) == 1:
            members[title] = source
    problems = []
    for path in files:
        for number, line in enumerate(sources[path], start=1):
            for match in IDENTIFIER.finditer(line):
                name, start = match.group(0), match.start()
                if name in top_level and (start == 0 or line[start - 1] != "."):
                    problems.append(f"{os.path.relpath(path, root)}:{number}: {name} (declared in {top_level[name]})")
                elif name in members and start > 0 and line[start - 1] == ".":
                    problems.append(f"{os.path.relpath(path, root)}:{number}: .{name} (declared in {members[name]})")
    for problem in problems:
        print(problem)
    print(f"the road: {len(road)} package declarations in {', '.join(ROAD_FOLDERS)}; "
          f"{len(files)} files of the command and the studio "
          + ("use none" if not problems else f"use them {len(problems)} times; call the public API instead"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
