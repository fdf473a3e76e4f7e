"""A one-node Slurm cluster of Debian's slurmctld, slurmd and munge, started and stopped by the tests.

Everything lives in a private directory under /tmp: the munge key and socket, slurm.conf (on
two free ports), the state and spool directories, the daemons' logs and the job completion
log. Nothing under /etc is used or changed. The node is this machine under its own host name,
at 127.0.0.1.

- Processes are tracked by Slurm's proctrack/linuxproc and tasks are not bound (task/none):
  the sandbox's cgroups belong to the machine that runs the tests, so Slurm creates none.
- Memory limits (`--mem`) are enforced without cgroups: jobacct_gather/linux samples each
  step's resident memory every second and OverMemoryKill kills a step over its limit with
  SIGKILL, logging "exceeded memory limit". A cluster with task/cgroup does the same through
  the kernel (state OUT_OF_MEMORY); the test checks the kill either way.
- The node declares 16 CPUs and 16 GiB whatever the machine has (config_overrides), so the
  examples' three tasks of 4 CPUs run at once, as on a real cluster, on the two cores of CI.

`start()` raises `ClusterUnavailable` with the reason when the machine cannot host the cluster:
the packages cannot be installed, a daemon does not start, or a trivial job does not run.
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from support import FLUIDGRADIENT, free_port, skip_or_fail

# The commands the tests run, and the Debian package of each.
PACKAGES = {
    "munged": "munge",
    "mungekey": "munge",
    "slurmctld": "slurmctld",
    "slurmd": "slurmd",
    "sbatch": "slurm-client",
    "squeue": "slurm-client",
    "scancel": "slurm-client",
    "scontrol": "slurm-client",
}

SLURM_CONF = """\
ClusterName=fgtest
SlurmctldHost={node}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort={controller_port}
SlurmdPort={node_port}
AuthType=auth/munge
AuthInfo=socket={root}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/log/slurmctld.log
SlurmdLogFile={root}/log/slurmd.log
SlurmdDebug=debug
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
JobCompType=jobcomp/filetxt
JobCompLoc={root}/log/jobcomp.txt
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
MpiDefault=none
MailProg=/bin/true
NodeName={node} NodeAddr=127.0.0.1 CPUs=16 RealMemory=16384 State=UNKNOWN
PartitionName=main Nodes={node} Default=YES MaxTime=INFINITE State=UP
"""


class ClusterUnavailable(Exception):
    """This machine cannot host the cluster; the message says why."""


def tail(path, lines=25):
    """The last lines of a log, or a note that it is missing."""
    try:
        with open(path, errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])
    except OSError:
        return f"({path} was not written)\n"


def install_packages():
    """Installs munge and Slurm from Debian's packages when a command is missing."""
    missing = sorted({package for command, package in PACKAGES.items() if shutil.which(command) is None})
    if not missing:
        return
    if os.geteuid() != 0:
        raise ClusterUnavailable(f"{', '.join(missing)} missing, and only root can install them and run slurmd")
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing
    for command in (["apt-get", "update", "-qq"], install):
        result = subprocess.run(
            command, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"), capture_output=True, text=True,
            timeout=600)
        if result.returncode != 0:
            raise ClusterUnavailable(f"{' '.join(command)} failed: {(result.stdout + result.stderr)[-800:]}")


