"""The sandbox protocol on a docker engine (docker-py): one long-lived container per sandbox.

The container starts with ``sleep infinity`` under memory/CPU/pids limits and no network;
each ``run`` is an ``exec`` wrapped in ``timeout -s KILL`` whose streams go to files in the
container, so a 10 GB output never crosses the socket: only ``head -c`` of it does.
"""

from __future__ import annotations

import io
import itertools
import shlex
import tarfile
import time
from collections.abc import Mapping, Sequence
from typing import Any

from autointeract.errors import SandboxUnavailable
from autointeract.sandbox.base import DockerSandboxConfig, ExecResult, Isolation
from autointeract.sandbox.paths import inside_posix

LOG_DIR = ".sandbox"
_WRAP = ('cd "$AI_CWD" && timeout -s KILL "$AI_TIMEOUT" "$@" <"$AI_IN" >"$AI_OUT" 2>"$AI_ERR";'
         ' echo $? >"$AI_RC"')


def connect(base_url: str | None = None) -> Any:
    """A docker client that has answered a ping.

    Raises:
        SandboxUnavailable: docker-py is missing or no engine answers.
    """
    try:
        import docker
        import requests
    except ImportError as exc:  # pragma: no cover - docker is a core dependency
        raise SandboxUnavailable(f"docker sandbox: python package missing: {exc.name}") from None
    try:
        client = docker.DockerClient(base_url=base_url) if base_url else docker.from_env()
        client.ping()
    except (docker.errors.DockerException, requests.exceptions.ConnectionError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SandboxUnavailable(f"docker sandbox: no docker engine reachable ({first})") from None
    return client


def _tar_one(name: str, data: bytes, mode: int) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = len(data), mode, int(time.time())
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


class DockerSandbox:
    """A :class:`~autointeract.sandbox.base.Sandbox` in a docker container.

    Args:
        config: image and limits.
        client: an already connected docker client (tests pass a fake); default connects.

    Raises:
        SandboxUnavailable: no engine is reachable or the container cannot start.
    """

    def __init__(self, config: DockerSandboxConfig | None = None, *, client: Any = None) -> None:
        self.config = cfg = config or DockerSandboxConfig()
        self._client = client if client is not None else connect(cfg.base_url)
        self._counter = itertools.count(1)
        try:
            self._box = self._client.containers.run(
                cfg.image, ["sleep", "infinity"], detach=True, working_dir=cfg.workdir,
                mem_limit=f"{cfg.memory_mb}m", memswap_limit=f"{cfg.memory_mb}m",
                nano_cpus=int(cfg.cpus * 1e9), pids_limit=cfg.max_processes,
                network_disabled=cfg.network_disabled, environment=dict(cfg.env),
                auto_remove=False)
        except Exception as exc:  # docker.errors.APIError / ImageNotFound / ConnectionError
            raise SandboxUnavailable(f"docker sandbox: cannot start {cfg.image}: {exc}") from None
        self._sh(f"mkdir -p {shlex.quote(cfg.workdir)}/{LOG_DIR}")

    @property
    def workdir(self) -> str:
        return self.config.workdir

    @property
    def python(self) -> str:
        return "python3"

    def isolation(self) -> Isolation:
        cfg = self.config
        return Isolation(
            network_isolated=cfg.network_disabled,
            network_reason="container started with network_disabled" if cfg.network_disabled
            else "network_disabled=false", unprivileged_user=False,
            user_reason="container root (isolated by namespaces)", process_limit=True,
            process_reason=f"pids_limit={cfg.max_processes}",
            filesystem="container filesystem; host untouched")

    def _sh(self, script: str, env: Mapping[str, str] | None = None) -> tuple[int, bytes]:
        res = self._box.exec_run(["sh", "-c", script], environment=dict(env or {}), demux=False)
        return res.exit_code, res.output or b""

    def write_file(self, path: str, data: str | bytes, *, mode: int = 0o644) -> None:
        target = inside_posix(self.config.workdir, path)
        parent, name = target.rsplit("/", 1)
        self._sh(f"mkdir -p {shlex.quote(parent)}")
        blob = data.encode() if isinstance(data, str) else data
        if not self._box.put_archive(parent, _tar_one(name, blob, mode)):
            raise OSError(f"docker sandbox: cannot write {path}")

    def read_file(self, path: str) -> bytes:
        target = inside_posix(self.config.workdir, path)
        try:
            chunks, _ = self._box.get_archive(target)
        except Exception as exc:  # docker.errors.NotFound
            raise FileNotFoundError(path) from exc
        with tarfile.open(fileobj=io.BytesIO(b"".join(chunks))) as tar:
            member = tar.next()
            fh = tar.extractfile(member) if member else None
            if fh is None:
                raise FileNotFoundError(path)
            return fh.read()

    def run(self, cmd: str | Sequence[str], *, stdin: str | bytes | None = None,
            timeout_s: float | None = None, env: Mapping[str, str] | None = None,
            cwd: str | None = None, files: Mapping[str, str | bytes] | None = None,
            capture_bytes: int | None = None) -> ExecResult:
        cfg = self.config
        argv = ["sh", "-c", cmd] if isinstance(cmd, str) else [str(a) for a in cmd]
        if not argv:
            raise ValueError("empty command")
        for name, data in (files or {}).items():
            self.write_file(name, data)
        n = next(self._counter)
        base = f"{LOG_DIR}/run-{n}"
        self.write_file(f"{base}.stdin", stdin or b"", mode=0o600)
        w = cfg.workdir
        wrap_env = {**cfg.env, **(env or {}), "AI_CWD": inside_posix(w, cwd) if cwd else w,
                    "AI_TIMEOUT": f"{timeout_s if timeout_s is not None else cfg.timeout_s:g}",
                    "AI_IN": f"{w}/{base}.stdin", "AI_OUT": f"{w}/{base}.stdout",
                    "AI_ERR": f"{w}/{base}.stderr", "AI_RC": f"{w}/{base}.rc"}
        t0 = time.perf_counter()
        self._box.exec_run(["sh", "-c", _WRAP, "sh", *argv], environment=wrap_env)
        wall = time.perf_counter() - t0
        cap = capture_bytes if capture_bytes is not None else cfg.capture_kb * 1024
        return self._result(base, cap, wall, float(wrap_env["AI_TIMEOUT"]))

    def _result(self, base: str, cap: int, wall: float, timeout: float) -> ExecResult:
        w = shlex.quote(self.config.workdir)
        res = ExecResult(wall_s=wall, stdout_path=f"{base}.stdout", stderr_path=f"{base}.stderr")
        _, rc = self._sh(f"cat {w}/{base}.rc 2>/dev/null")
        code = int(rc.strip() or b"-1")
        res.exit_code = code
        if code == 137:  # SIGKILL: ``timeout`` at the deadline, else the OOM killer
            res.signal = 9
            res.limit = "wall" if wall >= 0.95 * timeout else "memory"
        for name in ("stdout", "stderr"):
            path = f"{w}/{base}.{name}"
            _, size = self._sh(f"wc -c < {path}")
            _, head = self._sh(f"head -c {int(cap)} {path}")
            nbytes = int(size.strip() or b"0")
            setattr(res, name, head.decode("utf-8", errors="replace"))
            setattr(res, f"{name}_bytes", nbytes)
            setattr(res, f"{name}_truncated", nbytes > cap)
        if res.limit is None and code != 0 and "MemoryError" in res.stderr[-4096:]:
            res.limit = "memory"
        return res

    def close(self) -> None:
        box, self._box = getattr(self, "_box", None), None
        if box is not None:
            try:
                box.remove(force=True)
            except Exception:
                pass

    def __enter__(self) -> DockerSandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
