"""What the cluster and container tests share: the repository's paths, the built commands, and files."""

import json
import os
import re
import socket
import subprocess
import unittest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(REPOSITORY, "Examples", "scaling")
FLUIDGRADIENT = os.environ.get("FLUIDGRADIENT_BIN", os.path.join(REPOSITORY, ".build", "release", "fluidgradient"))

# A temporary file of the batch's, `.NAME.tmp-PID-N.EXT`, or of the join's.
TEMPORARY = re.compile(r"^\..+\.(tmp|join)-\d+")


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def skip_or_fail(reason):
    """Skips the tests with `reason`, or fails them when FLUIDGRADIENT_REQUIRE_CLUSTER=1 asks for them to run."""
    print(f"\nSKIPPED: {reason}", flush=True)
    if os.environ.get("FLUIDGRADIENT_REQUIRE_CLUSTER") == "1":
        raise AssertionError(f"FLUIDGRADIENT_REQUIRE_CLUSTER=1, but {reason}")
    raise unittest.SkipTest(reason)


def fluidgradient(arguments, cwd=None, timeout=300):
    """Runs the built command; returns its standard output, failing on a non-zero status."""
    result = subprocess.run([FLUIDGRADIENT] + arguments, cwd=cwd, capture_output=True, timeout=timeout)
    if result.returncode != 0:
        raise AssertionError(f"fluidgradient {' '.join(arguments)} exited {result.returncode}: "
                             f"{result.stderr.decode(errors='replace')}")
    return result.stdout


def write_manifest(directory, palettes, sizes, formats, duration):
    """A batch manifest in `directory` whose outputs go to `directory`/out; returns its path."""
    manifest = {
        "output": "out/{name}-{width}x{height}.{ext}",
        "defaults": {"fps": 30, "duration": duration, "loop": True, "seed": 7},
        "palettes": [{"preset": name} for name in palettes],
        "sizes": sizes,
        "formats": formats,
    }
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "manifest.json")
    with open(path, "w") as handle:
        json.dump(manifest, handle, indent=2)
    return path


def shard_outputs(manifest, shard, cwd):
    """The outputs of shard `shard` ("K/N") of `manifest` in the batch's order, from `batch --dry-run --json`."""
    report = json.loads(fluidgradient(["batch", manifest, "--dry-run", "--json", "--shard", shard], cwd=cwd))
    return [job["output"] for job in report["jobs"]]


def files(directory):
    """Every file under `directory`, by path relative to it, with its bytes."""
    found = {}
    for parent, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(parent, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, directory)] = handle.read()
    return found


def temporaries(directory):
    """The temporary files left under `directory`."""
    return sorted(name for name in files(directory) if TEMPORARY.match(os.path.basename(name)))


def reference_outputs(manifest_directory, manifest):
    """The outputs of an unsharded local batch of `manifest`, rendered in `manifest_directory`."""
    fluidgradient(["batch", manifest, "--quiet"], cwd=manifest_directory)
    return files(os.path.join(manifest_directory, "out"))
