"""Fixtures of the RL tests: builtin tasks as RL rows, a scripted user."""

from __future__ import annotations

import pytest

from autointeract.dataset.rows import RLRow, UserModelRef


@pytest.fixture(scope="session")
def rl_rows() -> list[RLRow]:
    from autointeract.rl.demo_rows import builtin_rl_rows

    return builtin_rl_rows(ids=["count-vowels", "second-largest"], user=UserModelRef(
        kind="scripted", name="scripted", config={"max_turns": 2}))

