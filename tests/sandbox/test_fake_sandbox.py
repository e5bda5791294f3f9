from __future__ import annotations

import pytest

from autointeract.sandbox import ExecResult, FakeSandbox, Sandbox, make_sandbox


def test_scripted_results_and_recorded_calls():
    sb = FakeSandbox(script=[("pytest", ExecResult(exit_code=1, stdout="1 failed")),
                             (lambda cmd, stdin: stdin == b"42", ExecResult(exit_code=0, stdout="ok"))])
    assert isinstance(sb, Sandbox)
    assert sb.run("python -m pytest -q").stdout == "1 failed"
    assert sb.run(["python", "x.py"], stdin="42").stdout == "ok"
    assert sb.run("ls").exit_code == 0
    assert [c.cmd for c in sb.calls] == ["python -m pytest -q", "python x.py", "ls"]
    sb.write_file("a.py", "print(1)")
    assert sb.read_file("a.py") == b"print(1)"
    with pytest.raises(FileNotFoundError):
        sb.read_file("missing")


def test_results_are_copies():
    sb = FakeSandbox(default=ExecResult(exit_code=0, stdout="x"))
    sb.run("a").stdout = "mutated"
    assert sb.run("a").stdout == "x"


def test_registry_makes_the_fake():
    assert isinstance(make_sandbox("fake"), FakeSandbox)
