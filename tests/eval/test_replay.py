"""The replay user: recorded user turns, in order, with their acts; explicit state."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from autointeract.errors import ConfigError
from autointeract.eval.replay import ReplayUser, load_sessions
from autointeract.rollout.protocols import UserObservation
from autointeract.scenarios import load_tasks
from autointeract.types import CriterionResult, Message, Session, TaskSpec, VerifierResult

ROOT = Path(__file__).resolve().parents[2]
LOCAL = ROOT / "scenarios" / "swetogether_local"


def play(user: ReplayUser, task: TaskSpec, replies: int, **obs: object) -> list:
    async def go() -> list:
        st = user.init_state(task, seed=0)
        turn, st = await user.first_turn(st)
        out = [turn]
        for i in range(replies):
            turn, st = await user.respond(UserObservation(agent_message=f"reply {i}", **obs), st)
            out.append(turn)
        return out
    return asyncio.run(go())


def session(turns: list[str]) -> Session:
    msgs: list[Message] = []
    for i, t in enumerate(turns):
        msgs.append(Message(role="user", content=t))
        msgs.append(Message(role="assistant", content=f"done {i}"))
        msgs.append(Message(role="tool", content="output", meta={"tool_result": True}))
    return Session(id="s1", messages=msgs)


@pytest.fixture
def task() -> TaskSpec:
    return load_tasks("builtin")[1]


def test_replays_turns_in_order_with_acts(task: TaskSpec) -> None:
    s = session(["add a retry to the uploader", "no, that's wrong, use exponential backoff",
                 "it still fails with a Traceback", "thanks, looks good"])
    user = ReplayUser({task.task_id: s})
    turns = play(user, task, 3)
    assert [t.content for t in turns] == [m.content for m in s.user_turns()]
    assert [t.act for t in turns] == ["request", "correction", "failure_report", "approval"]
    assert turns[-1].stop and not any(t.stop for t in turns[:-1])   # closing approval ends it
    assert turns[1].meta["replay_source"] == "session:s1"


def test_stops_when_turns_run_out(task: TaskSpec) -> None:
    user = ReplayUser({task.task_id: session(["do X", "now also do Y"])})
    turns = play(user, task, 3)
    assert [t.content for t in turns[:2]] == ["do X", "now also do Y"]
    assert not turns[1].stop                       # the agent still answers a closing request
    assert turns[2].stop and turns[2].meta["reason"] == "replay_exhausted"
    assert turns[3].stop and turns[3].content == ""


def test_stop_on_pass(task: TaskSpec) -> None:
    ok = VerifierResult(criteria=[CriterionResult(name="t", passed=True)])
    user = ReplayUser({task.task_id: session(["a", "b", "c"])}, stop_on_pass=True)
    turns = play(user, task, 1, check=ok)
    assert turns[1].stop and turns[1].act == "approval"
    unverified = VerifierResult(verified=False)
    turns = play(user, task, 1, check=unverified)
    assert not turns[1].stop and turns[1].content == "b"


def test_task_without_session_replays_requirements_or_raises(task: TaskSpec) -> None:
    turns = play(ReplayUser(), task, len(task.requirements) + 1)
    assert turns[0].content == task.initial_message
    assert [t.content for t in turns[1:-1]] == [r.text for r in task.requirements]
    assert turns[-1].stop
    with pytest.raises(ConfigError, match="no recorded session"):
        ReplayUser(missing="error").init_state(task, seed=0)


def test_state_is_explicit_and_replayable(task: TaskSpec) -> None:
    user = ReplayUser({task.task_id: session(["a", "b", "c"])})
    st0 = user.init_state(task, seed=0)

    async def twice() -> tuple:
        _, st1 = await user.first_turn(st0)
        t_a, _ = await user.respond(UserObservation(agent_message="x"), st1)
        t_b, _ = await user.respond(UserObservation(agent_message="y"), st1)
        return st0, st1, t_a, t_b
    s0, s1, a, b = asyncio.run(twice())
    assert s0.played == 0 and s1.played == 1 and a.content == b.content == "b"


def test_local_swetogether_task_uses_its_recorded_session() -> None:
    task = load_tasks("swetogether", str(LOCAL))[0]
    turns = play(ReplayUser(), task, 5)
    assert turns[0].content.startswith("can you add a max_length option")
    assert turns[0].meta["replay_source"].startswith("session:")
    assert turns[3].act == "approval" and turns[3].stop


def test_load_sessions_by_task_id() -> None:
    sessions = load_sessions(LOCAL)
    assert "slugkit-max-length" in sessions
    with pytest.raises(ConfigError):
        load_sessions(LOCAL / "missing")


@pytest.mark.skipif(not os.environ.get("AUTOINTERACT_SWE_TOGETHER"),
                    reason="set AUTOINTERACT_SWE_TOGETHER to the SWE-Together task folders")
def test_shared_swetogether_tasks_replay_their_genuine_turns() -> None:
    from autointeract.history.swe_together import load_task_dir

    tasks = load_tasks("swetogether", os.environ["AUTOINTERACT_SWE_TOGETHER"], limit=3)
    for task in tasks:
        real = [m.content for m in load_task_dir(task.meta["source"]).user_turns()
                if m.content.strip()]
        turns = play(ReplayUser(), task, len(real) - 1)
        assert [t.content for t in turns] == real
        assert not any(t.content.startswith("[tool_result") for t in turns)
