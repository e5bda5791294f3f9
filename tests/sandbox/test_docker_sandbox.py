from __future__ import annotations

import io
import os
import subprocess
import tarfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from autointeract.errors import SandboxUnavailable
from autointeract.sandbox import make_sandbox
from autointeract.sandbox.base import DockerSandboxConfig
from autointeract.sandbox.docker_sandbox import DockerSandbox, connect


def _engine() -> str | None:
    try:
        connect()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


def test_no_engine_is_one_clear_error(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxUnavailable, match="no docker engine reachable"):
        make_sandbox("docker")


def test_unreachable_tcp_engine_is_the_same_error():
    with pytest.raises(SandboxUnavailable, match="no docker engine reachable"):
        connect("tcp://127.0.0.1:9")


class _FakeContainer:
    """Executes locally: the container's work dir is a temp dir of this machine."""

    def __init__(self) -> None:
        self.removed = False

    def exec_run(self, cmd, environment=None, demux=False):
        env = {"PATH": "/usr/bin:/bin", **(environment or {})}
        proc = subprocess.run(cmd, env=env, capture_output=True, check=False)
        return SimpleNamespace(exit_code=proc.returncode, output=proc.stdout)

    def put_archive(self, path, data):
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(path, filter="data")
        return True

    def get_archive(self, path):
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            tar.add(path, arcname=os.path.basename(path))
        return [buf.getvalue()], {}

    def remove(self, force=False):
        self.removed = True


class _FakeClient:
    def __init__(self) -> None:
        self.kwargs: dict = {}
        self.box = _FakeContainer()
        self.containers = SimpleNamespace(run=self._run)

    def _run(self, image, command, **kwargs):
        self.kwargs = {"image": image, "command": command, **kwargs}
        return self.box


def test_docker_sandbox_logic_against_a_local_fake_engine(tmp_path: Path):
    client = _FakeClient()
    cfg = DockerSandboxConfig(workdir=str(tmp_path), memory_mb=256, capture_kb=1)
    with DockerSandbox(cfg, client=client) as sb:
        assert client.kwargs["network_disabled"] is True
        assert client.kwargs["mem_limit"] == "256m" and client.kwargs["pids_limit"] == 256
        sb.write_file("a/b.txt", "hi")
        assert sb.read_file("a/b.txt") == b"hi"
        res = sb.run("cat a/b.txt; echo err >&2; exit 4")
        assert res.exit_code == 4 and res.stdout == "hi" and res.stderr == "err\n"
        res = sb.run(["sh", "-c", "tr a-z A-Z"], stdin="shout")
        assert res.stdout == "SHOUT"
        res = sb.run("head -c 5000 /dev/zero")
        assert res.stdout_truncated and res.stdout_bytes == 5000 and len(res.stdout) == 1024
        res = sb.run("sleep 5", timeout_s=0.3)
        assert res.limit == "wall" and res.signal == 9
        with pytest.raises(ValueError):
            sb.read_file("../escape")
    assert client.box.removed


@pytest.mark.docker
@pytest.mark.skipif(_engine() is not None, reason=f"no docker engine: {_engine()}")
def test_real_engine_runs_without_network():  # pragma: no cover - needs an engine
    with make_sandbox({"kind": "docker", "image": "python:3.11-slim"}) as sb:
        res = sb.run(["python3", "-c", "import socket; socket.create_connection(('1.1.1.1', 53), 2)"])
        assert res.exit_code != 0
