"""Process-level confinement for the local sandbox: rlimits, a private network namespace,
an unprivileged uid, and a sweep that kills every process of that uid.

What holds where (measured at runtime by :func:`probe_network` and reported in
:class:`~autointeract.sandbox.base.Isolation`):

* ``RLIMIT_CPU``, ``RLIMIT_AS``, ``RLIMIT_FSIZE``, ``RLIMIT_CORE`` hold for any uid.
* ``RLIMIT_NPROC`` is ignored by the kernel for root (and for CAP_SYS_RESOURCE); it holds
  only because the child drops to a dedicated unprivileged uid before ``exec``. The limit
  counts every process of that uid, so each sandbox gets its own uid.
* The network is cut with ``unshare(CLONE_NEWNET)`` (root) or
  ``unshare(CLONE_NEWUSER | CLONE_NEWNET)`` (non-root, where user namespaces are allowed):
  the child sees only a loopback device that is down.
* Files: the unprivileged uid can write only its work dir and world-writable places
  (``/tmp``, ``/dev/shm``, ``/var/tmp``); ``RLIMIT_FSIZE`` caps each file.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000


@dataclass(frozen=True)
class Limits:
    """Limits applied to one child (and inherited by its descendants)."""

    cpu_s: int
    memory_bytes: int
    file_bytes: int
    processes: int
    uid: int | None = None
    gid: int | None = None
    unshare_flags: int = 0


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _unshare(libc: ctypes.CDLL, flags: int) -> None:
    if libc.unshare(ctypes.c_int(flags)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"unshare: {os.strerror(err)}")


def make_preexec(limits: Limits) -> Callable[[], None]:
    """Build the function the child runs between ``fork`` and ``exec``.

    Order matters: the namespace needs privileges, so it comes before dropping them;
    rlimits come before ``setuid`` so the child never runs unlimited as the new uid.
    """
    libc = _libc() if limits.unshare_flags else None

    def preexec() -> None:
        if libc is not None:
            _unshare(libc, limits.unshare_flags)
        hard_cpu = limits.cpu_s + 1
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, hard_cpu))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
        if limits.uid is not None:
            gid = limits.gid if limits.gid is not None else limits.uid
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(limits.uid, limits.uid, limits.uid)
        os.umask(0o022)

    return preexec


def network_flags() -> int:
    """The ``unshare`` flags that give a fresh network namespace for this process's uid."""
    return CLONE_NEWNET if os.geteuid() == 0 else CLONE_NEWUSER | CLONE_NEWNET


def probe_network(flags: int) -> tuple[bool, str]:
    """Try to start ``/bin/true`` in a new network namespace; return (works, reason)."""
    libc = _libc()

    def pre() -> None:
        _unshare(libc, flags)

    try:
        rc = subprocess.run(["/bin/true"], preexec_fn=pre, check=False, timeout=10).returncode
    except (OSError, subprocess.SubprocessError) as exc:
        return False, f"unshare(CLONE_NEWNET) failed: {exc}"
    if rc != 0:
        return False, f"/bin/true exited {rc} in a new network namespace"
    return True, "private network namespace (unshare CLONE_NEWNET): no interfaces but lo"


def kill_group(pgid: int) -> None:
    """SIGKILL a process group, ignoring a group that is already gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def pids_of_uid(uid: int) -> list[int]:
    """Live (not zombie) pids whose ``/proc/<pid>`` is owned by ``uid`` (effective uid)."""
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            if os.stat(f"/proc/{name}").st_uid != uid:
                continue
            with open(f"/proc/{name}/stat", "rb") as fh:
                state = fh.read().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b"Z", b"X"):  # dead ones wait for init to reap them
            out.append(int(name))
    return out


def sweep_uid(uid: int, *, rounds: int = 50) -> int:
    """SIGKILL every process of ``uid`` until none is left; returns how many were killed.

    Used for processes that escaped the process group (``setsid``, double fork). Only
    safe because the uid is dedicated to one sandbox.
    """
    killed = 0
    for _ in range(rounds):
        pids = pids_of_uid(uid)
        if not pids:
            return killed
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.002)
    return killed


def world_reachable(path: str) -> bool:
    """True if an arbitrary uid can execute ``path`` (every directory on the way is o+x)."""
    real = os.path.realpath(path)
    try:
        if not os.stat(real).st_mode & 0o001:
            return False
        parent = os.path.dirname(real)
        while True:
            if not os.stat(parent).st_mode & 0o001:
                return False
            nxt = os.path.dirname(parent)
            if nxt == parent:
                return True
            parent = nxt
    except OSError:
        return False
