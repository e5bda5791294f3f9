"""Repository verifier: run a task's test script against a working copy, read its gates.

Running (side effects): restore the protected test files from the pristine repo, then run
``spec.test_command`` in the sandbox with ``AUTOINTERACT_VERIFIER_DIR`` pointing at a fresh
directory, then read ``gates.json`` and ``reward.txt`` from it (SWE-Together writes the same
files to ``/logs/verifier``; set ``log_dir`` for such images). Grading is pure:
:func:`grade_repo` turns what was read into a ``VerifierResult``.

Protected paths (``spec.protected_paths``, default ``tests``, ``conftest.py``,
``pytest.ini``) are made identical to the pristine copy, including removing files the
solution added there (a planted ``conftest.py`` could force every test to pass). Edits to
them are reported in ``meta.tampered``; with ``tamper_policy="fail"`` they also zero the
result. Limitation: code under test runs inside the test process, so it could write the
gates file itself; the trusted script must write it last (truncating). A script that
writes nothing fails (the exit code alone is trusted only with ``exit_code_fallback``).
"""

from __future__ import annotations

import json
import posixpath
import secrets
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from autointeract.config import StrictModel
from autointeract.errors import ConfigError
from autointeract.sandbox.base import ExecResult, Sandbox
from autointeract.types import CriterionResult, VerifierResult, VerifierSpec

VERIFIER_ENV = "AUTOINTERACT_VERIFIER_DIR"
DEFAULT_PROTECTED = ("tests", "conftest.py", "pytest.ini")
_SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".sandbox"}


class RepoVerifierConfig(StrictModel):
    """Options of the repository verifier."""

    timeout_s: float = 600.0
    log_dir: str | None = None
    tamper_policy: Literal["restore", "fail"] = "restore"
    pass_threshold: float = 1.0
    exit_code_fallback: bool = False


class RepoRun(BaseModel):
    """What running a repository's tests captured."""

    exec: ExecResult
    gates_json: str | None = None
    reward_txt: str | None = None
    tampered: list[str] = Field(default_factory=list)


def host_files(root: str | Path, rel: str = ".") -> dict[str, bytes]:
    """Files under ``root/rel`` on this machine, keyed by path relative to ``root``."""
    base = Path(root)
    start = base / rel
    if start.is_file():
        return {rel: start.read_bytes()}
    out = {}
    for path in sorted(start.rglob("*")) if start.is_dir() else []:
        parts = path.relative_to(base).parts
        if path.is_file() and not _SKIP_DIRS.intersection(parts):
            out["/".join(parts)] = path.read_bytes()
    return out


def copy_into(sandbox: Sandbox, src: str | Path, *, dest: str = ".") -> int:
    """Copy a local directory tree into the sandbox work dir; returns the file count."""
    files = host_files(src)
    for rel, data in files.items():
        sandbox.write_file(posixpath.normpath(posixpath.join(dest, rel)), data)
    return len(files)


def _sandbox_files(sandbox: Sandbox, repo: str, rel: str) -> list[str]:
    path = posixpath.normpath(posixpath.join(repo, rel))
    res = sandbox.run(["find", path, "!", "-type", "d"], timeout_s=30, capture_bytes=1 << 22)
    prefix = posixpath.normpath(repo) + "/" if posixpath.normpath(repo) != "." else ""
    out = []
    for line in res.stdout.splitlines():
        line = posixpath.normpath(line.strip())
        if line and not line.startswith(".."):
            out.append(line[len(prefix):] if prefix and line.startswith(prefix) else line)
    return out


