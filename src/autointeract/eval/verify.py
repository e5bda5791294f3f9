"""How an evaluation verifies: docker-bound tasks without an engine are *unverified*, not failed.

A SWE-Together task published with its docker image (no local repository) can only be graded
in that image. When no docker engine answers, :func:`eval_verifier` returns
``VerifierResult(verified=False)`` for it, so the metrics leave the run out instead of
counting a failure, and :class:`HideUnverified` keeps the user from reacting to a check that
never ran. Repository checks also record the working copy's diff against the starting
repository (``meta["diff"]``), which the behavior metrics read.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from autointeract.errors import ConfigError, SandboxUnavailable
from autointeract.rollout.protocols import UserObservation, UserSimulator, UserTurn
from autointeract.rollout.verify import Verifier, is_repo_task, sandbox_verifier
from autointeract.sandbox.base import Sandbox
from autointeract.types import TaskSpec, VerifierResult

MAX_DIFF_FILE_BYTES = 256_000
_SKIP_PARTS = frozenset({".git", "__pycache__", ".pytest_cache", ".sandbox", "node_modules"})


def docker_bound(task: TaskSpec) -> bool:
    """True when the task's tests only run in its docker image (no local repository)."""
    spec = task.verifier
    if spec.kind == "swebench":
        return True
    return spec.kind == "repo" and not spec.meta.get("runnable", True)


def docker_reachable(base_url: str | None = None) -> tuple[bool, str]:
    """Whether a docker engine answers a ping, and why not."""
    from autointeract.sandbox.docker_sandbox import connect

    try:
        client = connect(base_url)
    except SandboxUnavailable as exc:
        return False, str(exc)
    close = getattr(client, "close", None)
    if callable(close):
        close()
    return True, ""


def unverified(reason: str) -> VerifierResult:
    """The verdict of a check that could not run (excluded from pass metrics)."""
    return VerifierResult(verified=False, error=reason, meta={"kind": "unverified"})


def _skip(rel: str, protected: Iterable[str]) -> bool:
    parts = rel.split("/")
    if any(p in _SKIP_PARTS for p in parts) or rel.endswith(".pyc"):
        return True
    return any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in protected)


def _text(data: bytes | None) -> list[str] | None:
    if data is None or len(data) > MAX_DIFF_FILE_BYTES or b"\x00" in data[:4096]:
        return None
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def working_diff(sandbox: Sandbox, original_dir: str | Path, *, repo: str = "repo",
                 protected: Iterable[str] = ()) -> str:
    """A unified diff (``a/`` → ``b/``) of the sandbox's working copy against the original
    repository folder on the host. Binary and very large files are left out."""
    from autointeract.verifiers.repo import host_files

    protected = list(protected)
    before = {k: v for k, v in host_files(original_dir).items() if not _skip(k, protected)}
    res = sandbox.run(["find", ".", "-type", "f"], cwd=repo, timeout_s=30)
    after_names = sorted({posixpath.normpath(ln.strip()) for ln in res.stdout.splitlines()
                          if ln.strip()} - {"."})
    after_names = [n for n in after_names if not _skip(n, protected)]
    chunks: list[str] = []
    for name in sorted(set(before) | set(after_names)):
        old = _text(before.get(name)) if name in before else []
        new: list[str] | None = []
        if name in after_names:
            try:
                new = _text(sandbox.read_file(posixpath.join(repo, name)))
            except (OSError, ValueError):
                new = None
        if old is None or new is None or old == new:
            continue
        a = f"a/{name}" if name in before else "/dev/null"
        b = f"b/{name}" if name in after_names else "/dev/null"
        chunks.append(f"diff --git a/{name} b/{name}\n")
        for line in difflib.unified_diff(old, new, a, b, n=3):
            chunks.append(line if line.endswith("\n") else line + "\n")
    return "".join(chunks)


def _working_copy(sandbox: Sandbox, repo: str) -> str:
    """Where the task's repository lies in the sandbox: ``repo`` itself, or its
    ``environment/repo`` when the whole SWE-Together task folder was copied in."""
    try:
        sandbox.read_file(posixpath.join(repo, "task.toml"))
    except (OSError, ValueError):
        return repo
    return posixpath.join(repo, "environment", "repo")


def eval_verifier(*, docker_ok: bool, repo: str = "repo", base: Verifier | None = None,
                  record_diff: bool = True) -> Verifier:
    """The evaluation's verifier: ``base`` (default: the task's own), except that
    docker-bound tasks are unverified without a docker engine, a backend that cannot run
    the check gives an unverified verdict, and repository checks record their diff."""
    run = base or (lambda t, s, b: sandbox_verifier(t, s, b, repo=repo))

    def verify(task: TaskSpec, solution: str | None, sandbox: Sandbox) -> VerifierResult:
        if docker_bound(task) and not docker_ok:
            return unverified("no docker engine reachable: docker-bound task not verified")
        try:
            res = run(task, solution, sandbox)
        except (SandboxUnavailable, ConfigError) as exc:
            return unverified(f"verifier could not run: {exc}")
        ws = task.verifier.meta.get("workspace_dir")
        if record_diff and is_repo_task(task) and ws and Path(ws).is_dir():
            try:
                diff = working_diff(sandbox, ws, repo=_working_copy(sandbox, repo),
                                    protected=task.verifier.protected_paths)
            except (OSError, ValueError) as exc:  # a diff is a nice-to-have, never fatal
                diff, res.meta["diff_error"] = None, str(exc)[:200]
            res.meta["diff"] = diff
        return res

    return verify


class HideUnverified:
    """A user simulator wrapper that never shows the user a check that could not run.

    Args:
        inner: the simulator (its ``name`` and ``profile`` are passed through).
    """

    def __init__(self, inner: UserSimulator):
        self.inner = inner
        self.name = inner.name
        self.profile: Any = getattr(inner, "profile", None)

    def init_state(self, task: TaskSpec, *, seed: int) -> Any:
        return self.inner.init_state(task, seed=seed)

    async def first_turn(self, state: Any) -> tuple[UserTurn, Any]:
        return await self.inner.first_turn(state)

    async def respond(self, obs: UserObservation, state: Any) -> tuple[UserTurn, Any]:
        if obs.check is not None and not obs.check.verified:
            obs = replace(obs, check=None, failing_requirements=[])
        return await self.inner.respond(obs, state)
