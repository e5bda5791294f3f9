"""The competitive-programming judge: run a solution on every test (side effects), then
grade the captured runs (a pure function).

    result = judge(task.verifier, solution_code)          # VerifierResult, one criterion/test
    runs = run_tests(spec, code, sandbox=sb)              # or run and grade separately
    result = grade(spec, runs)

Verdicts: AC, WA, TLE, RE, MLE (and SKIP for tests not run after an early stop).
"""

from __future__ import annotations

import json
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from pydantic import BaseModel, Field

from autointeract.config import StrictModel
from autointeract.errors import ConfigError
from autointeract.sandbox.base import ExecResult, LocalSandboxConfig, Sandbox
from autointeract.types import CriterionResult, TestCase, VerifierResult, VerifierSpec
from autointeract.verifiers.compare import parse_expected, stdout_matches, values_match
from autointeract.verifiers.harness import harness_source

SOLUTION_FILE = "solution.py"
VERDICTS = ("AC", "WA", "TLE", "RE", "MLE", "SKIP")
_SYNTAX = ("SyntaxError", "IndentationError", "TabError")


class JudgeConfig(StrictModel):
    """Options of the judge. Limits default to the spec's ``time_limit_s``/``memory_mb``."""

    python: str | None = None
    time_limit_s: float | None = None
    memory_mb: int | None = None
    stop_on_first_failure: bool = False
    batch: bool = True
    workers: int = 1
    rel_tol: float = 1e-6
    abs_tol: float = 1e-9
    sandbox: LocalSandboxConfig = Field(default_factory=lambda: LocalSandboxConfig(
        max_processes=16, max_file_mb=32, capture_kb=64))


class TestRun(BaseModel):
    """What running one test captured (the only input grading needs besides the spec)."""

    __test__ = False

    index: int
    exec: ExecResult | None = None
    nonce: str | None = None
    skipped: bool = False
    reason: str = ""


# -- grading (pure) --------------------------------------------------------------------


def _last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:300] if lines else ""


def _functional_record(ex: ExecResult, nonce: str | None,
                       index: int) -> tuple[dict | None, str]:
    if not nonce:
        return None, "no nonce recorded for this run"
    prefix = f"{nonce} {index} "
    recs = [ln[len(prefix):] for ln in ex.stdout.splitlines() if ln.startswith(prefix)]
    if len(recs) != 1:
        return None, "no result record" if not recs else f"{len(recs)} result records (spoofed?)"
    try:
        rec = json.loads(recs[0])
    except json.JSONDecodeError:
        return None, "malformed result record"
    return (rec, "") if isinstance(rec, dict) else (None, "malformed result record")


def grade_test(test: TestCase, run: TestRun, *, kind: str, show_expected: bool = False,
               rel_tol: float = 1e-6, abs_tol: float = 1e-9) -> CriterionResult:
    """Grade one captured run against its test. Pure: no I/O, deterministic."""
    name = f"test_{run.index}"
    ex = run.exec

    def crit(verdict: str, detail: str = "") -> CriterionResult:
        return CriterionResult(name=name, passed=verdict == "AC", verdict=verdict,
                               detail=detail, time_s=round(ex.wall_s, 4) if ex else None)

    if run.skipped or ex is None:
        return crit("SKIP", run.reason or "not run")
    if ex.limit in ("wall", "cpu"):
        return crit("TLE", f"{ex.limit} time limit")
    if ex.limit == "memory":
        return crit("MLE", _last_line(ex.stderr))
    if ex.limit in ("output", "spawn"):
        return crit("RE", ex.error or f"{ex.limit} limit exceeded")
    if kind == "stdin":
        if ex.exit_code != 0:
            return crit("RE", f"exit {ex.exit_code}: {_last_line(ex.stderr)}")
        if not ex.stdout_truncated and stdout_matches(ex.stdout, test.output):
            return crit("AC")
        shown = f"; expected {test.output.strip()[:80]!r}" if show_expected else ""
        return crit("WA", f"got {ex.stdout.strip()[:80]!r}{shown}")
    rec, why = _functional_record(ex, run.nonce, run.index)
    if rec is None:
        return crit("RE", f"{why} (exit {ex.exit_code}): {_last_line(ex.stderr)}")
    if rec.get("status") != "ok":
        err = str(rec.get("error", ""))[:300]
        return crit("MLE" if err.startswith("MemoryError") else "RE", err)
    if ex.exit_code != 0:
        return crit("RE", f"exit {ex.exit_code} after the result")
    expected = parse_expected(test.output)
    if values_match(rec.get("value"), expected, rel_tol=rel_tol, abs_tol=abs_tol):
        return crit("AC")
    shown = f"; expected {test.output.strip()[:80]!r}" if show_expected else ""
    return crit("WA", f"got {json.dumps(rec.get('value'))[:80]!r}{shown}")


