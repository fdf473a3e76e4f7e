#!/usr/bin/env bash
# Times BENCHMARKS.md's engine rows 1 to 4 for this tree and for an earlier commit, side by
# side in one run: each command alternates between the two binaries, RUNS times, and the
# medians and their ratio (this tree over the base) are printed. A change that should not
# move the engine's speed (a refactor) should give ratios within the machine's noise.
#
#   Scripts/bench-against.sh b7c8b88
#   RUNS=7 Scripts/bench-against.sh HEAD~3
#
# The base is built once in a temporary worktree under /tmp (kept for the next run).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: Scripts/bench-against.sh COMMIT}
RUNS=${RUNS:-5}
commit=$(git rev-parse --short "$BASE^{commit}")
tree=/tmp/fluidgradient-base-$commit
if [ ! -x "$tree/.build/release/fluidgradient" ]; then
    [ -d "$tree" ] || git worktree add -q --detach "$tree" "$commit"
    (cd "$tree" && swift build -c release --product fluidgradient >/dev/null)
fi
swift build -c release --product fluidgradient >/dev/null
OLD=$tree/.build/release/fluidgradient
NEW=$PWD/.build/release/fluidgradient

# shellcheck source=Scripts/timing.sh
source Scripts/timing.sh

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; base $commit," \
    "this tree $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes'); $RUNS runs, medians"
printf '%-5s %-40s %10s %10s %8s\n' row "bench arguments" "base s" "this s" ratio
while IFS='|' read -r row args; do
    old="" new=""
    for ((i = 0; i < RUNS; i++)); do
        # shellcheck disable=SC2086
        old+=" $(wall "$OLD" bench $args)"
        # shellcheck disable=SC2086
        new+=" $(wall "$NEW" bench $args)"
    done
    a=$(echo "$old" | median) b=$(echo "$new" | median)
    printf '%-5s %-40s %10s %10s %7.3fx\n' "$row" "$args" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
done <<'ROWS'
1|--frames 600
2|--size 3840x2160 --frames 300
3|--frames 600 --blur 0.5
3|--frames 600 --blur 0.9
4|--frames 600 --blobs 48
4|--frames 600 --blobs 6
ROWS
