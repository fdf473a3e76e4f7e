#!/usr/bin/env python3
"""What takes the space in the image Scripts/build-image.sh builds.

Reads the build context: the two commands and rootfs.tar, whose files are charged to the
Debian package that installed them (var/lib/dpkg/info/*.list in the tar). Sizes are the bytes
of the files as the image stores them, uncompressed.
Usage: Scripts/image-sizes.py CONTEXT [TOP]
"""

import os
import sys
import tarfile


def package_bytes(rootfs):
    """Bytes of regular files by owning package, and the bytes no package owns."""
    owners, sizes = {}, {}
    with tarfile.open(rootfs) as archive:
        members = archive.getmembers()
        for member in members:
            name = member.name.lstrip("./")
            if name.startswith("var/lib/dpkg/info/") and name.endswith(".list"):
                package = os.path.basename(name)[:-len(".list")].split(":")[0]
                for line in archive.extractfile(member).read().decode().splitlines():
                    path = line.lstrip("/")
                    # Merged /usr: a package's /lib/x.so is the image's usr/lib/x.so.
                    merged = "usr/" + path if path.split("/")[0] in ("bin", "sbin", "lib", "lib64") else path
                    owners[path] = owners[merged] = package
        for member in members:
            if member.isfile():
                owner = owners.get(member.name.lstrip("./"), "(no package: dpkg's database, caches, logs)")
                sizes[owner] = sizes.get(owner, 0) + member.size
    return sizes


def main():
    context = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    names = ("fluidgradient-studio", "fluidgradient")
    commands = {name: os.path.getsize(os.path.join(context, name)) for name in names}
    sizes = package_bytes(os.path.join(context, "rootfs.tar"))
    total = sum(commands.values()) + sum(sizes.values())
    megabytes = lambda count: f"{count / 1e6:7.1f} MB"
    print(f"What takes the space ({megabytes(total).strip()} of files):")
    for name, size in commands.items():
        print(f"  {name:<44} {megabytes(size)}  (static Swift runtime and Foundation inside)")
    print(f"  {'root filesystem, ' + str(len(sizes)) + ' packages':<44} {megabytes(sum(sizes.values()))}, of which:")
    ranked = sorted(sizes.items(), key=lambda item: -item[1])
    for package, size in ranked[:top]:
        print(f"    {package:<42} {megabytes(size)}")
    rest = ranked[top:]
    print(f"    {str(len(rest)) + ' other packages':<42} {megabytes(sum(size for _, size in rest))}")


if __name__ == "__main__":
    main()
