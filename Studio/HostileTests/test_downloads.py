"""A job's download is lost only when it reached the client: one that asks for the file,
reads nothing and leaves (even with the whole file in the sockets' buffers) can download
it again (issue 35, finding 10: before, a file that the sockets' buffers could hold was
gone, 410, once written)."""

import json
import socket
import struct
import time
import unittest

from harness import Server, read_response


class DownloadTests(unittest.TestCase):
    def test_a_download_the_client_left_is_not_lost(self):
        server = Server()
        try:
            # About 0.5 MB: it all fits in the sockets' buffers, so writing it completes.
            _, _, design = server.json("POST", "/v1/designs", {"colors": ["#0f766e", "#6d28d9", "#22d3ee", "#f43f5e"],
                                                                "size": "640x360", "seed": 3})
            status, _, job = server.json("POST", "/v1/jobs", {"design": design["id"], "format": "gif",
                                                               "duration": 0.5, "fps": 10, "encodeSize": "full"})
            self.assertEqual(status, 202, job)
            for _ in range(1200):
                _, _, body = server.request("GET", f"/v1/jobs/{job['id']}")
                job = json.loads(body)
                if job["state"] in ("done", "failed", "cancelled"):
                    break
                time.sleep(0.1)
            self.assertEqual(job["state"], "done", job)
            self.assertGreater(job["bytes"], 256 << 10)
            with server.connect() as sock:
                sock.sendall(f"GET /v1/jobs/{job['id']}/result HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                time.sleep(1)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            time.sleep(1)
            status, _, body = server.request("GET", f"/v1/jobs/{job['id']}/result")
            self.assertEqual(status, 200, body[:300])
            self.assertEqual(len(body), job["bytes"])
            status, _, body = server.request("GET", f"/v1/jobs/{job['id']}/result")
            self.assertEqual(status, 410, body)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
