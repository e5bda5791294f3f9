"""A scripted sandbox for testing later stages without running anything.

Results are matched to commands by a predicate or a substring, first match wins; files live
in a dict. Every call is recorded in ``calls`` so tests can assert on what was run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from autointeract.sandbox.base import ExecResult, FakeSandboxConfig, Isolation

Matcher = str | Callable[[str, bytes], bool]


@dataclass
class FakeCall:
    """One recorded ``run``: the command as one string, stdin, cwd and timeout."""

    cmd: str
    stdin: bytes
    cwd: str | None
    timeout_s: float | None


@dataclass
class FakeSandbox:
    """A :class:`~autointeract.sandbox.base.Sandbox` whose results are scripted.

    Args:
        script: ``(matcher, result)`` pairs; a ``str`` matcher matches when it occurs in
            the command line, a callable gets ``(command, stdin)``.
        default: the result when nothing matches (exit 0, empty output).
        files: initial work-dir files.
    """

    script: list[tuple[Matcher, ExecResult]] = field(default_factory=list)
    default: ExecResult = field(default_factory=lambda: ExecResult(exit_code=0))
    files: dict[str, bytes] = field(default_factory=dict)
    calls: list[FakeCall] = field(default_factory=list)
    config: FakeSandboxConfig = field(default_factory=FakeSandboxConfig)
    closed: bool = False

    @property
    def workdir(self) -> str:
        return "/fake"

    @property
    def python(self) -> str:
        return "python3"

    def isolation(self) -> Isolation:
        return Isolation(network_isolated=True, network_reason="fake: nothing runs",
                         unprivileged_user=True, process_limit=True, filesystem="in memory")

    def run(self, cmd: str | Sequence[str], *, stdin: str | bytes | None = None,
            timeout_s: float | None = None, env: Mapping[str, str] | None = None,
            cwd: str | None = None, files: Mapping[str, str | bytes] | None = None,
            capture_bytes: int | None = None) -> ExecResult:
        line = cmd if isinstance(cmd, str) else " ".join(str(a) for a in cmd)
        data = stdin.encode() if isinstance(stdin, str) else (stdin or b"")
        for name, blob in (files or {}).items():
            self.write_file(name, blob)
        self.calls.append(FakeCall(cmd=line, stdin=data, cwd=cwd, timeout_s=timeout_s))
        for matcher, result in self.script:
            hit = matcher in line if isinstance(matcher, str) else matcher(line, data)
            if hit:
                return result.model_copy(deep=True)
        return self.default.model_copy(deep=True)

    def write_file(self, path: str, data: str | bytes, *, mode: int = 0o644) -> None:
        self.files[path] = data.encode() if isinstance(data, str) else data

    def read_file(self, path: str) -> bytes:
        if path not in self.files:
            raise FileNotFoundError(path)
        return self.files[path]

    def close(self) -> None:
        self.closed = True
