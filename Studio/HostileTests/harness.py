"""What the hostile-client tests stand on: the real fluidgradient-studio process on a free
loopback port (under `prlimit` when a test sets its descriptor limit), raw sockets, and the
server's descriptors and log. Standard library only.

The binary is $FLUIDGRADIENT_STUDIO_BIN, else Studio/.build/release/fluidgradient-studio.
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("FLUIDGRADIENT_STUDIO_BIN",
                        os.path.join(ROOT, "Studio/.build/release/fluidgradient-studio"))

LARGE_FRAME = b"GET /v1/presets/aurora/frames/3840x2160/3.png HTTP/1.1\r\nHost: x\r\n\r\n"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """fluidgradient-studio with `arguments`, until `stop()`; its log is kept in a file and its
    temporary files in a directory of its own."""

    def __init__(self, *arguments, descriptors=None):
        self.port = free_port()
        self.sockets = []
        self.work = tempfile.mkdtemp(prefix="hostile-")
        self.log_path = os.path.join(self.work, "server.log")
        command = [BINARY, "--port", str(self.port), *arguments]
        if descriptors:
            command = ["prlimit", f"--nofile={descriptors}", *command]
        environment = dict(os.environ, TMPDIR=self.work)
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=environment)
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, _ = self.request("GET", "/v1/presets", timeout=2)
                if status in (200, 401):
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {self.log()[-2000:]}")
            time.sleep(0.05)

    def request(self, method, path, body=None, headers=None, timeout=30):
        """(status, headers, body) of one request on a connection of its own."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, method, path, document, headers=None, timeout=30):
        status, answer_headers, body = self.request(
            method, path, json.dumps(document).encode(), {"Content-Type": "application/json", **(headers or {})},
            timeout)
        return status, answer_headers, json.loads(body) if body else None

    def connect(self):
        """A raw connection, closed by `stop()` if the test leaves it open."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.sockets.append(sock)
        return sock

    def idle_connections(self, count):
        """Up to `count` raw connections that send nothing, as many as the client can open."""
        idle = []
        for _ in range(count):
            try:
                idle.append(self.connect())
            except OSError:
                break
        return idle

    def stalled_body_and_unread_download(self):
        """What a shutdown must close: an upload that stops after its body's first byte, and a
        4K frame asked for on a 4 KiB receive buffer and never read."""
        stalled = self.connect()
        stalled.sendall(b"POST /v1/images HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n"
                        b"Content-Length: 1000\r\n\r\n\x89")
        unread = self.connect()
        unread.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        unread.sendall(LARGE_FRAME)
        return stalled, unread

    def descriptors(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def resident_bytes(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def log(self):
        with open(self.log_path) as log:
            return log.read()

    def alive(self):
        return self.process.poll() is None

    def terminate(self, timeout=30):
        """Sends SIGTERM; returns (exit status, seconds until it exited)."""
        start = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(timeout)
        return status, time.monotonic() - start

    def stop(self):
        for sock in self.sockets:
            sock.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        subprocess.run(["rm", "-rf", self.work], check=False)


def read_response(sock, timeout=10):
    """The status and body of one HTTP/1.1 response read from `sock` (by Content-Length),
    or (None, b"") when the connection closes first."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, body


def closed_by_server(sock, timeout=10):
    """Whether the server closes `sock` within `timeout` (reading and dropping what it sends)."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
