from __future__ import annotations

import os
from pathlib import Path

import pytest

from autointeract.sandbox import Sandbox, make_sandbox
from autointeract.sandbox.base import LocalSandboxConfig
from autointeract.sandbox.local import LocalSandbox


def test_satisfies_protocol_and_runs_argv_and_shell(sb):
    assert isinstance(sb, Sandbox)
    res = sb.run([sb.python, "-c", "import sys; print(sys.stdin.read().upper())"], stdin="abc")
    assert res.ok and res.stdout == "ABC\n"
    res = sb.run("echo out; echo err >&2; exit 3")
    assert res.exit_code == 3 and res.stdout == "out\n" and res.stderr == "err\n"
    assert not res.ok and res.limit is None


def test_files_roundtrip_and_cwd(sb):
    sb.write_file("pkg/data.txt", "hello")
    assert sb.read_file("pkg/data.txt") == b"hello"
    res = sb.run("cat data.txt && echo made > new.txt", cwd="pkg")
    assert res.stdout == "hello"
    assert sb.read_file("pkg/new.txt") == b"made\n"
    res = sb.run(["cat", "f.txt"], files={"f.txt": b"given"})
    assert res.stdout == "given"


def test_full_output_is_kept_in_the_workdir_and_the_head_returned(sb):
    res = sb.run([sb.python, "-c", "print('x' * 100_000)"])
    assert res.stdout_truncated and len(res.stdout) == 16 * 1024
    assert res.stdout_bytes == 100_001
    full = sb.read_file(res.stdout_path)
    assert len(full) == 100_001
    assert res.stdout_path.startswith(".sandbox/")


def test_capture_bytes_override(sb):
    res = sb.run(["echo", "0123456789"], capture_bytes=4)
    assert res.stdout == "0123" and res.stdout_truncated


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../../x", ""])
def test_paths_cannot_escape(sb, bad):
    with pytest.raises(ValueError):
        sb.write_file(bad, "x")
    with pytest.raises(ValueError):
        sb.read_file(bad)


def test_symlink_planted_by_the_child_does_not_escape(sb):
    sb.run(["ln", "-s", "/etc", "etc_link"])
    with pytest.raises(ValueError):
        sb.read_file("etc_link/hostname")
    with pytest.raises(ValueError):
        sb.write_file("etc_link/evil", "x")
    sb.run(["ln", "-s", "/etc/hostname", "host_link"])
    with pytest.raises(OSError):  # O_NOFOLLOW on the last component
        sb.read_file("host_link")


def test_missing_program_is_a_result_not_an_exception(sb):
    res = sb.run(["/no/such/program"])
    assert res.exit_code == 127 and res.limit == "spawn" and res.error


def test_close_removes_the_workdir_and_refuses_runs(make_local):
    sbx = make_local()
    wd = Path(sbx.workdir)
    assert wd.is_dir()
    sbx.close()
    assert not wd.exists()
    with pytest.raises(Exception, match="closed"):
        sbx.run("true")


def test_make_sandbox_by_name_and_dict():
    sbx = make_sandbox({"kind": "local", "timeout_s": 2})
    try:
        assert isinstance(sbx, LocalSandbox) and sbx.config.timeout_s == 2
    finally:
        sbx.close()
    from autointeract.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown sandbox"):
        make_sandbox("podman")
    with pytest.raises(ConfigError, match="timeout"):
        make_sandbox({"kind": "local", "timeout": 3})


def test_isolation_report_is_honest(sb):
    iso = sb.isolation()
    assert iso.network_reason  # says why, either way
    if os.geteuid() == 0:
        assert iso.unprivileged_user and iso.process_limit


def test_no_network_isolation_when_disabled(make_local):
    iso = make_local(isolate_network=False).isolation()
    assert not iso.network_isolated and "disabled" in iso.network_reason


def test_required_network_isolation_raises_clearly(monkeypatch):
    from autointeract.errors import SandboxUnavailable
    from autointeract.sandbox import limits

    monkeypatch.setattr(limits, "probe_network", lambda flags: (False, "unshare: EPERM"))
    with pytest.raises(SandboxUnavailable, match="EPERM"):
        LocalSandbox(LocalSandboxConfig(require_network_isolation=True))
