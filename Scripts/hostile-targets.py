#!/usr/bin/env python3
"""Targets 1 to 4 and 6 of issue 35, measured against the release render service.

    Scripts/hostile-targets.py [--targets 1,2,3,3b,4,6] [BINARY]

1. Under `prlimit --nofile=1024`, 1,100 idle connections, then 60 ordinary requests one at a
   time (the preset list, and a frame from the cache): each answered or refused with 503,
   and how long each took; the server alive; its descriptors.
2. 4,200 designs with 130,000-character descriptions, 4 clients at once: the server's
   resident memory before, at its peak and after, against the design budget.
3. The largest bundle job (a 3840x2160 design, 60 s at 60 fps, encodeSize full, then auto):
   refused up front. 3b: a 3840x2160 bundle within the budgets (1 s at 30 fps, full), run to
   its end, with the peak memory of the whole process tree (the server and its ffmpeg
   children) against the job memory budget.
4. SIGTERM with a body that stalls after its first byte and a 4K frame nobody reads: the
   exit status and the seconds to exit, against the grace period (--shutdown-grace 5).
6. A 16 MiB PNG whose 64x36 rows are followed by 16 GiB of compressed zeros, with one render
   thread and no waiting line: the upload's answer and time, and how long the next frame
   request then takes.
"""

import argparse
import json
import os
import signal
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Studio/HostileTests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
from harness import Server  # noqa: E402

soak = __import__("soak-studio")


def timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def target_1():
    server = Server(descriptors=1024)
    idle = []
    try:
        cached = "/v1/presets/aurora/frames/320x180/1.png"
        server.request("GET", cached)
        idle = server.idle_connections(1100)
        time.sleep(2)
        results = []
        for index in range(60):
            path = cached if index % 2 else "/v1/presets"
            try:
                (status, _, _), seconds = timed(lambda: server.request("GET", path, timeout=10))
            except OSError as error:
                status, seconds = type(error).__name__, 10
            results.append((status, seconds))
        times = [seconds for _, seconds in results]
        statuses = {}
        for status, _ in results:
            statuses[status] = statuses.get(status, 0) + 1
        print(f"target 1: {len(idle)} idle connections opened; 60 ordinary requests: {statuses}; "
              f"seconds each: median {statistics.median(times):.3f}, max {max(times):.3f}; "
              f"server alive: {server.alive()}, descriptors {server.descriptors()} of 1024")
    finally:
        for sock in idle:
            sock.close()
        server.stop()


def target_2():
    server = Server()
    try:
        before = server.resident_bytes()
        peak = [before]
        description = "x" * 130_000
        statuses = {}
        lock = threading.Lock()

        def client(offset):
            for seed in range(offset, 4200, 4):
                body = json.dumps({"colors": ["#fff", "#000"], "seed": seed, "description": description})
                status, _, _ = server.request("POST", "/v1/designs", body.encode(),
                                              {"Content-Type": "application/json"})
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1

        def sampler():
            while any(thread.is_alive() for thread in clients):
                peak[0] = max(peak[0], server.resident_bytes())
                time.sleep(0.2)

        clients = [threading.Thread(target=client, args=(offset,)) for offset in range(4)]
        start = time.monotonic()
        for thread in clients:
            thread.start()
        watcher = threading.Thread(target=sampler)
        watcher.start()
        for thread in clients:
            thread.join()
        watcher.join()
        seconds = time.monotonic() - start
        time.sleep(2)
        after = server.resident_bytes()
        mib = lambda value: f"{value / 2**20:.1f} MiB"
        print(f"target 2: 4,200 designs of 130,000 characters in {seconds:.0f} s: {statuses}; resident "
              f"{mib(before)} before, peak {mib(peak[0])}, {mib(after)} after; design budget 64 MiB, "
              f"so the bound is {mib(before + (164 << 20))} (start + budget + 100 MiB)")
    finally:
        server.stop()


def design_4k(server):
    """The id of aurora's colours posted as a 3840x2160 design."""
    status, _, body = server.json("POST", "/v1/designs", {
        "colors": ["#0F766E", "#14B8A6", "#6D28D9", "#1D4ED8", "#22D3EE"], "size": "3840x2160", "seed": 7})
    assert status == 200, body
    return body["id"]


def target_3():
    server = Server()
    try:
        design = design_4k(server)
        for size, extra in (("full", {}), ("auto", {"encodeSize": "auto"})):
            largest = {"design": design, "format": "bundle", "encodeSize": "full", "duration": 60, "fps": 60,
                       **extra}
            (status, _, body), seconds = timed(lambda: server.json("POST", "/v1/jobs", largest))
            print(f"target 3: the largest bundle job (3840x2160, 60 s at 60 fps, {size}): {status} in "
                  f"{seconds * 1000:.0f} ms: {body.get('detail')}")
    finally:
        server.stop()


def target_3b():
    server = Server()
    try:
        job = {"design": design_4k(server), "format": "bundle", "encodeSize": "full", "duration": 1, "fps": 30}
        status, _, body = server.json("POST", "/v1/jobs", job)
        assert status == 202, body
        peak = 0
        start = time.monotonic()
        while True:
            tree = server.resident_bytes() + sum(soak.resident(child) for child in soak.descendants(
                server.process.pid))
            peak = max(peak, tree)
            state = json.loads(server.request("GET", f"/v1/jobs/{body['id']}")[2])
            if state["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.1)
        print(f"target 3: a 3840x2160 bundle, 30 frames, full size: {state['state']} after "
              f"{time.monotonic() - start:.0f} s; peak of the process tree {peak / 2**20:.0f} MiB "
              f"(the job memory budget is 4096 MiB)")
    finally:
        server.stop()


def target_4():
    server = Server("--deadline", "60")
    try:
        server.stalled_body_and_unread_download()
        time.sleep(5)
        status, seconds = server.terminate(timeout=60)
        print(f"target 4: SIGTERM with a stalled body and an unread 4K frame: exit {status} after "
              f"{seconds:.2f} s (grace 5 s, so the bound is 6 s); left in its TMPDIR: "
              f"{[name for name in os.listdir(server.work) if name != 'server.log']}")
    finally:
        server.stop()


def target_6():
    bomb = soak.png_bomb()
    server = Server("--max-renders", "1", "--max-waiting-renders", "0")
    try:
        (status, _, body), seconds = timed(
            lambda: server.request("POST", "/v1/images", bomb, {"Content-Type": "image/png"}, timeout=120))
        (frame, _, _), after = timed(lambda: server.request("GET", "/v1/presets/aurora/frames/64x36/2.png"))
        print(f"target 6: a {len(bomb) / 2**20:.1f} MiB PNG bomb (64x36, 16 GiB of zeros after its rows): "
              f"{status} in {seconds:.2f} s ({body[:60]!r}); the next frame, with one render thread: {frame} "
              f"in {after:.3f} s")
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=harness.BINARY)
    parser.add_argument("--targets", default="1,2,3,3b,4,6")
    options = parser.parse_args()
    harness.BINARY = options.binary
    for number in options.targets.split(","):
        globals()[f"target_{number}"]()


if __name__ == "__main__":
    main()
