"""Hostile programs: each is contained with a verdict, and the test process is unharmed."""

from __future__ import annotations

import os
import socket
import textwrap

import pytest

from autointeract.sandbox import limits

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="privilege drop needs root")


@pytest.fixture(autouse=True)
def unharmed():
    fds = len(os.listdir("/proc/self/fd"))
    yield
    assert len(os.listdir("/proc/self/fd")) <= fds + 1  # no leaked descriptors
    assert os.getpid() > 0


def _py(sb, code, **kw):
    return sb.run([sb.python, "-c", textwrap.dedent(code)], **kw)


def _left(sb):
    return limits.pids_of_uid(sb._uid) if sb._uid is not None else []


@root_only
def test_fork_bomb_is_capped_and_fully_killed(make_local):
    sb = make_local(max_processes=24, memory_mb=256)
    res = _py(sb, """
        import os
        while True:
            try:
                if os.fork() == 0:
                    os.setsid()          # try to escape the process group
            except OSError:
                pass
    """, timeout_s=1.5)
    assert res.limit in ("wall", "cpu")
    assert _left(sb) == []


def test_background_children_die_with_the_run(sb):
    res = sb.run("sleep 30 & sleep 30", timeout_s=0.5)
    assert res.limit == "wall" and res.wall_s < 3
    assert _left(sb) == []


def test_ten_gigabytes_of_output_hit_the_file_limit(sb):
    res = _py(sb, """
        import sys
        chunk = "x" * (1 << 20)
        for _ in range(10 * 1024):
            sys.stdout.write(chunk)
    """)
    assert res.limit == "output" and not res.ok
    assert res.stdout_bytes <= 8 << 20 and len(res.stdout) <= 16 * 1024
    res = sb.run("yes", timeout_s=5)  # a C program gets SIGXFSZ
    assert res.limit == "output" and res.stdout_bytes <= 8 << 20


def test_infinite_loop_hits_the_wall_clock(sb):
    res = _py(sb, "while True: pass", timeout_s=1)
    assert res.limit == "wall" and 0.9 < res.wall_s < 3


def test_infinite_loop_hits_the_cpu_limit(make_local):
    sb = make_local(cpu_time_s=1)
    res = _py(sb, "while True: pass", timeout_s=8)
    assert res.limit == "cpu" and res.wall_s < 5


def test_allocation_loop_hits_the_memory_limit(sb):
    res = _py(sb, """
        blocks = []
        while True:
            blocks.append(bytearray(16 << 20))
    """)
    assert res.limit == "memory" and "MemoryError" in res.stderr


@root_only
def test_writing_outside_the_workdir_is_refused(sb, tmp_path):
    target = tmp_path / "evil.txt"  # root-owned, like the repo and the home dir
    res = _py(sb, f"""
        import os
        bad = []
        for path in ({str(target)!r}, "/etc/evil.txt", {os.getcwd() + "/evil.txt"!r}):
            try:
                open(path, "w").write("x")
                bad.append(path)
            except OSError:
                pass
        open("inside.txt", "w").write("ok")
        print(bad)
    """)
    assert res.ok and res.stdout.strip() == "[]"
    assert not target.exists() and not os.path.exists("/etc/evil.txt")
    assert sb.read_file("inside.txt") == b"ok"


def test_network_is_cut(sb):
    iso = sb.isolation()
    if not iso.network_isolated:
        pytest.skip(f"no network namespace here: {iso.network_reason}")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        res = _py(sb, f"""
            import socket
            for addr in (("127.0.0.1", {port}), ("1.1.1.1", 53)):
                try:
                    socket.create_connection(addr, timeout=1).close()
                    print("connected", addr)
                except OSError as exc:
                    print("refused", type(exc).__name__)
        """)
    finally:
        server.close()
    assert res.ok and "connected" not in res.stdout
    assert res.stdout.count("refused") == 2


def test_secrets_in_the_parent_env_are_not_inherited(sb, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-123")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-456")
    res = sb.run("env")
    assert res.ok
    assert "secret" not in res.stdout.lower() and "OPENAI" not in res.stdout
    res = sb.run("env", env={"VISIBLE": "1"})
    assert "VISIBLE=1" in res.stdout


@root_only
def test_process_limit_holds_for_the_dedicated_uid(make_local):
    sb = make_local(max_processes=10)
    res = _py(sb, """
        import os, time
        made = 0
        for _ in range(40):
            try:
                if os.fork() == 0:
                    time.sleep(5)
                    os._exit(0)
                made += 1
            except OSError:
                pass
        print(made)
    """, timeout_s=5)
    assert res.ok and 0 < int(res.stdout) < 10
    assert _left(sb) == []
