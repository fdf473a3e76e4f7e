#!/usr/bin/env python3
"""Soak the render service with hostile and ordinary clients at once (issue 35, target 5).

    Scripts/soak-studio.py [--seconds 600] [--descriptors 1024] [--out .build-soak]
                           [--studio-options '--cache-megabytes 64'] [BINARY]

Starts the release fluidgradient-studio (default Studio/.build/release/fluidgradient-studio)
with its default limits under `prlimit --nofile=DESCRIPTORS`, and for SECONDS runs, side by
side:

- ordinary clients: frames of the built-in presets and of posted designs, designs, palettes,
  comparisons, and jobs followed to their end and downloaded;
- hostile clients: about 1,100 idle connections kept open, heads sent a byte at a time,
  bodies that stall (JSON and 16 MB uploads), malformed and oversized chunked bodies, designs
  with 130,000-character descriptions, PNG bombs (16 GiB of zeros after the rows), responses
  left unread, downloads abandoned mid-way, jobs over the budget and cancel races.

Every second it records the server's resident memory, its children's (ffmpeg), and its open
descriptors; every response's status is counted by kind of client. At the end it stops the
server with SIGTERM. Prints a summary and writes OUT/soak.json and OUT/samples.csv. The
targets: no crash, no 500, every ordinary request answered (a response, 503 included: the
documented overload answer), and memory flat in the last half (its peak no higher than the
first half's, and its least-squares slope near 0).
"""