def grade(spec: VerifierSpec, runs: list[TestRun], *, rel_tol: float = 1e-6,
          abs_tol: float = 1e-9) -> VerifierResult:
    """Grade captured runs: one criterion per test of ``spec`` (a missing run fails).

    Expected outputs are shown in details only for public tests (``meta.n_public``).
    """
    by_index = {r.index: r for r in runs}
    n_public = int(spec.meta.get("n_public", 0))
    crits = [grade_test(t, by_index.get(i, TestRun(index=i, skipped=True, reason="no run")),
                        kind=spec.kind, show_expected=i < n_public, rel_tol=rel_tol,
                        abs_tol=abs_tol) for i, t in enumerate(spec.tests)]
    return VerifierResult(criteria=crits, verified=bool(crits),
                          error=None if crits else "spec has no tests",
                          meta={"kind": spec.kind, "verdicts": [c.verdict for c in crits]})


# -- running (side effects) ------------------------------------------------------------


def _check_spec(spec: VerifierSpec) -> None:
    if spec.kind not in ("stdin", "functional"):
        raise ConfigError(f"the judge runs stdin/functional specs, not '{spec.kind}'",
                          field="verifier.kind")
    if spec.kind == "functional" and not spec.func_name:
        raise ConfigError("a functional spec needs func_name", field="verifier.func_name")


def _is_syntax_failure(run: TestRun) -> bool:
    ex = run.exec
    return ex is not None and any(
        f"\n{s}:" in "\n" + ex.stderr or f'"error": "{s}' in ex.stdout for s in _SYNTAX)


def _harness_argv(python: str, spec: VerifierSpec) -> list[str]:
    return [python, "-I", "-c", harness_source(), SOLUTION_FILE, spec.func_name or ""]


def run_one(spec: VerifierSpec, index: int, sandbox: Sandbox, *, python: str,
            timeout_s: float) -> TestRun:
    """Run test ``index`` of ``spec``, isolated, against ``solution.py`` in the sandbox."""
    test = spec.tests[index]
    cap = len(test.output.encode()) * 2 + 4096
    if spec.kind == "stdin":
        ex = sandbox.run([python, "-I", SOLUTION_FILE], stdin=test.input, timeout_s=timeout_s,
                         capture_bytes=cap)
        return TestRun(index=index, exec=ex)
    nonce = secrets.token_hex(16)
    ex = sandbox.run(_harness_argv(python, spec), timeout_s=timeout_s, capture_bytes=cap,
                     stdin=f"{nonce}\n{json.dumps([[index, test.input]])}")
    return TestRun(index=index, exec=ex, nonce=nonce)


def run_batch(spec: VerifierSpec, indices: list[int], sandbox: Sandbox, *, python: str,
              timeout_s: float) -> dict[int, TestRun]:
    """Run many functional tests in one harness process (the fast path).

    Only trustworthy records are kept: exactly one per test, and either a result within the
    per-test time limit or a failure while loading the solution (deterministic). Every
    other test (timed out, crashed, killed with the batch, recorded twice) is left out, to
    be rerun isolated by :func:`run_one`.
    """
    nonce = secrets.token_hex(16)
    cap = sum(len(spec.tests[i].output.encode()) * 2 + 256 for i in indices) + 4096
    budget = min(timeout_s * len(indices), 2 * timeout_s + 0.05 * len(indices)) + 1.0
    ex = sandbox.run(_harness_argv(python, spec), timeout_s=budget, capture_bytes=cap,
                     stdin=f"{nonce}\n{json.dumps([[i, spec.tests[i].input] for i in indices])}")
    lines: dict[int, list[str]] = {}
    for line in ex.stdout.splitlines():
        head, _, rest = line.partition(" ")
        idx, _, body = rest.partition(" ")
        if head == nonce and idx.isdigit():
            lines.setdefault(int(idx), []).append(line)
    out = {}
    for i in indices:
        if len(lines.get(i, [])) != 1:
            continue
        rec, _ = _functional_record(ExecResult(exit_code=0, stdout=lines[i][0]), nonce, i)
        took = rec.get("time") if rec else None
        ok = rec is not None and rec.get("status") == "ok" and isinstance(took, int | float) \
            and took <= timeout_s
        setup = rec is not None and rec.get("status") == "error" and rec.get("setup") is True
        if ok or setup:
            ex_i = ExecResult(exit_code=0, stdout=lines[i][0], wall_s=float(took or 0.0))
            out[i] = TestRun(index=i, exec=ex_i, nonce=nonce)
    return out