def restore_protected(sandbox: Sandbox, *, pristine_dir: str | Path, protected: list[str],
                      repo: str = ".") -> list[str]:
    """Make each protected path in the sandbox repo equal to the pristine copy.

    Returns:
        The protected files that differed (edited, added or deleted), sorted.
    """
    tampered: set[str] = set()
    for rel in protected:
        want = host_files(pristine_dir, rel)
        have = _sandbox_files(sandbox, repo, rel)
        tampered.update(set(have) ^ set(want))
        for name in set(have) & set(want):
            try:
                same = sandbox.read_file(posixpath.join(repo, name)) == want[name]
            except (OSError, ValueError):
                same = False
            if not same:
                tampered.add(name)
        sandbox.run(["rm", "-rf", "--", posixpath.normpath(posixpath.join(repo, rel))],
                    timeout_s=30)
        for name, data in want.items():
            sandbox.write_file(posixpath.normpath(posixpath.join(repo, name)), data)
    return sorted(tampered)


def _cat(sandbox: Sandbox, path: str) -> str | None:
    res = sandbox.run(["cat", "--", path], timeout_s=30, capture_bytes=1 << 20)
    return res.stdout if res.exit_code == 0 else None


def run_repo_verifier(spec: VerifierSpec, sandbox: Sandbox, *, repo: str = ".",
                      config: RepoVerifierConfig | None = None) -> RepoRun:
    """Restore protected files, run ``spec.test_command``, read gates and reward.

    Args:
        spec: kind ``repo``; ``repo_dir`` is the pristine copy on this machine.
        sandbox: holds the solution's working copy at ``repo`` (relative to its work dir).
        repo: where the repository lies in the sandbox.
        config: verifier options.

    Raises:
        ConfigError: no ``test_command`` or no pristine ``repo_dir``.
    """
    cfg = config or RepoVerifierConfig()
    if not spec.test_command:
        raise ConfigError("a repo spec needs test_command", field="verifier.test_command")
    if not spec.repo_dir or not Path(spec.repo_dir).is_dir():
        raise ConfigError(f"pristine repo_dir not found: {spec.repo_dir}",
                          field="verifier.repo_dir")
    protected = list(spec.protected_paths or DEFAULT_PROTECTED)
    tampered = restore_protected(sandbox, pristine_dir=spec.repo_dir, protected=protected,
                                 repo=repo)
    log_dir = cfg.log_dir or posixpath.join(sandbox.workdir, f".verifier-{secrets.token_hex(8)}")
    sandbox.run(["sh", "-c", 'rm -rf -- "$1" && mkdir -p -- "$1"', "sh", log_dir], timeout_s=30)
    ex = sandbox.run(spec.test_command, cwd=None if repo in (".", "") else repo,
                     env={VERIFIER_ENV: log_dir}, timeout_s=cfg.timeout_s)
    return RepoRun(exec=ex, gates_json=_cat(sandbox, f"{log_dir}/gates.json"),
                   reward_txt=_cat(sandbox, f"{log_dir}/reward.txt"), tampered=tampered)


# -- grading (pure) --------------------------------------------------------------------


def _gate(name: str, value: Any, threshold: float) -> tuple[CriterionResult, float | None]:
    weight = None
    if isinstance(value, dict):
        weight = value.get("weight")
        for key in ("passed", "pass", "ok", "status", "score", "value"):
            if key in value:
                value = value[key]
                break
    if isinstance(value, str):
        passed = value.strip().lower() in ("pass", "passed", "ok", "true", "success", "1")
        return CriterionResult(name=name, passed=passed, verdict="PASS" if passed else "FAIL",
                               detail=value), weight
    if isinstance(value, bool) or value is None:
        passed = bool(value)
        return CriterionResult(name=name, passed=passed,
                               verdict="PASS" if passed else "FAIL"), weight
    if isinstance(value, int | float):
        passed = float(value) >= threshold
        return CriterionResult(name=name, passed=passed, verdict="PASS" if passed else "FAIL",
                               detail=f"score={float(value):g}"), weight
    raise ValueError(f"gate '{name}': unsupported value {value!r:.60}")


