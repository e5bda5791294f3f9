"""Fixtures for the users tests: toy sessions, a cache-less client, the shared task folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.types import Message, Session


TERSE_PUSHBACK = ["no thats still broken tests failing", "no still broken the tests fail",
                  "no its broken fix the tests", "no still failing fix it", "no tests still failing"]


def toy_session(i: int, turns: list[str] | None = None) -> Session:
    """A session whose real user is terse, lowercase and always pushes back."""
    msgs = [Message(role="user", content=f"fix the parser bug number {i}")]
    for k, real in enumerate(turns or TERSE_PUSHBACK):
        msgs.append(Message(role="assistant", content=f"I fixed it (attempt {k}). All done!"))
        msgs.append(Message(role="user", content=real))
    return Session(id=f"s{i}", messages=msgs)


@pytest.fixture
def toy_sessions() -> list[Session]:
    return [toy_session(i) for i in range(6)]


@pytest.fixture
def client() -> LLMClient:
    return LLMClient(LLMConfig(cache_dir=None, max_retries=1, backoff_base_s=0.01))


@pytest.fixture
def shared_tasks() -> Path:
    """The shared SWE-Together tasks folder (skips when ``AUTOINTERACT_SWE_TOGETHER`` is unset)."""
    where = os.environ.get("AUTOINTERACT_SWE_TOGETHER", "")
    if not where or not Path(where).is_dir():
        pytest.skip(f"AUTOINTERACT_SWE_TOGETHER={where!r} is not a SWE-Together tasks folder")
    return Path(where)
