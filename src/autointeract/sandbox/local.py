"""Run untrusted code as a local subprocess under limits, in a fresh work dir.

Each run: a new session/process group, rlimits, a private network namespace when the
kernel allows it, a dedicated unprivileged uid when we are root, a minimal allow-listed
environment, stdin from an anonymous file, stdout/stderr into files in ``.sandbox/`` of the
work dir (full streams kept for grepping, a head of each returned). On timeout the whole
group is killed, then every process of the dedicated uid.
"""

from __future__ import annotations

import itertools
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from autointeract.errors import SandboxUnavailable
from autointeract.sandbox import limits as lim
from autointeract.sandbox.base import (
    ExecResult,
    Isolation,
    LocalSandboxConfig,
)
from autointeract.sandbox.paths import inside

LOG_DIR = ".sandbox"
_MEMORY_MARKERS = (b"MemoryError", b"std::bad_alloc", b"Cannot allocate memory", b"out of memory")
_uid_counter = itertools.count()


def _allocate_uid(base: int) -> int:
    """A uid unlikely to be shared with another live sandbox (pid and a counter mixed in)."""
    return base + (os.getpid() * 1031 + next(_uid_counter) * 7919) % 1_000_000


def _python_for_others() -> str:
    """An interpreter an unprivileged uid can execute (ours may live under /root)."""
    for cand in (sys.executable, shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")):
        if cand and lim.world_reachable(cand):
            return cand
    return sys.executable


class LocalSandbox:
    """A :class:`~autointeract.sandbox.base.Sandbox` backed by local subprocesses.

    Args:
        config: limits and options; defaults to :class:`LocalSandboxConfig`.

    Raises:
        SandboxUnavailable: ``require_network_isolation`` is set and no private network
            namespace can be made here.
    """

    def __init__(self, config: LocalSandboxConfig | None = None) -> None:
        self.config = cfg = config or LocalSandboxConfig()
        self._dir = Path(tempfile.mkdtemp(prefix="ai-sbx-", dir=cfg.root_dir)).resolve()
        self._logs = self._dir / LOG_DIR
        self._logs.mkdir()
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._inflight = 0
        self._closed = False
        root = os.geteuid() == 0
        self._uid: int | None = None
        if root and cfg.drop_privileges:
            self._uid = cfg.uid if cfg.uid is not None else _allocate_uid(cfg.uid_base)
            os.chown(self._dir, self._uid, self._uid)
        self._iso = self._probe(root)
        if cfg.require_network_isolation and not self._iso.network_isolated:
            self.close()
            raise SandboxUnavailable(f"local sandbox: network isolation required but "
                                     f"unavailable: {self._iso.network_reason}")
        self._python = _python_for_others() if self._uid is not None else sys.executable

    def _probe(self, root: bool) -> Isolation:
        iso = Isolation(filesystem=(
            "unprivileged uid: writes limited to the work dir and world-writable dirs "
            "(/tmp, /dev/shm, /var/tmp); RLIMIT_FSIZE caps each file"
            if self._uid is not None else
            "same uid as the caller: the child can write wherever the caller can"))
        self._net_flags = 0
        if self.config.isolate_network:
            flags = lim.network_flags()
            ok, reason = lim.probe_network(flags)
            iso.network_isolated, iso.network_reason = ok, reason
            self._net_flags = flags if ok else 0
        else:
            iso.network_reason = "disabled by config (isolate_network=false)"
        if self._uid is not None:
            iso.unprivileged_user = True
            iso.user_reason = f"runs as dedicated uid {self._uid}"
            iso.process_limit = True
            iso.process_reason = f"RLIMIT_NPROC={self.config.max_processes} on a dedicated uid"
        else:
            iso.user_reason = ("not root: runs as the caller's uid" if not root
                               else "drop_privileges=false: runs as root")
            iso.process_limit = not root
            iso.process_reason = ("root ignores RLIMIT_NPROC: no process limit" if root else
                                  "RLIMIT_NPROC counts all of the caller's processes")
        return iso

    # -- Sandbox protocol -------------------------------------------------------------

    @property
    def workdir(self) -> str:
        return str(self._dir)

    @property
    def python(self) -> str:
        """A Python interpreter the sandboxed user can execute."""
        return self._python

    def isolation(self) -> Isolation:
        return self._iso.model_copy()

    def write_file(self, path: str, data: str | bytes, *, mode: int = 0o644) -> None:
        target = inside(self._dir, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink():
            target.unlink()
        blob = data.encode() if isinstance(data, str) else data
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.chmod(target, mode)
        if self._uid is not None:
            self._chown_up_to(target)

    def _chown_up_to(self, target: Path) -> None:
        cur = target
        while cur != self._dir:
            os.chown(cur, self._uid, self._uid, follow_symlinks=False)  # type: ignore[arg-type]
            cur = cur.parent

    def read_file(self, path: str) -> bytes:
        target = inside(self._dir, path)
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as fh:
            return fh.read()

    def run(self, cmd: str | Sequence[str], *, stdin: str | bytes | None = None,
            timeout_s: float | None = None, env: Mapping[str, str] | None = None,
            cwd: str | None = None, files: Mapping[str, str | bytes] | None = None,
            capture_bytes: int | None = None) -> ExecResult:
        if self._closed:
            raise SandboxUnavailable("local sandbox is closed")
        argv = ["/bin/sh", "-c", cmd] if isinstance(cmd, str) else [str(a) for a in cmd]
        if not argv:
            raise ValueError("empty command")
        for name, data in (files or {}).items():
            self.write_file(name, data)
        cfg = self.config
        timeout = float(timeout_s if timeout_s is not None else cfg.timeout_s)
        run_cwd = inside(self._dir, cwd) if cwd else self._dir
        n = next(self._counter)
        out_path, err_path = self._logs / f"run-{n}.stdout", self._logs / f"run-{n}.stderr"
        limits = self._limits(timeout)
        with self._lock:
            self._inflight += 1
        try:
            with open(out_path, "w+b") as out, open(err_path, "w+b") as err, \
                    tempfile.TemporaryFile() as inp:
                if stdin:
                    inp.write(stdin.encode() if isinstance(stdin, str) else stdin)
                    inp.seek(0)
                res = self._spawn_and_wait(argv, inp, out, err, run_cwd, env, timeout, limits)
                cap = capture_bytes if capture_bytes is not None else cfg.capture_kb * 1024
                self._collect(res, out, err, cap, limits)
        finally:
            with self._lock:
                self._inflight -= 1
                idle = self._inflight == 0
            if idle and self._uid is not None:
                lim.sweep_uid(self._uid)
        res.stdout_path = str(out_path.relative_to(self._dir))
        res.stderr_path = str(err_path.relative_to(self._dir))
        return res

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._uid is not None:
            lim.sweep_uid(self._uid)
        if not self.config.keep_workdir:
            shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> LocalSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ----------------------------------------------------------------------

    def _limits(self, timeout: float) -> lim.Limits:
        cfg = self.config
        # without an explicit CPU budget the wall clock binds; the CPU limit is a backstop a
        # second later, so a busy loop reports "wall" rather than racing both limits
        cpu = cfg.cpu_time_s if cfg.cpu_time_s is not None else timeout + 1.0
        procs = cfg.max_processes
        if self._uid is None and os.geteuid() != 0:  # NPROC counts the caller's processes
            procs += len(lim.pids_of_uid(os.getuid()))
        return lim.Limits(cpu_s=max(1, math.ceil(cpu)), memory_bytes=cfg.memory_mb << 20,
                          file_bytes=cfg.max_file_mb << 20, processes=procs, uid=self._uid,
                          gid=self._uid, unshare_flags=self._net_flags)

    def _env(self, extra: Mapping[str, str] | None) -> dict[str, str]:
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self._dir),
               "TMPDIR": str(self._dir), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
               "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        env.update(self.config.env)
        env.update(extra or {})
        return env

    def _spawn_and_wait(self, argv: list[str], inp: object, out: object, err: object,
                        cwd: Path, env: Mapping[str, str] | None, timeout: float,
                        limits: lim.Limits) -> ExecResult:
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=err, cwd=cwd,
                                    env=self._env(env), start_new_session=True,
                                    close_fds=True, preexec_fn=lim.make_preexec(limits))
        except (OSError, subprocess.SubprocessError) as exc:
            code = 127 if isinstance(exc, FileNotFoundError) else 126
            return ExecResult(exit_code=code, limit="spawn", error=f"cannot start: {exc}",
                              wall_s=time.perf_counter() - t0)
        fired = threading.Event()
        done = threading.Lock()

        def on_deadline() -> None:
            with done:
                if proc.returncode is None:
                    fired.set()
                    lim.kill_group(proc.pid)

        timer = threading.Timer(timeout, on_deadline)
        timer.daemon = True
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            with done:
                timer.cancel()
                proc.returncode = -1  # reaped here; keeps Popen from waiting again
        lim.kill_group(proc.pid)  # leftovers of the group (background jobs)
        res = ExecResult(wall_s=time.perf_counter() - t0, cpu_s=usage.ru_utime + usage.ru_stime,
                         max_rss_kb=usage.ru_maxrss)
        if os.WIFSIGNALED(status):
            res.signal = os.WTERMSIG(status)
            res.exit_code = 128 + res.signal
        else:
            res.exit_code = os.WEXITSTATUS(status)
        if fired.is_set():
            res.limit = "wall"
        elif res.signal == signal.SIGXCPU or (
                res.signal == signal.SIGKILL and res.cpu_s >= limits.cpu_s - 0.05):
            res.limit = "cpu"
        return res

    @staticmethod
    def _collect(res: ExecResult, out: object, err: object, cap: int,
                 limits: lim.Limits) -> None:
        for stream, name in ((out, "stdout"), (err, "stderr")):
            size = os.fstat(stream.fileno()).st_size  # type: ignore[attr-defined]
            stream.seek(0)  # type: ignore[attr-defined]
            head = stream.read(min(size, cap))  # type: ignore[attr-defined]
            setattr(res, name, head.decode("utf-8", errors="replace"))
            setattr(res, f"{name}_bytes", size)
            setattr(res, f"{name}_truncated", size > cap)
            if size >= limits.file_bytes and res.limit is None:
                res.limit = "output"
        if res.limit is None and res.exit_code != 0:
            err_size = res.stderr_bytes
            err.seek(max(0, err_size - 4096))  # type: ignore[attr-defined]
            tail = err.read()  # type: ignore[attr-defined]
            if res.signal == signal.SIGXFSZ or b"File too large" in tail:
                res.limit = "output"
            elif any(m in tail for m in _MEMORY_MARKERS):
                res.limit = "memory"
