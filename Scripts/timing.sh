# Timing helpers shared by the benchmark scripts (sourced, not run).

# Wall seconds of a command, process start included (output discarded).
wall() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.3f", ns / 1e9 }'
}

# The median of the numbers on standard input, separated by spaces or lines.
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
