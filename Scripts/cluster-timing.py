#!/usr/bin/env python3
"""How long the Slurm tests take (BENCHMARKS.md, issue 39): medians over RUNS runs.

Times, in each run: starting and stopping the one-node cluster alone, and each Slurm test module
as `./run test` runs it (each module starts its own cluster). The tests' packages are installed
first, outside the timing, as a fresh machine's first run would do once.
Usage: RUNS=3 Scripts/cluster-timing.py   (after a release build of fluidgradient)
"""

import os
import statistics
import subprocess
import sys
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(REPOSITORY, "ClusterTests")
sys.path.insert(0, TESTS)

from slurm_cluster import SlurmCluster, install_packages  # noqa: E402


def cluster_start():
    """Seconds to start the cluster and run its trivial job; the cluster is stopped after."""
    cluster = SlurmCluster(os.path.join(REPOSITORY, ".build", "release"))
    start = time.monotonic()
    try:
        cluster.start()
        return time.monotonic() - start
    finally:
        cluster.stop()
        cluster.remove()


def module(name):
    """Seconds `python3 -m unittest` takes for one test module, which must pass."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "unittest", name], cwd=TESTS, check=True, capture_output=True,
                   env=dict(os.environ, FLUIDGRADIENT_REQUIRE_CLUSTER="1"))
    return time.monotonic() - start


def main():
    runs = int(os.environ.get("RUNS", "3"))
    install_packages()
    rows = {"cluster start (munged, slurmctld, slurmd, one trivial job)": cluster_start,
            "test_slurm_batch (3 tests)": lambda: module("test_slurm_batch"),
            "test_slurm_long_render (3 tests)": lambda: module("test_slurm_long_render")}
    times = {label: [] for label in rows}
    for run in range(runs):
        for label, measure in rows.items():
            times[label].append(measure())
        print(f"run {run + 1}: " + ", ".join(f"{values[-1]:.1f} s" for values in times.values()), flush=True)
    for label, values in times.items():
        print(f"{label:<62} median {statistics.median(values):6.1f} s  (runs: "
              + ", ".join(f"{value:.1f}" for value in values) + ")")
    total = sum(statistics.median(times[label]) for label in rows if label.startswith("test_"))
    print(f"{'the Slurm tests in ./run test':<62} median {total:6.1f} s")


if __name__ == "__main__":
    main()
