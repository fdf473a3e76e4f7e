"""The image Scripts/build-image.sh builds, run with podman, against the same commands outside it.

Inside and outside, the same two binaries (the image's context) with the same inputs must give
the same bytes: a frame, a bundle's videos, a batch's shards run as Kubernetes runs
Examples/scaling/kubernetes-indexed-job.yaml, and the studio's frames, served on loopback with
a token. The image has its own Debian libraries and ffmpeg; the host has its own.
`./run image` builds the image and runs these tests.
"""

import json
import os
import re
import subprocess
import time
import unittest
import urllib.error
import urllib.request

from podman import Podman
from support import (EXAMPLES, FLUIDGRADIENT, REPOSITORY, files, free_port, skip_or_fail, write_manifest)

CONTEXT = os.path.join(REPOSITORY, ".build-image-context")
INSIDE = "/renders"
USER = 10001
PODMAN = None
IMAGE = None


def setUpModule():
    global PODMAN, IMAGE
    binary = os.path.join(CONTEXT, "fluidgradient")
    if not os.path.exists(binary):
        skip_or_fail("the image is not built: `./run image` builds it with Scripts/build-image.sh and runs these tests")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    IMAGE = f"localhost/fluidgradient:{version}"
    PODMAN = Podman()
    probe = PODMAN(["run", "--rm", "--network=none", IMAGE, "fluidgradient", "--version"])
    if probe.returncode != 0:
        skip_or_fail(f"podman cannot run {IMAGE} here: {probe.stderr.decode(errors='replace').strip()}")


def outside(arguments, cwd, environment=None, binary="fluidgradient"):
    """Runs one of the image's binaries on this machine, outside the container."""
    subprocess.run([os.path.join(CONTEXT, binary)] + arguments, cwd=cwd, check=True, capture_output=True,
                   env=dict(os.environ, **(environment or {})))


