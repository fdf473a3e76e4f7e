#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that read outside text, and of the WebP shim that
# hands outside bytes to libwebp, with libFuzzer (it ships with the Swift toolchain) and
# AddressSanitizer.
#
#   Scripts/fuzz.sh [SECONDS] [PARSER...]
#
# Runs each PARSER (preset, manifest, palette, fill, webp; default all five) for SECONDS
# (default 30), as many at a time as there are cores ($FLUIDGRADIENT_FUZZ_JOBS to choose).
# It builds Fuzz/FuzzParsers.swift and the FluidGradient module's sources
# with swiftc, and Fuzz/FuzzWebP.c with Sources/CWebPCodec with clang (webp), into
# .build-fuzz/, apart from SwiftPM's build, which it leaves alone. The
# committed seeds in Fuzz/Corpus/PARSER are only read; what the fuzzer learns goes to
# .build-fuzz/corpus/PARSER and is kept for the next run. It exits 1 on a finding, whose
# input is saved as .build-fuzz/findings/PARSER-crash-* (replay it with
# `FLUIDGRADIENT_FUZZ_PARSER=PARSER .build-fuzz/fuzz-parsers FILE`, or
# `.build-fuzz/fuzz-webp FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true
parsers=("$@")
[ ${#parsers[@]} -gt 0 ] || parsers=(preset manifest palette fill webp)
build=.build-fuzz
binary=$build/fuzz-parsers
webp_binary=$build/fuzz-webp
sources=$(find Sources/FluidGradient Sources/CVectorMath -type f | sort)
# The batch manifest's reader, from FluidGradientIO: the files that need only FluidGradient,
# built as a module of that name (the rest of FluidGradientIO needs the C libraries).
# A job's encode size brings the output's request, container, codec and error types with it.
manifest_sources="$(printf 'Sources/FluidGradientIO/Batch/%s.swift\n' \
    BatchManifest BatchManifestError ManifestReader BatchJob Shard ShardEnvironmentError)
$(printf 'Sources/FluidGradientIO/Output/%s.swift\n' \
    EncodeSizeRequest OutputError VideoContainer AlphaMode Video/VideoCodec OutputTarget FramePattern)"
webp_sources="Fuzz/FuzzWebP.c $(find Sources/CWebPCodec -type f | sort)"

build_target() {
    mkdir -p "$build/include/CVectorMath"
    # CVectorMath is header-only: a module map is all swiftc needs.
    printf 'module CVectorMath {\n    header "%s"\n    export *\n}\n' \
        "$PWD/Sources/CVectorMath/include/CVectorMath.h" > "$build/include/CVectorMath/module.modulemap"
    local flags=(-O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld -I "$build/include")
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name FluidGradient -package-name FluidGradient \
        -emit-module -emit-module-path "$build/FluidGradient.swiftmodule" \
        -emit-library -static -o "$build/libFluidGradient.a" $(grep '\.swift$' <<< "$sources")
    # shellcheck disable=SC2086
    swiftc "${flags[@]}" -module-name FluidGradientIO -package-name FluidGradient -I "$build" \
        -emit-module -emit-module-path "$build/FluidGradientIO.swiftmodule" \
        -emit-library -static -o "$build/libFluidGradientIO.a" $manifest_sources
    swiftc "${flags[@]}" -module-name FuzzParsers -package-name FluidGradient -I "$build" Fuzz/FuzzParsers.swift \
        "$build/libFluidGradientIO.a" "$build/libFluidGradient.a" -o "$binary"
}

build_webp_target() {
    mkdir -p "$build"
    # shellcheck disable=SC2046
    clang -O1 -g -fsanitize=fuzzer,address -fuse-ld=lld -I Sources/CWebPCodec/include \
        $(pkg-config --cflags libwebpdemux) Fuzz/FuzzWebP.c Sources/CWebPCodec/codec.c \
        $(pkg-config --libs libwebpdemux) -o "$webp_binary"
}

# Whether PARSER is among those to run.
wants() { [[ " ${parsers[*]} " == *" $1 "* ]]; }

# Whether BINARY is missing or older than any of the files that follow.
stale() {
    local binary=$1
    shift
    [ ! -x "$binary" ] || [ -n "$(find "$@" -newer "$binary" | head -1)" ]
}

# shellcheck disable=SC2086
if { wants preset || wants manifest || wants palette || wants fill; } && stale "$binary" $sources $manifest_sources Fuzz/FuzzParsers.swift
then
    echo "Building $binary..."
    build_target
fi
# shellcheck disable=SC2086
if wants webp && stale "$webp_binary" $webp_sources; then
    echo "Building $webp_binary..."
    build_webp_target
fi

# Fuzzes PARSER for $seconds s and prints one line of its statistics; fails on a finding.
fuzz_one() {
    local parser=$1 target=$binary
    [ "$parser" = webp ] && target=$webp_binary
    mkdir -p "$build/corpus/$parser"
    # -timeout: an input that takes over 10 s is a finding too (a hang).
    local status=0
    FLUIDGRADIENT_FUZZ_PARSER=$parser "$target" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/findings/$parser-" \
        "$build/corpus/$parser" "Fuzz/Corpus/$parser" > "$build/$parser.log" 2>&1 || status=1
    if [ $status -ne 0 ]; then
        echo "FINDING in the $parser parser; see $build/$parser.log and $build/findings/"
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$build/$parser.log" | head -5 || true
    fi
    echo "$parser: $(grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ *DONE" "$build/$parser.log" |
        tr '\n' ' ')corpus $(find "$build/corpus/$parser" -type f | wc -l) files"
    return $status
}

mkdir -p "$build/findings"
for parser in "${parsers[@]}"; do
    [ -d "Fuzz/Corpus/$parser" ] || { echo "no seed corpus Fuzz/Corpus/$parser" >&2; exit 2; }
done
# libFuzzer runs one input at a time, so the parsers run side by side, one per core.
jobs=${FLUIDGRADIENT_FUZZ_JOBS:-$(nproc)}
echo "Fuzzing ${parsers[*]} for $seconds s each, $jobs at a time..."
status=0
running=0
for parser in "${parsers[@]}"; do
    if [ $running -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    fuzz_one "$parser" > "$build/$parser.summary" &
    running=$((running + 1))
done
while [ $running -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
for parser in "${parsers[@]}"; do
    cat "$build/$parser.summary"
done
exit $status
