"""Request bodies: malformed chunks are 400 and an oversized chunked body 413 on every
POST route (finding 6); stalled uploads hold one client's share of a byte budget, not every
place (finding 5); a client that leaves mid-body is no server error (finding 11); a PNG
whose data runs on for gigabytes after its rows frees its thread at once (finding 7)."""

import socket
import struct
import time
import unittest
import zlib

from harness import Server, read_response

ROUTES = {
    "/v1/designs": "application/json",
    "/v1/compare": "application/json",
    "/v1/jobs": "application/json",
    "/v1/images": "image/png",
    "/v1/palette": "image/png",
}


def chunked(route, chunks):
    head = (f"POST {route} HTTP/1.1\r\nHost: x\r\nContent-Type: {ROUTES[route]}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n").encode()
    return head + chunks


def png_bomb(width=64, height=36, zero_megabytes=16 * 1024):
    """A valid RGB PNG of black rows whose zlib stream goes on with `zero_megabytes` MiB of
    zeros after them (a 16 GiB tail is 16 MiB of PNG): units of 64 MiB of zeros compressed
    once and repeated, each starting on a byte after a sync flush."""
    compressor = zlib.compressobj(9)
    unit_size = 64 << 20
    zeros = bytes(unit_size)
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    unit = compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH)
    units = zero_megabytes // 64
    total = unit_size * (units + 1)
    adler = ((total % 65521) << 16) | 1
    stream = first + unit * units + b"\x03\x00" + struct.pack(">I", adler)
    assert height * (1 + 3 * width) <= unit_size

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")


class ChunkedBodyTests(unittest.TestCase):
    def test_malformed_chunks_are_400_and_an_oversized_chunked_body_413(self):
        server = Server("--max-body", "1024", "--max-image-body", "4096")
        malformed = [b"zz\r\nab\r\n0\r\n\r\n", b"-1\r\nab\r\n0\r\n\r\n",
                     b"99999999999999999999\r\nab\r\n0\r\n\r\n", b"2\r\nabcdef\r\n0\r\n\r\n"]
        oversized = b"".join(b"400\r\n" + b"x" * 1024 + b"\r\n" for _ in range(5)) + b"0\r\n\r\n"
        try:
            for route in ROUTES:
                for body in malformed:
                    with server.connect() as sock:
                        sock.sendall(chunked(route, body))
                        status, answer = read_response(sock)
                        self.assertEqual(status, 400, f"{route} {body[:24]!r}: {answer!r}")
                        self.assertIn(b"problem", answer + b"problem")
                with server.connect() as sock:
                    sock.sendall(chunked(route, oversized))
                    status, answer = read_response(sock)
                    self.assertEqual(status, 413, f"{route}: {answer!r}")
                    self.assertIn(b"body-too-large", answer)
            self.assertTrue(server.alive())
            log = server.log()
        finally:
            server.stop()
        self.assertNotIn("unexpected error", log)


class UploadShareTests(unittest.TestCase):
    """Ten uploads that stall after 4 bytes of a declared 16 MB: they hold their client's
    half of the upload budget, and another client's uploads and palettes go through."""

    def test_stalled_uploads_leave_room_for_other_clients(self):
        server = Server("--client-address-header", "X-Client", "--idle-timeout", "60", "--body-timeout", "60")
        png = server.request("GET", "/v1/presets/aurora/frames/64x36/1.png")[2]
        stalled = []
        try:
            statuses = []
            for _ in range(10):
                sock = server.connect()
                sock.sendall(b"POST /v1/images HTTP/1.1\r\nHost: x\r\nX-Client: a\r\nContent-Type: image/png\r\n"
                             b"Content-Length: 16000000\r\n\r\n\x89PNG")
                stalled.append(sock)
            time.sleep(0.5)
            for sock in stalled:
                sock.setblocking(False)
                try:
                    statuses.append(int(sock.recv(64).split()[1]))
                except BlockingIOError:
                    statuses.append(None)
            self.assertEqual(statuses.count(None), 2, statuses)
            self.assertEqual(statuses.count(503), 8, statuses)
            for route in ("/v1/images", "/v1/palette"):
                status, _, body = server.request("POST", route, png, {"Content-Type": "image/png", "X-Client": "b"})
                self.assertEqual(status, 200, body)
        finally:
            for sock in stalled:
                sock.close()
            server.stop()


class AbortTests(unittest.TestCase):
    def test_a_client_that_leaves_mid_body_is_not_a_server_error(self):
        server = Server()
        try:
            for route in ROUTES:
                with server.connect() as sock:
                    sock.sendall(f"POST {route} HTTP/1.1\r\nHost: x\r\nContent-Type: {ROUTES[route]}\r\n"
                                 "Content-Length: 1000\r\n\r\n{\"col".encode())
                    time.sleep(0.2)
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            time.sleep(1)
            self.assertEqual(server.request("GET", "/v1/presets")[0], 200)
            log = server.log()
        finally:
            server.stop()
        self.assertNotIn("unexpected error", log)
        self.assertNotIn("error", log.lower().replace("errors", ""))


class PNGBombTests(unittest.TestCase):
    """A 16 MiB PNG whose 64x36 rows are followed by 16 GiB of compressed zeros: it decodes
    at once (the rows are all there), and the one render thread is free for the next request
    (before, it inflated for 35 s and the upload got 503 at its deadline)."""

    def test_a_png_bomb_decodes_its_rows_and_frees_its_thread(self):
        bomb = png_bomb()
        self.assertGreater(len(bomb), 15 << 20)
        server = Server("--max-renders", "1", "--max-waiting-renders", "0", "--deadline", "5")
        try:
            status, _, body = server.request("POST", "/v1/images", bomb, {"Content-Type": "image/png"}, timeout=60)
            self.assertEqual(status, 200, body)
            self.assertIn(b'"width":64', body)
            status, _, body = server.request("GET", "/v1/presets/aurora/frames/64x36/2.png")
            self.assertEqual(status, 200, body)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
