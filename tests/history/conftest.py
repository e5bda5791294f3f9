"""Fixtures for the history tests: the shipped sample, task-folder and parquet builders."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sessions"


@pytest.fixture
def sample_dir() -> Path:
    return SAMPLE


@pytest.fixture
def shared_tasks() -> Path:
    env = os.environ.get("AUTOINTERACT_SWE_TOGETHER")
    if not env:
        pytest.skip("AUTOINTERACT_SWE_TOGETHER is not set (path to the SWE-Together tasks dir)")
    p = Path(env)
    if not p.is_dir():
        pytest.skip(f"AUTOINTERACT_SWE_TOGETHER={env} is not a directory")
    return p


def msg(role: str, content: Any, ts: str = "2025-01-01T00:00:00Z", **extra: Any) -> dict[str, Any]:
    return {"role": role, "content": content, "timestamp": ts, **extra}


GOOD_MESSAGES = [
    msg("user", "fix the login bug in auth.py"),
    msg("assistant", [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "auth.py"}}]),
    msg("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "def login(): ..."}]),
    msg("assistant", [{"type": "text", "text": "Fixed it."}]),
    msg("user", "thanks"),
]


@pytest.fixture(name="msg")
def msg_fixture() -> Callable[..., dict[str, Any]]:
    """The raw-message builder ``msg(role, content, ts=..., **extra)``."""
    return msg


@pytest.fixture
def make_task(tmp_path: Path) -> Callable[..., Path]:
    """Write a task folder: ``make_task(name, messages=..., raw=bytes)``."""

    def make(name: str, messages: list[Any] | None = None, *, raw: bytes | None = None,
             root: Path | None = None) -> Path:
        d = (root or tmp_path / "tasks") / name
        d.mkdir(parents=True, exist_ok=True)
        body = raw if raw is not None else json.dumps(
            {"session_id": name, "messages": GOOD_MESSAGES if messages is None else messages}).encode()
        (d / "original_session.json").write_bytes(body)
        return d

    return make
