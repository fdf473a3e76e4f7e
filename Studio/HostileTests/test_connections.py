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

from harness import Server, closed_by_server, read_response

LARGE_FRAME = b"GET /v1/presets/aurora/frames/3840x2160/3.png HTTP/1.1\r\nHost: x\r\n\r\n"


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
            for _ in range(1100):
                try:
                    idle.append(server.connect())
                except OSError:
                    break
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
    def test_over_the_cap_the_idle_longest_makes_room_or_the_newcomer_gets_503(self):
        server = Server("--max-connections", "3")
        try:
            busy = [server.connect() for _ in range(3)]
            for sock in busy:
                sock.sendall(b"GET /v1/presets HTTP/1.1\r\n")
            refused = server.connect()
            status, body = read_response(refused)
            self.assertEqual(status, 503, body)
            self.assertIn(b'"status":503', body)
            busy[0].close()
            time.sleep(0.3)
            idle = server.connect()
            time.sleep(0.8)
            newcomer = server.connect()
            newcomer.sendall(b"GET /v1/presets HTTP/1.1\r\nHost: x\r\n\r\n")
            self.assertEqual(read_response(newcomer)[0], 200)
            self.assertTrue(closed_by_server(idle, 5), "the idle connection made room")
        finally:
            server.stop()


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
        server = Server("--send-timeout", "1", "--idle-timeout", "60", "--deadline", "120")
        try:
            sock = server.connect()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(LARGE_FRAME)
            time.sleep(6)
            sock.settimeout(10)
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(4096)
            length = int([line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")][0])
            received = len(head.partition(b"\r\n\r\n")[2])
            self.assertTrue(closed_by_server(sock, 10), "the unread response's connection was closed")
            self.assertGreater(length, 1 << 20)
            self.assertLess(received, length)
        finally:
            server.stop()


class ShutdownTests(unittest.TestCase):
    """SIGTERM with a body that stalls and a download nobody reads: the server closes them
    after its grace and exits 0 (before, it waited for them for ever)."""

    def test_sigterm_closes_a_stalled_body_and_an_unread_download_and_exits_0(self):
        server = Server("--shutdown-grace", "1", "--idle-timeout", "60", "--body-timeout", "60",
                        "--send-timeout", "60", "--deadline", "120")
        try:
            stalled = server.connect()
            stalled.sendall(b"POST /v1/images HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\n"
                            b"Content-Length: 1000\r\n\r\n\x89")
            unread = server.connect()
            unread.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            unread.sendall(LARGE_FRAME)
            time.sleep(5)
            status, seconds = server.terminate(timeout=30)
            self.assertEqual(status, 0, server.log()[-2000:])
            print(f"\nSIGTERM with a stalled body and an unread download: exit {status} after {seconds:.2f} s")
            self.assertEqual(os.listdir(server.work), ["server.log"])
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