def parse_gates(text: str, *,
                threshold: float = 1.0) -> tuple[list[CriterionResult], dict[str, float]]:
    """Parse ``gates.json``: ``{name: bool|score|{passed|score, weight}}`` or a list of
    ``{id|name, passed|score, weight}`` (optionally wrapped in ``{"gates": ...}``).

    Raises:
        ValueError: not JSON or an unsupported shape.
    """
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get("gates"), list | dict):
        data = data["gates"]
    if isinstance(data, dict):
        items = list(data.items())
    elif isinstance(data, list):
        items = []
        for i, g in enumerate(data):
            if isinstance(g, dict):
                items.append((str(g.get("id") or g.get("name") or g.get("gate") or f"gate_{i}"), g))
            elif isinstance(g, list | tuple) and len(g) == 2:
                items.append((str(g[0]), g[1]))
            else:
                raise ValueError(f"gate {i}: unsupported entry {g!r:.60}")
    else:
        raise ValueError("gates.json must be an object or a list")
    crits, weights = [], {}
    for name, value in items:
        crit, weight = _gate(name, value, threshold)
        crits.append(crit)
        if isinstance(weight, int | float):
            weights[name] = float(weight)
    return crits, weights


def grade_repo(run: RepoRun, *, tamper_policy: str = "restore", threshold: float = 1.0,
               exit_code_fallback: bool = False) -> VerifierResult:
    """Grade a repository run. Pure. Gates win; else ``reward.txt``; else nothing passes.

    The exit code counts only with ``exit_code_fallback``: code under test runs inside the
    test process, so a solution that exits 0 early would otherwise pass.
    """
    ex, meta = run.exec, {"tampered": run.tampered, "exit_code": run.exec.exit_code}
    if ex.limit == "spawn":
        return VerifierResult(verified=False, error=ex.error or "test command did not start",
                              meta=meta)
    reward = None
    if run.reward_txt is not None:
        try:
            reward = float(run.reward_txt.strip().splitlines()[0])
        except (ValueError, IndexError):
            meta["reward_error"] = f"unreadable reward.txt: {run.reward_txt[:60]!r}"
    meta["reward"] = reward
    crits: list[CriterionResult] = []
    if run.gates_json is not None:
        try:
            crits, weights = parse_gates(run.gates_json, threshold=threshold)
        except (ValueError, TypeError) as exc:
            return VerifierResult(verified=False, error=f"gates.json: {exc}", meta=meta)
        if weights:
            total = sum(weights.values()) or 1.0
            meta["weighted_score"] = sum(w for n, w in weights.items()
                                         if any(c.name == n and c.passed for c in crits)) / total
    elif reward is not None:
        crits = [CriterionResult(name="reward", passed=reward >= threshold,
                                 verdict="PASS" if reward >= threshold else "FAIL",
                                 detail=f"reward={reward:g}")]
    else:
        ok = exit_code_fallback and ex.exit_code == 0 and ex.limit is None
        why = f"limit: {ex.limit}" if ex.limit else f"exit {ex.exit_code}"
        if not exit_code_fallback:
            why = f"no gates.json or reward.txt written ({why})"
        crits = [CriterionResult(name="test_command", passed=ok, verdict="PASS" if ok else "FAIL",
                                 detail=why, time_s=round(ex.wall_s, 3))]
    if ex.limit in ("wall", "cpu"):
        meta["timed_out"] = True
    if run.tampered and tamper_policy == "fail":
        crits = [c.model_copy(update={"passed": False, "verdict": "TAMPERED"}) for c in crits]
    return VerifierResult(criteria=crits, meta=meta)


def verify_repo(spec: VerifierSpec, sandbox: Sandbox, *, repo: str = ".",
                config: RepoVerifierConfig | None = None) -> VerifierResult:
    """Run and grade a repository task (see :func:`run_repo_verifier`)."""
    cfg = config or RepoVerifierConfig()
    run = run_repo_verifier(spec, sandbox, repo=repo, config=cfg)
    return grade_repo(run, tamper_policy=cfg.tamper_policy, threshold=cfg.pass_threshold,
                      exit_code_fallback=cfg.exit_code_fallback)