def run_tests(spec: VerifierSpec, solution: str, *, sandbox: Sandbox,
              config: JudgeConfig | None = None) -> list[TestRun]:
    """Write the solution into ``sandbox`` and run every test of ``spec``.

    Functional tests first run as one batch (``config.batch``); what the batch could not
    settle runs isolated, one process per test. A syntax error found on the first isolated
    test, or any failure with ``stop_on_first_failure``, marks the remaining tests as
    skipped instead of running them.
    """
    cfg = config or JudgeConfig()
    _check_spec(spec)
    python = cfg.python or getattr(sandbox, "python", "python3")
    timeout = cfg.time_limit_s or spec.time_limit_s
    sandbox.write_file(SOLUTION_FILE, solution)
    n = len(spec.tests)
    done: dict[int, TestRun] = {}
    if spec.kind == "functional" and cfg.batch and n > 1:
        done = run_batch(spec, list(range(n)), sandbox, python=python, timeout_s=timeout)

    def failed(run: TestRun) -> bool:
        return not grade_test(spec.tests[run.index], run, kind=spec.kind, rel_tol=cfg.rel_tol,
                              abs_tol=cfg.abs_tol).passed

    pending = [i for i in range(n) if i not in done]
    stop = ""
    if cfg.stop_on_first_failure and any(failed(r) for r in done.values()):
        stop = "stopped after a failed test"
    if pending and not stop and cfg.workers > 1 and not cfg.stop_on_first_failure:
        with ThreadPoolExecutor(max_workers=cfg.workers) as pool:
            for run in pool.map(lambda i: run_one(spec, i, sandbox, python=python,
                                                  timeout_s=timeout), pending):
                done[run.index] = run
        pending = []
    for k, i in enumerate(pending):
        if stop:
            done[i] = TestRun(index=i, skipped=True, reason=stop)
            continue
        run = done[i] = run_one(spec, i, sandbox, python=python, timeout_s=timeout)
        if k == 0 and _is_syntax_failure(run):
            stop = "solution does not compile"
        elif cfg.stop_on_first_failure and failed(run):
            stop = f"stopped after test {i} failed"
    return [done[i] for i in range(n)]


def judge(spec: VerifierSpec, solution: str, *, sandbox: Sandbox | None = None,
          config: JudgeConfig | None = None) -> VerifierResult:
    """Run and grade ``solution`` on ``spec`` (kind ``stdin`` or ``functional``).

    Args:
        spec: the task's verifier spec (e.g. ``TaskSpec.verifier``).
        solution: Python source.
        sandbox: where to run; default a fresh ``LocalSandbox`` sized from the spec, closed
            afterwards.
        config: judge options.

    Returns:
        One criterion per test; ``meta`` holds verdicts, wall time and the isolation report.

    Raises:
        ConfigError: the spec is not a judge spec.
    """
    from autointeract.sandbox.local import LocalSandbox

    cfg = config or JudgeConfig()
    _check_spec(spec)
    own = sandbox is None
    if sandbox is None:
        sb_cfg = cfg.sandbox.model_copy(update={
            "memory_mb": cfg.memory_mb or spec.memory_mb,
            "timeout_s": cfg.time_limit_s or spec.time_limit_s})
        sandbox = LocalSandbox(sb_cfg)
    t0 = time.perf_counter()
    try:
        runs = run_tests(spec, solution, sandbox=sandbox, config=cfg)
        iso = sandbox.isolation()
    finally:
        if own:
            sandbox.close()
    result = grade(spec, runs, rel_tol=cfg.rel_tol, abs_tol=cfg.abs_tol)
    result.meta.update(wall_s=round(time.perf_counter() - t0, 3),
                       isolation=iso.model_dump())
    return result
