"""Examples/scaling/slurm-array.sbatch submitted with sbatch to a real one-node Slurm cluster.

The array's outputs must equal an unsharded local batch byte for byte. A task cancelled in the
middle of a render and a task killed for going over its --mem leave no partial file under a final
name; the resubmitted array renders exactly what is missing and leaves the rest untouched.
"""

import json
import os
import re
import socket
import time
import unittest

from slurm_cluster import started_cluster
from support import (EXAMPLES, files, fluidgradient, reference_outputs, shard_outputs, temporaries,
                     write_manifest)

SCRIPT = os.path.join(EXAMPLES, "slurm-array.sbatch")
TASKS = 3
CLUSTER = None


def setUpModule():
    global CLUSTER
    CLUSTER = started_cluster()


def tearDownModule():
    CLUSTER.stop()
    CLUSTER.remove()


def task_log(work, job, task):
    """The log the script's --output names for task `task` of array `job`."""
    with open(os.path.join(work, f"brand-loops-{job}_{task}.log")) as handle:
        return handle.read()


def statuses(log, outputs):
    """The status the batch's table gives each of `outputs` (rendered, skipped, ...), from a task's log."""
    found = {}
    for output in outputs:
        line = next((line for line in log.splitlines() if f" {output} " in line), "")
        found[output] = line.split()[-1] if line else "absent"
    return found


def output_of(temporary):
    """The output a temporary file `.NAME.tmp-PID-N.EXT` stands for: NAME.EXT, beside it."""
    directory, name = os.path.split(temporary)
    match = re.fullmatch(r"\.(.+)\.tmp-\d+-\d+(\.\w+)", name)
    return os.path.join(directory, match.group(1) + match.group(2)) if match else None