import argparse
import csv
import http.client
import json
import os
import random
import shlex
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Soak:
    def __init__(self, binary, seconds, descriptors, out, studio_options=()):
        self.seconds, self.out = seconds, out
        os.makedirs(out, exist_ok=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log_path = os.path.join(out, "server.log")
        self.process = subprocess.Popen(
            ["prlimit", f"--nofile={descriptors}", binary, "--port", str(self.port),
             "--client-address-header", "X-Client", *studio_options],
            stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT)
        self.lock = threading.Lock()
        self.statuses = {}
        self.samples = []
        self.end = None
        self.rng = random.Random(35)
        self.wait_until_up()
        status, _, self.png = self.request("GET", "/v1/presets/aurora/frames/64x36/1.png")
        assert status == 200
        self.bomb = png_bomb()

    def wait_until_up(self):
        for _ in range(600):
            try:
                if self.request("GET", "/v1/presets", timeout=1)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit("the server did not start")

    def running(self):
        return time.monotonic() < self.end and self.process.poll() is None

    def count(self, kind, status):
        with self.lock:
            bucket = self.statuses.setdefault(kind, {})
            bucket[str(status)] = bucket.get(str(status), 0) + 1

    def request(self, method, path, body=None, headers=None, timeout=60, client="hostile"):
        """One request, sent as `client` (the server tells clients apart by X-Client, as it
        would by their addresses behind a proxy)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers={"X-Client": client, **(headers or {})})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def ordinary(self, kind, method, path, body=None, headers=None):
        """One ordinary request, counted by its status (or the error that kept it unanswered)."""
        try:
            status, answer_headers, data = self.request(method, path, body, headers, client="ordinary-" + kind)
        except (OSError, http.client.HTTPException) as error:
            self.count(kind, "unanswered " + type(error).__name__)
            return None, {}, b""
        self.count(kind, status)
        return status, answer_headers, data

    # Ordinary clients.

    def frames(self):
        while self.running():
            size = self.rng.choice(["320x180", "640x360", "1280x720"])
            preset = self.rng.choice(["aurora", "sunset", "ocean"])
            self.ordinary("frame", "GET", f"/v1/presets/{preset}/frames/{size}/{self.rng.randrange(40) / 4}.png")
            time.sleep(0.05)

    def designs(self):
        seed = 0
        while self.running():
            seed += 1
            body = json.dumps({"name": f"soak{seed % 7}", "colors": ["#0f766e", "#6d28d9", "#22d3ee"],
                               "seed": seed % 50, "size": "640x360"}).encode()
            status, _, data = self.ordinary("design", "POST", "/v1/designs", body,
                                            {"Content-Type": "application/json"})
            if status == 200:
                design = json.loads(data)["id"]
                self.ordinary("design", "GET", f"/v1/designs/{design}")
                self.ordinary("design", "GET", f"/v1/designs/{design}/frames/320x180/1.5.webp")
            time.sleep(0.2)

    def images(self):
        while self.running():
            status, _, data = self.ordinary("image", "POST", "/v1/images", self.png, {"Content-Type": "image/png"})
            self.ordinary("image", "POST", "/v1/palette?count=4", self.png, {"Content-Type": "image/png"})
            if status == 200:
                image = json.loads(data)["id"]
                designs = json.loads(self.request("GET", "/v1/presets", client="ordinary-image")[2])["presets"]
                body = json.dumps({"design": designs[0]["design"], "target": {"image": image}, "time": 1}).encode()
                self.ordinary("image", "POST", "/v1/compare", body, {"Content-Type": "application/json"})
            time.sleep(0.5)

    def jobs(self):
        while self.running():
            body = json.dumps({"preset": self.rng.choice(["aurora", "ocean"]), "format": self.rng.choice(
                ["mp4", "gif", "webm"]), "duration": 1, "fps": 15}).encode()
            status, _, data = self.ordinary("job", "POST", "/v1/jobs", body, {"Content-Type": "application/json"})
            if status != 202:
                time.sleep(2)
                continue
            job = json.loads(data)
            while self.running():
                status, _, data = self.ordinary("job", "GET", f"/v1/jobs/{job['id']}")
                if status == 200 and json.loads(data)["state"] in ("done", "failed", "cancelled"):
                    job = json.loads(data)
                    break
                time.sleep(0.5)
            if job.get("state") == "done":
                self.ordinary("job", "GET", f"/v1/jobs/{job['id']}/result")

    # Hostile clients.

    def idle_flood(self):
        """About 1,100 connections that send nothing, reopened as the server closes them."""
        open_sockets = []
        while self.running():
            while len(open_sockets) < 1100 and self.running():
                try:
                    open_sockets.append(socket.create_connection(("127.0.0.1", self.port), timeout=5))
                except OSError:
                    self.count("hostile idle", "connect failed")
                    time.sleep(0.2)
                    break
            for sock in list(open_sockets):
                sock.setblocking(False)
                try:
                    if sock.recv(65536) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                sock.close()
                open_sockets.remove(sock)
                self.count("hostile idle", "closed by the server")
            time.sleep(1)
        for sock in open_sockets:
            sock.close()

    def slow_heads(self):
        """Heads sent a byte a second, 40 at a time."""
        head = b"GET /v1/presets HTTP/1.1\r\nHost: soak\r\nX-Client: hostile\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
        while self.running():
            sockets = []
            for _ in range(40):
                try:
                    sockets.append(socket.create_connection(("127.0.0.1", self.port), timeout=5))
                except OSError:
                    pass
            for index in range(len(head)):
                if not self.running() or not sockets:
                    break
                for sock in list(sockets):
                    try:
                        sock.sendall(head[index:index + 1])
                    except OSError:
                        sockets.remove(sock)
                        sock.close()
                        self.count("hostile slow head", "closed by the server")
                time.sleep(1)
            for sock in sockets:
                sock.close()

    def stalled_bodies(self):
        """JSON bodies of a declared 262,144 bytes and uploads of 16 MB that stop after a few
        bytes, 50 and 10 at a time, replaced as the server answers or closes them."""
        while self.running():
            sockets = []
            for index in range(60):
                route, kind, length = (("/v1/designs", "application/json", 262144) if index < 50
                                       else ("/v1/images", "image/png", 16_000_000))
                try:
                    sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                    sock.sendall(f"POST {route} HTTP/1.1\r\nHost: soak\r\nX-Client: hostile\r\n"
                                 f"Content-Type: {kind}\r\nContent-Length: {length}\r\n\r\n{{\"co".encode())
                    sockets.append(sock)
                except OSError:
                    pass
            deadline = time.monotonic() + 70
            while sockets and self.running() and time.monotonic() < deadline:
                for sock in list(sockets):
                    sock.setblocking(False)
                    try:
                        data = sock.recv(4096)
                        status = data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "closed"
                    except BlockingIOError:
                        continue
                    except OSError:
                        status = "reset"
                    self.count("hostile stalled body", status)
                    sockets.remove(sock)
                    sock.close()
                time.sleep(0.5)
            for sock in sockets:
                sock.close()

    def malformed(self):
        """Malformed and oversized chunked bodies, duplicate keys, Kelvin signs, bad tokens."""
        routes = ["/v1/designs", "/v1/compare", "/v1/jobs", "/v1/images", "/v1/palette"]
        bodies = [b"zz\r\nab\r\n0\r\n\r\n", b"-1\r\nab\r\n0\r\n\r\n", b"99999999999999999999\r\nab\r\n",
                  b"2\r\nabcdef\r\n0\r\n\r\n", b"".join(b"8000\r\n" + b"x" * 0x8000 + b"\r\n" for _ in range(600))]
        while self.running():
            route = self.rng.choice(routes)
            kind = "image/png" if route in ("/v1/images", "/v1/palette") else "application/json"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
                    sock.sendall(f"POST {route} HTTP/1.1\r\nHost: soak\r\nX-Client: hostile\r\n"
                                 f"Content-Type: {kind}\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
                    sock.sendall(self.rng.choice(bodies))
                    data = sock.recv(4096)
                    self.count("hostile malformed", data.split(b" ")[1].decode() if data else "closed")
            except OSError as error:
                self.count("hostile malformed", "reset " + type(error).__name__)
            for body in (b'{"preset": "aurora", "format": "gif", "format": "mp4"}',
                         '{"colors": ["blac\u212a", "#fff"]}'.encode()):
                try:
                    status, _, _ = self.request("POST", self.rng.choice(["/v1/jobs", "/v1/designs"]), body,
                                                {"Content-Type": "application/json"})
                    self.count("hostile malformed", status)
                except OSError as error:
                    self.count("hostile malformed", "error " + type(error).__name__)
            time.sleep(0.2)

    def big_designs(self):
        """Designs with 130,000-character descriptions, all different, as fast as answered."""
        description = "x" * 130_000
        seed = 0
        while self.running():
            seed += 1
            body = json.dumps({"colors": ["#fff", "#000"], "seed": seed, "description": description}).encode()
            try:
                status, _, _ = self.request("POST", "/v1/designs", body, {"Content-Type": "application/json"})
                self.count("hostile big design", status)
            except OSError as error:
                self.count("hostile big design", "error " + type(error).__name__)
            time.sleep(0.05)

    def bombs(self):
        while self.running():
            try:
                status, _, _ = self.request("POST", "/v1/images", self.bomb, {"Content-Type": "image/png"},
                                            client="hostile-bomb")
                self.count("hostile png bomb", status)
            except OSError as error:
                self.count("hostile png bomb", "error " + type(error).__name__)
            time.sleep(5)

    def unread_responses(self):
        """4K frames asked for and never read; and job results abandoned after a few bytes."""
        while self.running():
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                sock.sendall(f"GET /v1/presets/ocean/frames/3840x2160/{self.rng.randrange(20)}.png HTTP/1.1\r\n"
                             "Host: soak\r\nX-Client: hostile\r\n\r\n".encode())
                time.sleep(45)
                sock.setblocking(False)
                try:
                    while sock.recv(1 << 20):
                        pass
                    self.count("hostile unread response", "closed by the server")
                except BlockingIOError:
                    self.count("hostile unread response", "still open")
                except OSError:
                    self.count("hostile unread response", "closed by the server")
                sock.close()
            except OSError as error:
                self.count("hostile unread response", "error " + type(error).__name__)

    def job_abuse(self):
        """Jobs over the budget, bundles, cancel races and downloads dropped mid-way."""
        while self.running():
            for body in ({"preset": "aurora", "format": "bundle", "encodeSize": "full", "duration": 60, "fps": 60},
                         {"preset": "aurora", "format": "gif", "duration": 1, "fps": 10}):
                try:
                    status, _, data = self.request("POST", "/v1/jobs", json.dumps(body).encode(),
                                                   {"Content-Type": "application/json"})
                    self.count("hostile job", status)
                    if status != 202:
                        continue
                    job = json.loads(data)["id"]
                    if self.rng.random() < 0.5:
                        self.count("hostile job", self.request("DELETE", f"/v1/jobs/{job}")[0])
                        continue
                    for _ in range(240):
                        state = json.loads(self.request("GET", f"/v1/jobs/{job}")[2])["state"]
                        if state in ("done", "failed", "cancelled"):
                            break
                        time.sleep(0.5)
                    with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
                        sock.sendall(f"GET /v1/jobs/{job}/result HTTP/1.1\r\nHost: soak\r\n"
                                     "X-Client: hostile\r\n\r\n".encode())
                        sock.recv(100)
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    time.sleep(0.5)
                    self.count("hostile job", "result after abandoning: "
                               + str(self.request("GET", f"/v1/jobs/{job}/result")[0]))
                except OSError as error:
                    self.count("hostile job", "error " + type(error).__name__)
            time.sleep(2)

    # Measuring.

    def sample(self):
        start = time.monotonic()
        while self.running():
            pid = self.process.pid
            try:
                own = resident(pid)
                children = sum(resident(child) for child in descendants(pid))
                descriptors = len(os.listdir(f"/proc/{pid}/fd"))
            except OSError:
                break
            self.samples.append((round(time.monotonic() - start, 1), own, children, descriptors))
            time.sleep(1)

    def run(self):
        self.end = time.monotonic() + self.seconds
        clients = [self.frames, self.frames, self.designs, self.images, self.jobs, self.idle_flood, self.slow_heads,
                   self.stalled_bodies, self.malformed, self.big_designs, self.bombs, self.unread_responses,
                   self.unread_responses, self.job_abuse, self.sample]
        threads = [threading.Thread(target=client, daemon=True) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(0.0, self.end - time.monotonic()) + 120)
        crashed = self.process.poll()
        stop_started = time.monotonic()
        if crashed is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                exit_status = self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                exit_status = "killed after 60 s"
        else:
            exit_status = crashed
        return self.report(crashed, exit_status, time.monotonic() - stop_started)

    def report(self, crashed, exit_status, stop_seconds):
        with open(os.path.join(self.out, "samples.csv"), "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["seconds", "server_rss", "children_rss", "descriptors"])
            writer.writerows(self.samples)
        half = len(self.samples) // 2
        first, last = self.samples[:half], self.samples[half:]
        mib = lambda value: round(value / 2**20, 1)
        slope = least_squares_slope([(t, rss) for t, rss, _, _ in last]) * 60
        ordinary = {kind: counts for kind, counts in self.statuses.items() if not kind.startswith("hostile")}
        unanswered = sum(n for counts in ordinary.values() for status, n in counts.items()
                         if status.startswith("unanswered"))
        errors = sum(n for counts in self.statuses.values() for status, n in counts.items() if status == "500")
        with open(self.log_path) as log:
            unexpected = log.read().count("unexpected error")
        summary = {
            "seconds": self.seconds, "crashed": crashed is not None, "exit status": exit_status,
            "stop seconds": round(stop_seconds, 2), "responses of 500": errors, "unexpected errors logged": unexpected,
            "ordinary requests": sum(sum(c.values()) for c in ordinary.values()), "ordinary unanswered": unanswered,
            "server MiB: first-half peak": mib(max(s[1] for s in first)),
            "server MiB: last-half peak": mib(max(s[1] for s in last)),
            "server MiB: last-half min": mib(min(s[1] for s in last)),
            "server MiB/min: last-half slope": round(slope / 2**20, 2),
            "whole tree MiB: peak": mib(max(s[1] + s[2] for s in self.samples)),
            "descriptors: peak": max(s[3] for s in self.samples),
            "statuses": self.statuses,
        }
        with open(os.path.join(self.out, "soak.json"), "w") as handle:
            json.dump(summary, handle, indent=2)
        return summary


def resident(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def descendants(pid):
    found = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            children = [int(p) for p in listing.read().split()]
    except OSError:
        return found
    for child in children:
        found.append(child)
        found.extend(descendants(child))
    return found


def least_squares_slope(points):
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread if spread else 0


def png_bomb(width=64, height=36, zero_megabytes=16 * 1024):
    """A valid PNG of black rows followed by `zero_megabytes` MiB of compressed zeros."""
    compressor = zlib.compressobj(9)
    zeros = bytes(64 << 20)
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    unit = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    units = zero_megabytes // 64
    adler = (((64 << 20) * (units + 1) % 65521) << 16) | 1
    stream = first + unit * units + b"\x03\x00" + struct.pack(">I", adler)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default=os.path.join(ROOT, "Studio/.build/release/fluidgradient-studio"))
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--descriptors", type=int, default=1024)
    parser.add_argument("--out", default=os.path.join(ROOT, ".build-soak"))
    parser.add_argument("--studio-options", default="",
                        help="more options for the server, such as '--cache-megabytes 64'")
    options = parser.parse_args()
    summary = Soak(options.binary, options.seconds, options.descriptors, options.out,
                   shlex.split(options.studio_options)).run()
    statuses = summary.pop("statuses")
    for key, value in summary.items():
        print(f"{key}: {value}")
    for kind, counts in sorted(statuses.items()):
        print(f"  {kind}: " + ", ".join(f"{status} x{n}" for status, n in sorted(counts.items())))
    met = (not summary["crashed"] and summary["exit status"] == 0 and summary["responses of 500"] == 0
           and summary["ordinary unanswered"] == 0
           and summary["server MiB: last-half peak"] <= summary["server MiB: first-half peak"] * 1.05)
    print("targets met" if met else "targets NOT met")
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
