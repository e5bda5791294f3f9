"""How the episode loop checks a solution, and what the user learns from a check. Pure
helpers plus the default verifier (which runs code: call it in a worker thread).

A verifier is any ``(task, solution, sandbox) -> VerifierResult`` callable. The default,
:func:`sandbox_verifier`, judges stdin/functional tasks in a fresh local sandbox (so the
agent's sandbox state cannot leak into grading) and runs repository tests in the episode's
sandbox. :func:`reference_verifier` is an in-process fake for tests and benchmarks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from autointeract.sandbox.base import Sandbox
from autointeract.types import CriterionResult, TaskSpec, VerifierResult

Verifier = Callable[[TaskSpec, "str | None", Sandbox], VerifierResult]
_TEST_NAME = re.compile(r"^test_(\d+)$")
F = TypeVar("F", bound=Callable[..., VerifierResult])


def pure_verifier(fn: F) -> F:
    """Mark a verifier that runs nothing (no process, no I/O): the loop calls it inline
    instead of in a worker thread."""
    fn.pure = True  # type: ignore[attr-defined]
    return fn


def is_pure(fn: Callable[..., object]) -> bool:
    return bool(getattr(fn, "pure", False))


def is_repo_task(task: TaskSpec) -> bool:
    return task.verifier.kind in ("repo", "swebench")


def no_solution(task: TaskSpec) -> VerifierResult:
    """The verdict of an episode that produced nothing to check (every test fails)."""
    n = max(1, len(task.verifier.tests))
    return VerifierResult(criteria=[CriterionResult(name=f"test_{i}", passed=False,
                                                    verdict="NONE", detail="no solution")
                                    for i in range(n)], error="no solution", meta={"kind": "none"})


def sandbox_verifier(task: TaskSpec, solution: str | None, sandbox: Sandbox,
                     *, repo: str = "repo") -> VerifierResult:
    """The task's own verifier (``autointeract.verifiers.verify``). Blocking."""
    from autointeract.verifiers import verify

    if is_repo_task(task):
        return verify(task.verifier, sandbox=sandbox, repo=repo)
    if solution is None:
        return no_solution(task)
    return verify(task.verifier, solution=solution)


@pure_verifier
def reference_verifier(task: TaskSpec, solution: str | None, sandbox: Sandbox) -> VerifierResult:
    """A fake that runs nothing: every test passes iff the solution equals the reference
    (whitespace-normalized). For engine tests and benchmarks."""
    if solution is None:
        return no_solution(task)
    norm = " ".join((solution or "").split())
    ok = bool(task.reference_solution) and norm == " ".join(task.reference_solution.split())
    n = max(1, len(task.verifier.tests))
    return VerifierResult(criteria=[CriterionResult(name=f"test_{i}", passed=ok,
                                                    verdict="AC" if ok else "WA")
                                    for i in range(n)], meta={"kind": "reference"})


def failing_tests(result: VerifierResult) -> set[int]:
    """Indices of failed criteria: ``i`` of a ``test_<i>`` criterion, else its position
    (so a repository's named gates map to ``Requirement.tests`` by order)."""
    out = set()
    for pos, c in enumerate(result.criteria):
        if not c.passed:
            m = _TEST_NAME.match(c.name)
            out.add(int(m.group(1)) if m else pos)
    return out


def failing_requirements(task: TaskSpec, result: VerifierResult) -> list[int]:
    """Requirements whose ``tests`` include a failed test, in order."""
    bad = failing_tests(result)
    return [i for i, r in enumerate(task.requirements) if bad.intersection(r.tests)]