class SlurmJobArrayTests(unittest.TestCase):
    def setUp(self):
        self.work = os.path.join(CLUSTER.root, "jobs", self.id().rsplit(".", 1)[-1])
        self.reference = self.work + "-reference"

    def manifests(self, palettes, sizes, formats, duration):
        """The same manifest in the job's directory and in the reference's."""
        write_manifest(self.reference, palettes, sizes, formats, duration)
        return write_manifest(self.work, palettes, sizes, formats, duration)

    def expect_tasks(self, records, job, states):
        """Each task of `job` ran as its own Slurm job and ended in its state in `states`."""
        self.assertEqual([int(record["ArrayTaskId"]) for record in records], list(range(TASKS)), records)
        self.assertEqual(len({record["JobId"] for record in records}), TASKS, "each task is a job of its own")
        self.assertEqual([record["JobState"] for record in records], states, records)
        for record in records:
            self.assertEqual(record["ArrayJobId"], str(job))

    def test_the_array_renders_the_unsharded_outputs(self):
        manifest = self.manifests(["aurora", "sunset", "ocean"], ["320x180", "180x320"], ["mp4", "png"], 1)
        expected = reference_outputs(self.reference, os.path.join(self.reference, "manifest.json"))
        job = CLUSTER.sbatch([SCRIPT, manifest], cwd=self.work)
        records = CLUSTER.wait(job, timeout=90)
        self.expect_tasks(records, job, ["COMPLETED"] * TASKS)
        for task, record in enumerate(records):
            log = task_log(self.work, job, task)
            self.assertEqual(
                log.splitlines()[0],
                f"array task {task} of job {job} (job {record['JobId']}) on {socket.gethostname()}")
            self.assertIn(f"(shard {task}/{TASKS} of 12 jobs): 4 rendered", log)
            outputs = shard_outputs(manifest, f"{task}/{TASKS}", self.work)
            self.assertEqual(statuses(log, outputs), {output: "rendered" for output in outputs}, log)
        self.assertEqual(files(os.path.join(self.work, "out")), expected)

    def test_a_cancelled_task_resubmitted_renders_only_what_is_missing(self):
        manifest = self.manifests(["aurora", "sunset", "ocean"], ["640x360", "360x640"], ["mp4", "png"], 2)
        expected = reference_outputs(self.reference, os.path.join(self.reference, "manifest.json"))
        out = os.path.join(self.work, "out")
        victim = 1
        outputs = shard_outputs(manifest, f"{victim}/{TASKS}", self.work)
        job = CLUSTER.sbatch([SCRIPT, manifest], cwd=self.work)
        rendering = self.cancel_mid_render(job, victim, outputs, out)
        records = CLUSTER.wait(job, timeout=90)
        states = ["CANCELLED" if task == victim else "COMPLETED" for task in range(TASKS)]
        self.expect_tasks(records, job, states)
        self.assertIn("CANCELLED", task_log(self.work, job, victim))
        left = files(out)
        self.assertEqual(temporaries(out), [], "the cancelled batch removes the file it was writing")
        for name, data in left.items():
            self.assertEqual(data, expected[name], f"{name} is under its final name but is not complete")
        missing = sorted(set(expected) - set(left))
        self.assertIn(os.path.relpath(rendering, out), missing, "the render that was cancelled is not there")
        before = {name: os.stat(os.path.join(out, name)) for name in left}

        again = CLUSTER.sbatch([SCRIPT, manifest], cwd=self.work)
        self.expect_tasks(CLUSTER.wait(again, timeout=90), again, ["COMPLETED"] * TASKS)
        self.assertEqual(files(out), expected, "the retry loses nothing")
        self.assertEqual(temporaries(out), [])
        for name, stat in before.items():
            now = os.stat(os.path.join(out, name))
            self.assertEqual((now.st_ino, now.st_mtime_ns), (stat.st_ino, stat.st_mtime_ns), f"{name} was rewritten")
        log = "".join(task_log(self.work, again, task) for task in range(TASKS))
        every = [os.path.join(out, name) for name in expected if not name.endswith(".fluidgradient.json")]
        want = {path: "rendered" if os.path.relpath(path, out) in missing else "skipped" for path in every}
        self.assertEqual(statuses(log, every), want, log)

    def cancel_mid_render(self, job, task, outputs, out, timeout=60):
        """Cancels task `task` of `job` once one of its outputs is complete and another is being written.

        Returns the output that was being written.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            complete = [output for output in outputs if os.path.exists(output + ".fluidgradient.json")]
            writing = [output_of(os.path.join(out, name)) for name in temporaries(out)]
            writing = [output for output in writing if output in outputs and output not in complete]
            if complete and writing:
                CLUSTER.run(["scancel", f"{job}_{task}"])
                return writing[0]
            if any(int(record["ArrayTaskId"]) == task for record in CLUSTER.records(job)):
                self.fail(f"task {task} ended before the test could cancel it in the middle of a render")
            time.sleep(0.02)
        self.fail(f"task {task} did not start rendering within {timeout} s")

    def test_a_task_over_its_memory_limit_is_killed_and_leaves_no_partial_output(self):
        # A 1080p H.264 encode holds several hundred MB in x264's lookahead; the batch
        # starts under 100 MB, so the limit strikes while each output is being written.
        manifest = self.manifests(["aurora", "sunset", "ocean"], ["1920x1080"], ["mp4"], 4)
        out = os.path.join(self.work, "out")
        job = CLUSTER.sbatch(["--mem=100M", SCRIPT, manifest], cwd=self.work)
        records = CLUSTER.wait(job, timeout=120)
        self.expect_tasks(records, job, [record["JobState"] for record in records])
        for task, record in enumerate(records):
            log = task_log(self.work, job, task)
            self.assertIn(record["JobState"], ("FAILED", "OUT_OF_MEMORY"), record)
            self.assertTrue(
                record["ExitCode"] == "0:9" or record["JobState"] == "OUT_OF_MEMORY",
                f"task {task} was not killed: {record}\n{log}")
            self.assertRegex(log, r"exceeded memory limit|[Oo]ut[- ]of[- ]memory", f"task {task} log: {log}")
        left = files(out) if os.path.isdir(out) else {}
        partials = temporaries(out) if left else []
        self.assertEqual(sorted(set(left) - set(partials)), [], "nothing is under a final name")
        self.assertEqual(len(partials), TASKS, f"each task was killed while writing its output: {sorted(left)}")
        report = json.loads(fluidgradient(["batch", manifest, "--dry-run", "--json"], cwd=self.work))
        self.assertEqual([job["plan"] for job in report["jobs"]], ["render"] * TASKS, "a partial is never an output")


if __name__ == "__main__":
    unittest.main()
