#!/usr/bin/env bash
# Builds the libraries' DocC documentation into .build/docs/MODULE.doccarchive, each
# warning an error (an unresolved link, a parameter the comment does not name), from the
# symbol graph and the catalog in Sources/MODULE/MODULE.docc.
#
# Usage: Scripts/docc.sh [SYMBOLGRAPH_DIR]
#
# Run `swift package dump-symbol-graph --skip-synthesized-members` first, at any access
# level: only the public and open declarations are documented. docc runs on the graphs
# directly, without the swift-docc-plugin, so the package has no plugin dependency and
# `./run demo` resolves and builds nothing more. `docc preview` serves an archive.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=${1:-$(ls -d .build/*/symbolgraph | head -n 1)}
out=.build/docs
rm -rf "$out"
for module in FluidGradient FluidGradientIO FluidGradientTesting; do
    mkdir -p "$out/graphs/$module"
    # The module's graphs (its own, and its extensions of other modules' types), public only.
    python3 - "$graphs" "$module" "$out/graphs/$module" <<'PYTHON'
import glob, json, os, sys
directory, module, target = sys.argv[1:]
paths = glob.glob(os.path.join(directory, f"{module}.symbols.json")) + glob.glob(
    os.path.join(directory, f"{module}@*.symbols.json"))
if not paths:
    sys.exit(f"no symbol graph for {module} in {directory}")
for path in paths:
    with open(path) as file:
        graph = json.load(file)
    every = {symbol["identifier"]["precise"] for symbol in graph["symbols"]}
    graph["symbols"] = [s for s in graph["symbols"] if s.get("accessLevel") in ("public", "open")]
    kept = {symbol["identifier"]["precise"] for symbol in graph["symbols"]}
    graph["relationships"] = [r for r in graph["relationships"]
                              if r["source"] in kept and (r["target"] in kept or r["target"] not in every)]
    with open(os.path.join(target, os.path.basename(path)), "w") as file:
        json.dump(graph, file)
PYTHON
    docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$out/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.fluidgradient.$module" \
        --warnings-as-errors --output-path "$out/$module.doccarchive"
done
