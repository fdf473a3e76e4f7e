"""Connections are bounded: a cap held under the descriptor limit, timeouts for idle
connections, heads, bodies and unread responses, and a shutdown that closes what is left
after its grace (issue 35, findings 1 and 4)."""

import http.client
import os
import random
import socket
import threading
import time
import unittest

from harness import LARGE_FRAME, Server, closed_by_server, read_response


class DescriptorTests(unittest.TestCase):
    """Under `prlimit --nofile=1024`, 1,100 idle connections and then ordinary requests: the
    server refuses or makes room, answers every request, and never runs out of descriptors.
    Before, the requests waited unanswered, and with idle connections replaced as they went
    and frames asked for at once, libdispatch found no descriptor and the server died of
    SIGILL."""

    def test_running_out_of_descriptors_refuses_a_connection_and_never_crashes(self):
        server = Server(descriptors=1024)
        idle = []
        try:
            idle = server.idle_connections(1100)
            time.sleep(1.5)
            statuses = []
            for _ in range(20):
                status, _, _ = server.request("GET", "/v1/presets", timeout=10)
                statuses.append(status)
            statuses += churn(server, idle, seconds=10)
            self.assertTrue(server.alive(), server.log()[-2000:])
            self.assertTrue(set(statuses) <= {200, 503, "reset"}, statuses)
            self.assertIn(200, statuses)
            self.assertLessEqual(server.descriptors(), 1024 - 96)
        finally:
            for sock in idle:
                sock.close()
            log = server.log()
            server.stop()
        self.assertNotIn("unexpected error", log)


def churn(server, idle, seconds):
    """Replaces idle connections two at a time while 8 clients ask for frames; returns the
    frames' statuses ("reset" for a connection closed unanswered, past the refusal slots)."""
    end = time.monotonic() + seconds
    statuses, lock = [], threading.Lock()

    def replace():
        while time.monotonic() < end:
            with lock:
                if idle:
                    idle.pop(random.randrange(len(idle))).close()
            try:
                sock = server.connect()
                with lock:
                    idle.append(sock)
            except OSError:
                pass
            time.sleep(0.01)

    def ask(index):
        while time.monotonic() < end:
            try:
                status, _, _ = server.request("GET", f"/v1/presets/aurora/frames/64x36/{random.random() * 9:.3f}.png",
                                              timeout=10)
            except (ConnectionError, http.client.RemoteDisconnected):
                status = "reset"
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=replace) for _ in range(2)]
    threads += [threading.Thread(target=ask, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


class CapTests(unittest.TestCase):
    """Connections are admitted on the server's event loops in whatever order those run, so
    the test learns that a connection is in by a response on it, never by a pause: before,
    a connection made later was sometimes admitted first and the test waited in vain."""

    def test_over_the_cap_the_idle_longest_makes_room_or_the_newcomer_gets_503(self):
        server = Server("--max-connections", "3")
        try:
            busy = [admitted(server) for _ in range(3)]
            for sock in busy:
                sock.sendall(b"GET /v1/presets HTTP/1.1\r\n")
            refused = server.connect()
            status, body = read_response(refused)
            self.assertEqual(status, 503, body)
            self.assertIn(b'"status":503', body)
            busy[0].close()
            idle = admitted(server)
            time.sleep(0.8)
            newcomer = server.connect()
            newcomer.sendall(PRESETS)
            self.assertEqual(read_response(newcomer)[0], 200)
            self.assertTrue(closed_by_server(idle, 5), "the idle connection made room")
        finally:
            server.stop()


PRESETS = b"GET /v1/presets HTTP/1.1\r\nHost: x\r\n\r\n"


def admitted(server, seconds=10):
    """A connection the server has admitted and answered once, so idle from now on; one
    refused while the cap is still full (a closed one not yet counted out) is tried again."""
    deadline = time.monotonic() + seconds
    while True:
        sock = server.connect()
        sock.sendall(PRESETS)
        status, body = read_response(sock)
        if status == 200:
            return sock
        sock.close()
        if status != 503 or time.monotonic() > deadline:
            raise AssertionError(f"a connection was not admitted: {status} {body[:200]!r}")
        time.sleep(0.05)


class TimeoutTests(unittest.TestCase):
    def test_idle_head_and_body_timeouts_close_the_connection(self):
        server = Server("--idle-timeout", "1", "--header-timeout", "1", "--body-timeout", "1")
        try:
            silent = server.connect()
            partial_head = server.connect()
            partial_head.sendall(b"GET /v1/presets HTTP/1.1\r\nHost: x\r\n")
            partial_body = server.connect()
            partial_body.sendall(
                b"POST /v1/designs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{\"colors\"")
            kept_alive = server.connect()
            kept_alive.sendall(b"GET /v1/presets HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertEqual(read_response(kept_alive)[0], 200)
            for sock in (partial_head, partial_body):
                status, body = read_response(sock, timeout=5)
                self.assertEqual(status, 408, body)
                self.assertIn(b"request-timeout", body)
            for sock in (silent, partial_head, partial_body, kept_alive):
                self.assertTrue(closed_by_server(sock, 5))
        finally:
            server.stop()

    def test_a_response_the_client_does_not_read_is_cut_off(self):
        """Only the send timeout can end this connection within the test: its idle timeout
        is a minute away, and the body is larger than every buffer on the way. The server
        resets it: closed gracefully, the kernel kept trickling its 4 MB out through the
        client's small window for over 100 s."""
        server = Server("--send-timeout", "1", "--idle-timeout", "60", "--deadline", "120")
        try:
            sock = server.connect()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(LARGE_FRAME)
            sock.settimeout(120)
            sock.recv(1, socket.MSG_PEEK)
            time.sleep(3)
            data, closed = drain(sock, seconds=10)
            head, _, body = data.partition(b"\r\n\r\n")
            length = int([line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")][0])
            self.assertTrue(closed, "the unread response's connection was closed")
            self.assertGreater(length, 1 << 20)
            self.assertLess(len(body), length)
        finally:
            server.stop()


def drain(sock, seconds):
    """What arrives on `sock` until the server closes it, and whether it did so within
    `seconds` in all."""
    deadline = time.monotonic() + seconds
    data = b""
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                return data, True
            data += chunk
    except ConnectionResetError:
        return data, True
    except socket.timeout:
        pass
    return data, False


class ShutdownTests(unittest.TestCase):
    """SIGTERM with a body that stalls and a download nobody reads: the server closes them
    after its grace and exits 0 (before, it waited for them for ever)."""

    def test_sigterm_closes_a_stalled_body_and_an_unread_download_and_exits_0(self):
        server = Server("--shutdown-grace", "1", "--idle-timeout", "60", "--body-timeout", "60",
                        "--send-timeout", "60", "--deadline", "120")
        try:
            server.stalled_body_and_unread_download()
            time.sleep(5)
            status, seconds = server.terminate(timeout=30)
            self.assertEqual(status, 0, server.log()[-2000:])
            print(f"\nSIGTERM with a stalled body and an unread download: exit {status} after {seconds:.2f} s")
            self.assertEqual(os.listdir(server.work), ["server.log"])
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