class ImageTests(unittest.TestCase):
    def setUp(self):
        self.root = os.path.join(REPOSITORY, ".build-image-test", self.id().rsplit(".", 1)[-1])
        subprocess.run(["rm", "-rf", self.root], check=True)
        self.host = os.path.join(self.root, "host")
        self.volume = os.path.join(self.root, "container")
        os.makedirs(self.host)
        os.makedirs(self.volume)
        os.chown(self.volume, USER, USER)

    def inside(self, arguments, environment=None):
        """Runs `arguments` in the image with the volume at /renders, as Kubernetes mounts it."""
        options = ["run", "--rm", "--network=none", "-v", f"{self.volume}:{INSIDE}"]
        for key, value in (environment or {}).items():
            options += ["-e", f"{key}={value}"]
        result = PODMAN(options + [IMAGE] + arguments)
        self.assertEqual(result.returncode, 0, result.stderr.decode(errors="replace"))
        return result

    def test_a_frame(self):
        arguments = ["render", "--preset", "aurora", "--size", "640x360", "--time", "1.5"]
        self.inside(["fluidgradient"] + arguments + ["-o", f"{INSIDE}/frame.png"])
        outside(arguments + ["-o", "frame.png"], cwd=self.host)
        frame = files(self.volume)["frame.png"]
        self.assertEqual(frame, files(self.host)["frame.png"])
        if os.path.exists(FLUIDGRADIENT):
            subprocess.run([FLUIDGRADIENT] + arguments + ["-o", "build.png"], cwd=self.host, check=True)
            self.assertEqual(frame, files(self.host)["build.png"], "the image's frame differs from the build's")

    def test_a_bundle(self):
        arguments = ["render", "--preset", "aurora", "--size", "320x180", "--duration", "1", "--loop", "--quiet"]
        self.inside(["fluidgradient"] + arguments + ["--bundle", f"{INSIDE}/bundle"])
        outside(arguments + ["--bundle", "bundle"], cwd=self.host)
        inside, host = files(self.volume), files(self.host)
        videos = sorted(name for name in host if name.endswith((".mp4", ".webm")))
        self.assertGreaterEqual(len(videos), 4, sorted(host))
        self.assertEqual(sorted(inside), sorted(host))
        for name in videos:
            self.assertTrue(inside[name] == host[name], f"{name} differs")
        for name in sorted(host):
            self.assertTrue(inside[name] == host[name], f"{name} differs")

    def test_the_kubernetes_indexed_job_shards(self):
        with open(os.path.join(EXAMPLES, "kubernetes-indexed-job.yaml")) as handle:
            recipe = handle.read()
        image = re.search(r"^\s*image: (\S+)", recipe, re.M).group(1)
        self.assertEqual(image, IMAGE, "the Kubernetes example names the image Scripts/build-image.sh builds")
        command = json.loads(re.search(r"^\s*command: (\[.*\])", recipe, re.M).group(1))
        completions = int(re.search(r"^\s*completions: (\d+)", recipe, re.M).group(1))
        manifest = command[2]
        self.assertTrue(manifest.startswith(INSIDE + "/"), manifest)
        for directory in (self.volume, self.host):
            path = write_manifest(directory, ["aurora", "sunset"], ["320x180", "180x320"],
                                  ["mp4", "webm", "png"], 1)
            os.rename(path, os.path.join(directory, os.path.basename(manifest)))
        for index in range(completions):
            environment = {"JOB_COMPLETION_INDEX": str(index), "FLUIDGRADIENT_SHARD_COUNT": str(completions)}
            self.inside(command, environment)
            outside(command[1:2] + [os.path.basename(manifest)] + command[3:], cwd=self.host, environment=environment)
            self.assertEqual(files(self.volume), files(self.host), f"after shard {index}")
        self.assertEqual(len([name for name in files(self.host) if name.startswith("out/")]), 24)

    def test_the_studio_on_loopback_with_a_token(self):
        refused = PODMAN(["run", "--rm", "--network=none", IMAGE], timeout=60)
        self.assertEqual(refused.returncode, 2, "the default command binds every address, so it needs a token")
        token = "image-test-token"
        inside_port, outside_port = free_port(), free_port()
        with open(os.path.join(self.root, "studio.log"), "w") as log:
            container = PODMAN.start(
                ["run", "--rm", "--name", f"fluidgradient-test-{inside_port}", "--network=host", "-e",
                 f"FLUIDGRADIENT_STUDIO_TOKEN={token}", IMAGE, "fluidgradient-studio", "--host", "127.0.0.1",
                 "--port", str(inside_port)], log)
            host = subprocess.Popen(
                [os.path.join(CONTEXT, "fluidgradient-studio"), "--host", "127.0.0.1", "--port", str(outside_port)],
                env=dict(os.environ, FLUIDGRADIENT_STUDIO_TOKEN=token), stdout=log, stderr=subprocess.STDOUT)
            try:
                for path in (f"/v1/presets/aurora/frames/640x360/1.5.{ext}" for ext in ("png", "webp", "avif")):
                    self.assertEqual(self.fetch(inside_port, path, None)[0], 401)
                    status, inside_frame = self.fetch(inside_port, path, token)
                    self.assertEqual(status, 200)
                    self.assertTrue(inside_frame == self.fetch(outside_port, path, token)[1], f"{path} differs")
            finally:
                stopped = PODMAN(["stop", "--time", "10", f"fluidgradient-test-{inside_port}"])
                host.terminate()
                host.wait(15)
                container.wait(30)
        self.assertEqual(stopped.returncode, 0, stopped.stderr)
        self.assertEqual(container.returncode, 0, "SIGTERM stops the studio with status 0")

    def fetch(self, port, path, token, timeout=60):
        """GETs `path` from the studio on `port`, waiting for it to listen; returns the status and body."""
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                return error.code, error.read()
            except (ConnectionError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


if __name__ == "__main__":
    unittest.main()
