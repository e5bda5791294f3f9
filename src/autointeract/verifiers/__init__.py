"""Verifiers: running (side effects, in a sandbox) is separate from grading (pure).

* :mod:`~autointeract.verifiers.judge` — stdin and functional competitive-programming tests.
* :mod:`~autointeract.verifiers.repo` — a repository's test script and its gates.
* :mod:`~autointeract.verifiers.lcb_format` — LiveCodeBench rows to ``VerifierSpec``.

:func:`verify` dispatches on ``spec.kind``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from autointeract.sandbox.base import Sandbox
    from autointeract.types import VerifierResult, VerifierSpec


def verify(spec: VerifierSpec, *, solution: str | None = None, sandbox: Sandbox | None = None,
           repo: str = ".") -> VerifierResult:
    """Check a submission against ``spec``.

    Args:
        spec: ``stdin``/``functional`` (needs ``solution``) or ``repo`` (needs ``sandbox``
            holding the working copy at ``repo``).
        solution: the Python source, for judge specs.
        sandbox: where to run; for judge specs a fresh local sandbox when omitted.
        repo: the repository's path inside the sandbox, for repo specs.

    Raises:
        ConfigError: a missing argument or an unsupported kind.
    """
    from autointeract.errors import ConfigError

    if spec.kind in ("stdin", "functional"):
        from autointeract.verifiers.judge import judge

        if solution is None:
            raise ConfigError("a judge spec needs a solution", field="solution")
        return judge(spec, solution, sandbox=sandbox)
    if spec.kind == "repo":
        from autointeract.verifiers.repo import verify_repo

        if sandbox is None:
            raise ConfigError("a repo spec needs the sandbox holding the working copy",
                              field="sandbox")
        return verify_repo(spec, sandbox, repo=repo)
    raise ConfigError(f"no verifier for kind '{spec.kind}' here", field="verifier.kind")


__all__ = ["verify"]