class SlurmCluster:
    """The cluster: `start()`, submit with `run()`/`sbatch()`, `wait()`, then `stop()`."""

    def __init__(self, binary_directory):
        self.root = tempfile.mkdtemp(prefix="fg-slurm-")
        self.node = socket.gethostname().split(".")[0]
        self.conf = os.path.join(self.root, "slurm.conf")
        self.binary_directory = binary_directory
        self.daemons = []

    @property
    def env(self):
        """The environment of a user of this cluster, with `fluidgradient` on PATH."""
        path = self.binary_directory + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin")
        return dict(os.environ, SLURM_CONF=self.conf, PATH=path)

    def start(self, timeout=60):
        """Installs what is missing, starts munged, slurmctld and slurmd, and runs one trivial job."""
        if os.geteuid() != 0:
            raise ClusterUnavailable("slurmd runs jobs as their users, so it needs root; the tests run as "
                                     f"uid {os.geteuid()}")
        install_packages()
        deadline = time.monotonic() + timeout
        for name in ("munge", "state", "spool", "log", "jobs"):
            os.makedirs(os.path.join(self.root, name), mode=0o700)
        self._start_munge(deadline)
        with open(self.conf, "w") as handle:
            handle.write(SLURM_CONF.format(
                node=self.node, root=self.root, controller_port=free_port(), node_port=free_port()))
        self._daemon(["slurmctld", "-D", "-i", "-f", self.conf], "slurmctld")
        self._until(deadline, lambda: self.run(["scontrol", "ping"], check=False).stdout.find("is UP") >= 0,
                    "slurmctld did not answer scontrol ping", "slurmctld.log")
        self._daemon(["slurmd", "-D", "-N", self.node, "-f", self.conf], "slurmd")
        self._until(deadline, lambda: self.node_state() == "idle", "the node did not become idle", "slurmd.log")
        smoke = self.sbatch(["--wrap", "true", "--output", "/dev/null"], cwd=self.root)
        self._until(deadline, lambda: self.finished(smoke), "a trivial job (sbatch --wrap true) did not finish",
                    "slurmd.log")
        state = self.records(smoke)[0]["JobState"]
        if state != "COMPLETED":
            raise ClusterUnavailable(f"a trivial job ended {state}:\n{tail(self.log('slurmd.log'))}")

    def _start_munge(self, deadline):
        key = os.path.join(self.root, "munge", "munge.key")
        subprocess.run(["mungekey", "--create", "--keyfile", key], check=True, capture_output=True)
        os.chmod(key, 0o600)
        self._daemon(
            ["munged", "--foreground", "--force", "--socket", os.path.join(self.root, "munge", "munge.socket"),
             "--key-file", key, "--pid-file", os.path.join(self.root, "munge", "munged.pid"),
             "--seed-file", os.path.join(self.root, "munge", "munged.seed"),
             "--log-file", self.log("munged.log")], "munged")

        def answers():
            sock = os.path.join(self.root, "munge", "munge.socket")
            credential = subprocess.run(["munge", "-n", "-S", sock], capture_output=True)
            return credential.returncode == 0 and subprocess.run(
                ["unmunge", "-S", sock], input=credential.stdout, capture_output=True).returncode == 0

        self._until(deadline, answers, "munged did not answer", "munged.log")

    def _daemon(self, command, name):
        with open(self.log(name + ".out"), "w") as output:
            self.daemons.append(subprocess.Popen(command, env=self.env, stdout=output, stderr=subprocess.STDOUT))

    def _until(self, deadline, condition, what, log):
        while time.monotonic() < deadline:
            for daemon in self.daemons:
                if daemon.poll() is not None:
                    raise ClusterUnavailable(
                        f"{daemon.args[0]} exited with status {daemon.returncode}:\n"
                        f"{tail(self.log(daemon.args[0] + '.out'))}{tail(self.log(daemon.args[0] + '.log'))}")
            if condition():
                return
            time.sleep(0.2)
        raise ClusterUnavailable(f"{what} in time:\n{tail(self.log(log))}")

    def log(self, name):
        """The path of a log in the cluster's log directory."""
        return os.path.join(self.root, "log", name)

    def run(self, command, cwd=None, check=True):
        """Runs a Slurm command (or any other) as this cluster's user; returns the completed process."""
        result = subprocess.run(command, cwd=cwd, env=self.env, capture_output=True, text=True, timeout=60)
        if check and result.returncode != 0:
            raise AssertionError(f"{' '.join(command)} exited {result.returncode}: {result.stderr}")
        return result

    def sbatch(self, arguments, cwd):
        """Submits as a user would, with `sbatch ARGUMENTS`; returns the job id it printed."""
        output = self.run(["sbatch"] + arguments, cwd=cwd).stdout
        match = re.search(r"Submitted batch job (\d+)", output)
        if match is None:
            raise AssertionError(f"sbatch printed no job id: {output!r}")
        return int(match.group(1))

    def node_state(self):
        """The node's state as sinfo shows it (idle, mix, alloc, down, ...)."""
        return self.run(["sinfo", "-h", "-n", self.node, "-o", "%t"], check=False).stdout.strip()

    def finished(self, job):
        """Whether every task of `job` has left the queue and has a completion record."""
        queued = self.run(["squeue", "-h", "-j", str(job), "-o", "%i"], check=False)
        return queued.returncode == 0 and queued.stdout.strip() == "" and len(self.records(job)) > 0

    def wait(self, job, timeout):
        """Waits for every task of `job` to end; fails with the logs after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.finished(job):
                return self.records(job)
            time.sleep(0.2)
        queue = self.run(["squeue", "-j", str(job)], check=False).stdout
        raise AssertionError(f"job {job} still queued or running after {timeout} s:\n{queue}"
                             f"{tail(self.log('slurmctld.log'))}{tail(self.log('slurmd.log'))}")

    def records(self, job):
        """The completion records of job `job`, or of every task of array `job`, by task."""
        records = []
        try:
            with open(self.log("jobcomp.txt")) as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            lines = []
        for line in lines:
            fields = dict(re.findall(r"(\w+)=(\S*)", line))
            if fields.get("ArrayJobId") == str(job) or (fields["JobId"] == str(job) and "ArrayJobId" not in fields):
                records.append(fields)
        return sorted(records, key=lambda fields: int(fields.get("ArrayTaskId", 0)))

    def stop(self):
        """Cancels what still runs, stops the daemons and ends any process of this cluster's jobs."""
        if self.daemons and self.daemons[0].poll() is None and os.path.exists(self.conf):
            self.run(["scancel", "--full", "--user", "root"], check=False)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and self.run(["squeue", "-h"], check=False).stdout.strip():
                time.sleep(0.2)
        for daemon in reversed(self.daemons):
            if daemon.poll() is None:
                daemon.terminate()
                try:
                    daemon.wait(10)
                except subprocess.TimeoutExpired:
                    daemon.kill()
                    daemon.wait()
        for pid in self.leftover_processes():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def leftover_processes(self):
        """Processes started for this cluster (slurmstepd and jobs), found by its SLURM_CONF."""
        marker = f"SLURM_CONF={self.conf}".encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as handle:
                    if marker in handle.read().split(b"\0"):
                        pids.append(int(entry))
            except OSError:
                continue
        return pids

    def remove(self):
        """Deletes the cluster's directory, unless FLUIDGRADIENT_KEEP_CLUSTER=1 keeps it to look at."""
        if os.environ.get("FLUIDGRADIENT_KEEP_CLUSTER") == "1":
            print(f"\nThe cluster's directory, kept: {self.root}", flush=True)
        else:
            shutil.rmtree(self.root, ignore_errors=True)


def started_cluster():
    """A one-node cluster for a test module's `setUpModule`, beside the command under test;
    where this machine cannot host one, the module's tests are skipped (see `skip_or_fail`).
    The module's `tearDownModule` calls `stop()` and `remove()` on it."""
    cluster = SlurmCluster(os.path.dirname(os.path.abspath(FLUIDGRADIENT)))
    try:
        cluster.start()
    except ClusterUnavailable as reason:
        cluster.stop()
        cluster.remove()
        skip_or_fail(f"the Slurm tests cannot run on this machine: {reason}")
    return cluster
