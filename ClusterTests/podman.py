"""Rootful podman from Debian, run the way this machine allows, for the image tests.

On an ordinary host `podman run` needs nothing more. Two limits of a sandbox like CI's are
worked around here, and only when they are seen:

- Hybrid cgroups: cgroup v1 controllers with a cgroup2 hierarchy at /sys/fs/cgroup/unified
  that has controllers of its own. crun (podman's runtime in Debian) refuses such a host
  ("cgroups in hybrid mode not supported"), even with --cgroups=disabled. podman then runs in
  a private mount namespace of its own in which that cgroup2 mount is gone, and with
  --cgroups=disabled, so the container's processes stay in the cgroups of the test that
  started them. The host's mounts are not changed.
- A hard limit on open files below podman's default of 1048576 for containers, which crun
  cannot raise without CAP_SYS_RESOURCE: the container gets the host's own limit, and as many
  processes as crun itself may have.
"""

import os
import resource
import subprocess

# Runs the command after it in a private mount namespace without the cgroup2 mount.
WITHOUT_UNIFIED_CGROUP = [
    "unshare", "--mount", "--propagation", "private", "sh", "-c", 'umount /sys/fs/cgroup/unified && exec "$@"', "sh"]


def hybrid_cgroups():
    """Whether cgroup2 is mounted beside cgroup v1 with controllers of its own."""
    try:
        with open("/sys/fs/cgroup/unified/cgroup.controllers") as handle:
            return handle.read().strip() != "" and os.path.isdir("/sys/fs/cgroup/memory")
    except OSError:
        return False


class Podman:
    """`podman` with the prefix and `run` options this machine needs."""

    def __init__(self):
        self.prefix, self.run_options = [], []
        runtime = subprocess.run(["podman", "info", "--format", "{{.Host.OCIRuntime.Name}}"],
                                 capture_output=True, text=True).stdout.strip()
        if hybrid_cgroups() and runtime == "crun":
            self.prefix = WITHOUT_UNIFIED_CGROUP
            self.run_options.append("--cgroups=disabled")
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        if hard != resource.RLIM_INFINITY and hard < 1048576:
            # Giving one limit makes podman ask for 1048576 processes too; it runs crun with at
            # most pid_max of them.
            with open("/proc/sys/kernel/pid_max") as handle:
                processes = min(int(handle.read()), resource.getrlimit(resource.RLIMIT_NPROC)[1])
            self.run_options += [f"--ulimit=nofile={hard}:{hard}", f"--ulimit=nproc={processes}:{processes}"]

    def command(self, arguments):
        """The full command line of `podman ARGUMENTS`."""
        if arguments[0] == "run":
            arguments = ["run"] + self.run_options + arguments[1:]
        return self.prefix + ["podman"] + arguments

    def __call__(self, arguments, timeout=300):
        """Runs `podman ARGUMENTS`; returns the completed process."""
        return subprocess.run(self.command(arguments), capture_output=True, timeout=timeout)

    def start(self, arguments, log):
        """Starts `podman ARGUMENTS` in the background, its output going to the open file `log`."""
        return subprocess.Popen(self.command(arguments), stdout=log, stderr=subprocess.STDOUT)
