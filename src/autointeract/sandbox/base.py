"""The sandbox contract: one protocol, one result type, the config of each backend.

A sandbox owns a work directory and runs commands in it under limits. Every backend
(local subprocess, docker, the scripted fake) satisfies :class:`Sandbox`, so the rollout,
the judge and the repository verifier never know which one they hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from autointeract.config import StrictModel

LimitHit = Literal["wall", "cpu", "memory", "output", "spawn"]


class Isolation(BaseModel):
    """What a backend actually enforces on this machine (measured, not assumed)."""

    network_isolated: bool = False
    network_reason: str = ""
    unprivileged_user: bool = False
    user_reason: str = ""
    process_limit: bool = False
    process_reason: str = ""
    filesystem: str = ""


class ExecResult(BaseModel):
    """The outcome of one command.

    ``stdout``/``stderr`` hold at most the capture budget; the full streams (up to the
    file-size limit) stay in ``stdout_path``/``stderr_path`` inside the work dir, so an
    agent can grep them.
    """

    exit_code: int | None = None
    signal: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdout_path: str | None = None
    stderr_path: str | None = None
    limit: LimitHit | None = None
    wall_s: float = 0.0
    cpu_s: float = 0.0
    max_rss_kb: int = 0
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the command ran to completion with exit code 0 and hit no limit."""
        return self.exit_code == 0 and self.limit is None and self.error is None

    @property
    def timed_out(self) -> bool:
        return self.limit in ("wall", "cpu")


@runtime_checkable
class Sandbox(Protocol):
    """A work directory plus a way to run commands in it under limits.

    Contract:
      * ``run`` never raises for anything the command does (crash, timeout, limit): it
        reports it in the :class:`ExecResult`. It raises only for misuse (bad arguments) or
        a backend that stopped working (:class:`~autointeract.errors.SandboxUnavailable`).
      * A ``str`` command runs through ``/bin/sh -c``; a sequence is an argv.
      * Paths given to ``write_file``/``read_file``/``cwd`` are relative to ``workdir`` and
        may not escape it.
    """

    @property
    def workdir(self) -> str:
        """The work directory as the sandboxed command sees it."""
        ...

    def run(self, cmd: str | Sequence[str], *, stdin: str | bytes | None = None,
            timeout_s: float | None = None, env: Mapping[str, str] | None = None,
            cwd: str | None = None, files: Mapping[str, str | bytes] | None = None,
            capture_bytes: int | None = None) -> ExecResult:
        """Run ``cmd`` in the work dir, after writing ``files`` into it."""
        ...

    def write_file(self, path: str, data: str | bytes, *, mode: int = 0o644) -> None:
        """Create or replace ``path`` (relative to the work dir) with ``data``."""
        ...

    def read_file(self, path: str) -> bytes:
        """Read ``path`` (relative to the work dir); ``FileNotFoundError`` if absent."""
        ...

    def isolation(self) -> Isolation:
        """What this backend enforces here."""
        ...

    def close(self) -> None:
        """Kill anything left running and delete the work dir."""
        ...


class LocalSandboxConfig(StrictModel):
    """Limits of :class:`~autointeract.sandbox.local.LocalSandbox` (subprocess + rlimits)."""

    kind: Literal["local"] = "local"
    root_dir: str | None = None
    timeout_s: float = 30.0
    cpu_time_s: float | None = None
    memory_mb: int = 1024
    max_processes: int = 64
    max_file_mb: int = 64
    capture_kb: int = 64
    isolate_network: bool = True
    require_network_isolation: bool = False
    drop_privileges: bool = True
    uid: int | None = None
    uid_base: int = 200_000
    env: dict[str, str] = Field(default_factory=dict)
    keep_workdir: bool = False


class DockerSandboxConfig(StrictModel):
    """Limits of :class:`~autointeract.sandbox.docker_sandbox.DockerSandbox`."""

    kind: Literal["docker"] = "docker"
    image: str = "python:3.11-slim"
    workdir: str = "/workspace"
    timeout_s: float = 60.0
    memory_mb: int = 2048
    cpus: float = 1.0
    max_processes: int = 256
    capture_kb: int = 64
    network_disabled: bool = True
    env: dict[str, str] = Field(default_factory=dict)
    base_url: str | None = None


class FakeSandboxConfig(StrictModel):
    """The scripted fake: no process runs; results come from a script (for tests)."""

    kind: Literal["fake"] = "fake"
