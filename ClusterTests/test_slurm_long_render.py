"""One long render across a Slurm job array, joined without re-encoding (docs/scale-out.md).

Examples/scaling/slurm-frame-range.sbatch renders a share of the frames in each array task, and
join-pieces.sh, submitted with --dependency=afterok on the array, joins the pieces with
ffmpeg's concat demuxer. The joined file must decode to the frames of a single-process render:
exactly for ProRes (.mov, intra-only) and for lossless H.264; for the default, lossy H.264, the
joined file holds the pieces' own frames. Either way it has the whole render's frame count, rate,
tags and timestamps: the pieces' 22 and 23 frames at 30 fps are not whole milliseconds, which
an .mp4 rounds its length to.
"""

import os
import subprocess
import unittest

from slurm_cluster import started_cluster
from support import EXAMPLES, fluidgradient, temporaries

RENDER = os.path.join(EXAMPLES, "slurm-frame-range.sbatch")
JOIN = os.path.join(EXAMPLES, "join-pieces.sh")
FRAMES = 90
PIECES = 4
FLAGS = ["--preset", "aurora", "--size", "320x180", "--fps", "30", "--loop"]
CLUSTER = None


def setUpModule():
    global CLUSTER
    CLUSTER = started_cluster()


def tearDownModule():
    CLUSTER.stop()
    CLUSTER.remove()


def decoded(path, pixel_format):
    """A video's frames, decoded by ffmpeg to raw `pixel_format`."""
    return subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", pixel_format, "-"],
                          capture_output=True, check=True).stdout


def timestamps(path):
    """The presentation timestamps of a video's packets, in order of time."""
    output = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts",
                             "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout
    return sorted(int(line) for line in output.split())


def stream_facts(path):
    """What ffprobe says of a video's stream: codec, size, pixel format, rate, colour tags and frame count."""
    entries = ("stream=codec_name,profile,width,height,pix_fmt,r_frame_rate,color_space,color_transfer,"
               "color_primaries,color_range,nb_read_frames")
    return subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", entries,
         "-of", "default=noprint_wrappers=1", path], capture_output=True, text=True, check=True).stdout


class SlurmLongRenderTests(unittest.TestCase):
    def render_on_slurm(self, name, extra):
        """Submits the array and the join as docs/scale-out.md does; returns the joined file and the pieces."""
        work = os.path.join(CLUSTER.root, "jobs", self.id().rsplit(".", 1)[-1])
        os.makedirs(work)
        output = os.path.join(work, name)
        array = CLUSTER.sbatch([RENDER, str(FRAMES), output] + FLAGS + extra, cwd=work)
        join = CLUSTER.sbatch([f"--dependency=afterok:{array}", JOIN, output, str(PIECES)], cwd=work)
        tasks = CLUSTER.wait(array, timeout=90)
        self.assertEqual([record["ArrayTaskId"] for record in tasks], [str(task) for task in range(PIECES)])
        self.assertEqual({record["JobState"] for record in tasks}, {"COMPLETED"}, tasks)
        joined = CLUSTER.wait(join, timeout=60)
        self.assertEqual(joined[0]["JobState"], "COMPLETED", joined)
        self.assertGreaterEqual(joined[0]["StartTime"], max(record["EndTime"] for record in tasks),
                                "the join waits for every piece")
        stem, ext = os.path.splitext(name)
        pieces = [os.path.join(work, f"{stem}.part-{task}-of-{PIECES}{ext}") for task in range(PIECES)]
        for task, record in enumerate(tasks):
            first, last = task * FRAMES // PIECES, (task + 1) * FRAMES // PIECES - 1
            with open(os.path.join(work, f"long-render-{array}_{task}.log")) as handle:
                self.assertEqual(handle.read().splitlines()[0], f"array task {task} of job {array} (job "
                                 f"{record['JobId']}) on {os.uname().nodename}: frames {first}-{last} of {FRAMES} "
                                 f"to {pieces[task]}")
        self.assertEqual(temporaries(work), [])
        return output, pieces

    def test_lossless_mp4_pieces_join_into_the_frames_of_one_process(self):
        extra = ["--encode-size", "full", "--ffmpeg-options", "-qp 0"]
        joined, _ = self.render_on_slurm("aurora.mp4", extra)
        single = fluidgradient(["render"] + FLAGS + ["--frames", str(FRAMES), "--pixel-format", "yuv420p", "-o", "-"])
        self.assertEqual(len(single), FRAMES * 320 * 180 * 3 // 2)
        self.assertTrue(decoded(joined, "yuv420p") == single, "the joined file's frames differ from one process's")

    def test_mov_pieces_join_into_the_whole_render(self):
        joined, _ = self.render_on_slurm("aurora.mov", [])
        whole = os.path.join(os.path.dirname(joined), "whole.mov")
        fluidgradient(["render"] + FLAGS + ["--frames", str(FRAMES), "--quiet", "-o", whole])
        expected = decoded(whole, "yuva444p10le")
        self.assertEqual(len(expected), FRAMES * 320 * 180 * 4 * 2)
        self.assertTrue(decoded(joined, "yuva444p10le") == expected, "the joined .mov differs from the whole")
        self.assertEqual(stream_facts(joined), stream_facts(whole))
        self.assertEqual(timestamps(joined), timestamps(whole))

    def test_lossy_mp4_pieces_join_without_reencoding(self):
        joined, pieces = self.render_on_slurm("aurora.mp4", [])
        whole = os.path.join(os.path.dirname(joined), "whole.mp4")
        fluidgradient(["render"] + FLAGS + ["--frames", str(FRAMES), "--quiet", "-o", whole])
        self.assertTrue(decoded(joined, "yuv420p") == b"".join(decoded(piece, "yuv420p") for piece in pieces),
                        "the joined file is not the pieces' frames in order")
        self.assertEqual(stream_facts(joined), stream_facts(whole))
        self.assertIn(f"nb_read_frames={FRAMES}", stream_facts(joined))
        self.assertEqual(timestamps(joined), timestamps(whole))


if __name__ == "__main__":
    unittest.main()
