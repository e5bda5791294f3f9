"""Helpers of the eval tests: scripted agents that solve (or fail) the builtin problems."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from autointeract.rollout.fakes import ScriptedAgent
from autointeract.scenarios import load_tasks
from autointeract.types import Message


@pytest.fixture(scope="session")
def references() -> dict[str, str]:
    """Reference solutions of the builtin problems, by their opening message."""
    return {t.initial_message: t.reference_solution or "" for t in load_tasks("builtin")}


def submit(code: str) -> str:
    return f"Here it is.\nSUBMIT\n```python\n{code}\n```"


def solver(references: dict[str, str], *, solve: Callable[[str], bool]) -> Callable:
    """An action that submits the reference when ``solve(opening)``, else a wrong program."""
    def act(messages: list[Message]) -> str:
        opening = messages[0].content
        if solve(opening):
            return submit(references[opening])
        return submit("def solve(*args):\n    return 42\n")
    return act


@pytest.fixture
def make_solver(references: dict[str, str]) -> Callable[..., Callable]:
    """``make_solver(solve=...)``: an action that solves the openings ``solve`` accepts."""
    return lambda *, solve: solver(references, solve=solve)


@pytest.fixture
def good_agent(references: dict[str, str]) -> ScriptedAgent:
    return ScriptedAgent([solver(references, solve=lambda _: True)], name="good")


@pytest.fixture
def bad_agent(references: dict[str, str]) -> ScriptedAgent:
    return ScriptedAgent([solver(references, solve=lambda _: False)], name="bad")
