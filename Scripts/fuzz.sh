#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that read outside text, and of the WebP shim that
# hands outside bytes to libwebp, with libFuzzer (it ships with the Swift toolchain) and
# AddressSanitizer.
#
#   Scripts/fuzz.sh [SECONDS] [PARSER...]
#
# Runs each PARSER (preset, manifest, palette, fill, webp; default all five) for SECONDS
# (default 30). It builds Fuzz/FuzzParsers.swift and the FluidGradient module's sources
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
manifest_sources=$(printf 'Sources/FluidGradientIO/Batch/%s.swift\n' \
    BatchManifest BatchManifestError ManifestReader BatchJob Shard ShardEnvironmentError)
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

mkdir -p "$build/findings"
status=0
for parser in "${parsers[@]}"; do
    [ -d "Fuzz/Corpus/$parser" ] || { echo "no seed corpus Fuzz/Corpus/$parser" >&2; exit 2; }
    mkdir -p "$build/corpus/$parser"
    echo "Fuzzing the $parser parser for $seconds s..."
    # -timeout: an input that takes over 10 s is a finding too (a hang).
    target=$binary
    [ "$parser" = webp ] && target=$webp_binary
    if ! FLUIDGRADIENT_FUZZ_PARSER=$parser "$target" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/findings/$parser-" \
        "$build/corpus/$parser" "Fuzz/Corpus/$parser" > "$build/$parser.log" 2>&1; then
        status=1
        echo "FINDING in the $parser parser; see $build/$parser.log and $build/findings/" >&2
        grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$build/$parser.log" | head -5 >&2 || true
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ *DONE" "$build/$parser.log" | tr '\n' ' ' || true
    echo "corpus $(find "$build/corpus/$parser" -type f | wc -l) files"
done
exit $status
