#!/usr/bin/env bash
# Builds the OCI image localhost/fluidgradient:VERSION (the render command, the studio and
# ffmpeg on Debian bookworm) without pulling anything from a container registry:
#   1. fluidgradient and fluidgradient-studio, built here with --static-swift-stdlib, so the
#      image needs no Swift runtime, and stripped of their debug information (not of their
#      symbols, which a crash's backtrace names);
#   2. a bookworm root filesystem made by mmdebstrap from Debian's packages: the essential
#      set, the libraries the commands link (libpng, libwebp, libavif, libstdc++) and ffmpeg,
#      without documentation, man pages and locales, and without the GPU drivers that
#      ffmpeg's OpenGL and Vulkan libraries could load but that no encode here uses (Mesa's
#      DRI and Vulkan drivers and the LLVM and Z3 they link); merged /usr is set up by
#      mmdebstrap's hook, not by usrmerge and the Perl it needs;
#   3. podman build with Scripts/Containerfile (FROM scratch) over that root filesystem.
# The root filesystem is kept in .build-image-context and made again only when its recipe
# changes or with --fresh-rootfs (to take Debian's latest updates). Prints the time of each
# step, the image's size and what takes it. Needs root (mmdebstrap, rootful podman).
# Usage: Scripts/build-image.sh [--fresh-rootfs]
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let engineVersion = "\(.*\)"/\1/p' Sources/FluidGradient/Preset/Preset.swift)
image=localhost/fluidgradient:$version
context=.build-image-context
fresh=${1:-}

missing=()
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v mmdebstrap >/dev/null 2>&1 || missing+=(mmdebstrap)
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]} with apt-get..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p $context
step() { printf '%-44s %4d s\n' "$1" $(($(date +%s) - $2)); }

libs=/usr/lib/x86_64-linux-gnu
recipe=(
    --variant=essential --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
    --include=ffmpeg,libpng16-16,libwebp7,libwebpdemux2,libavif15,libstdc++6
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*'
    --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*'
    --dpkgopt="path-exclude=$libs/dri/*" --dpkgopt="path-exclude=$libs/libLLVM*"
    --dpkgopt="path-exclude=$libs/libz3.so*" --dpkgopt="path-exclude=$libs/libvulkan_*"
    --dpkgopt='path-exclude=/usr/share/vulkan/icd.d/*'
    --customize-hook='echo "fluidgradient:x:10001:10001:FluidGradient:/renders:/usr/sbin/nologin" >> "$1/etc/passwd"'
    --customize-hook='echo "fluidgradient:x:10001:" >> "$1/etc/group"'
    --customize-hook='mkdir -p "$1/renders" && chown 10001:10001 "$1/renders"'
    --customize-hook='chroot "$1" dpkg-query -W -f="\${Package} \${Version}\n" > "$1/etc/fluidgradient-packages"'
    bookworm
)
start=$(date +%s)
if [ "$fresh" = --fresh-rootfs ] || [ ! -f $context/rootfs.tar ] \
    || [ "$(cat $context/rootfs.recipe 2>/dev/null)" != "${recipe[*]}" ]; then
    rm -f $context/rootfs.tar $context/rootfs.recipe
    mmdebstrap --quiet --format=tar "${recipe[@]}" $context/rootfs.tar.partial > $context/rootfs.log 2>&1 \
        || { tail -30 $context/rootfs.log; exit 1; }
    mv $context/rootfs.tar.partial $context/rootfs.tar
    printf '%s' "${recipe[*]}" > $context/rootfs.recipe
    step "root filesystem (mmdebstrap)" "$start" | tee $context/times.txt
else
    echo "root filesystem: kept from $(date -r $context/rootfs.tar +%F) (--fresh-rootfs makes it again)" \
        | tee $context/times.txt
fi

start=$(date +%s)
swift build -c release --static-swift-stdlib --product fluidgradient --scratch-path .build-image
strip --strip-debug -o $context/fluidgradient .build-image/release/fluidgradient
step "fluidgradient, --static-swift-stdlib" "$start" | tee -a $context/times.txt

start=$(date +%s)
swift build -c release --static-swift-stdlib --package-path Studio --product fluidgradient-studio \
    --scratch-path .build-image-studio
strip --strip-debug -o $context/fluidgradient-studio .build-image-studio/release/fluidgradient-studio
step "fluidgradient-studio, --static-swift-stdlib" "$start" | tee -a $context/times.txt

start=$(date +%s)
podman build --quiet --build-arg VERSION="$version" -f Scripts/Containerfile -t "$image" $context >/dev/null
step "podman build" "$start" | tee -a $context/times.txt

echo
echo "$image: $(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1 / 1e6}')"
Scripts/image-sizes.py $context
