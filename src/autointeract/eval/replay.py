"""The replay user: a task's own recorded user turns, played back in order (a baseline).

SWE-Together evaluates agents against the genuine user of the session a task was cut from.
:class:`ReplayUser` does the same: it opens with the session's first genuine user turn and
answers each agent move with the next one, labelled with its user act (so User Correction is
comparable with the simulators). It does not react to the agent, which is what makes it a
baseline: a simulator should do at least as well at being *that* user.

    user = ReplayUser()                       # sessions found through task.meta["source"]
    user = ReplayUser(sessions=load_sessions("data/sessions.jsonl"))

Tasks without a recorded session (builtin, LiveCodeBench) fall back to a scripted replay of
the task's opening message and its requirements in order (``missing="requirements"``), or
raise (``missing="error"``). State is explicit and immutable, so episodes replay exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from autointeract.errors import ConfigError
from autointeract.rollout.protocols import UserObservation, UserTurn
from autointeract.types import Session, TaskSpec

INTERRUPT_PREFIX = "[Request interrupted by user"


@dataclass(frozen=True)
class ReplayState:
    """The turns to play (text, act), how many were played, and where they came from."""

    task_id: str
    seed: int
    turns: tuple[tuple[str, str], ...]
    source: str
    played: int = 0
    stopped: bool = False


def session_turns(session: Session) -> list[tuple[str, str]]:
    """The session's genuine user turns with their acts (labelled by rules when missing)."""
    from autointeract.history.acts import session_acts

    turns = session.user_turns()
    acts = session_acts(session)
    return [(m.content, a.value) for m, a in zip(turns, acts, strict=True) if m.content.strip()]


def requirement_turns(task: TaskSpec) -> list[tuple[str, str]]:
    """A scripted replay for a task without a session: the opening, then each requirement."""
    return [(task.initial_message, "request"),
            *[(r.text, "new_requirement") for r in task.requirements]]


def load_sessions(source: str | Path) -> dict[str, Session]:
    """Sessions of a JSONL file or a folder of SWE-Together task folders, keyed by task id
    (``meta.task_id``) and by session id.

    Raises:
        ConfigError: the source does not exist.
    """
    from autointeract.history.corpus import load_corpus

    if not Path(source).exists():
        raise ConfigError("sessions source not found", file=str(source), field="user.sessions")
    out: dict[str, Session] = {}
    for s in load_corpus(source).sessions:
        out[s.id] = s
        if s.meta.get("task_id"):
            out[str(s.meta["task_id"])] = s
    return out


def task_session(task: TaskSpec) -> Session | None:
    """The recorded session of a SWE-Together task (its folder's ``original_session.json``)."""
    from autointeract.history.swe_together import SESSION_FILE, load_task_dir

    src = task.meta.get("source")
    if not src or not (Path(str(src)) / SESSION_FILE).is_file():
        return None
    return load_task_dir(str(src))


class ReplayUser:
    """A :class:`~autointeract.rollout.protocols.UserSimulator` replaying recorded turns.

    Args:
        sessions: recorded sessions by task id (else looked up through ``task.meta.source``).
        name: the user name recorded in trajectories.
        stop_on_pass: stop (approving) as soon as the agent's checked work passes, instead of
            playing every recorded turn.
        missing: what to do for a task without a recorded session: replay its requirements,
            or raise ``ConfigError``.
    """

    def __init__(self, sessions: Mapping[str, Session] | None = None, *, name: str = "replay",
                 stop_on_pass: bool = False,
                 missing: Literal["requirements", "error"] = "requirements"):
        self.sessions = dict(sessions or {})
        self.name, self.stop_on_pass, self.missing = name, stop_on_pass, missing

    def init_state(self, task: TaskSpec, *, seed: int) -> ReplayState:
        """The turns of ``task``'s session (or the scripted fallback).

        Raises:
            ConfigError: no session and ``missing="error"``, or a session without user turns.
        """
        session = self.sessions.get(task.task_id) or task_session(task)
        if session is not None:
            turns, source = session_turns(session), f"session:{session.id}"
            if not turns:
                raise ConfigError(f"session '{session.id}' has no genuine user turn",
                                  field=f"task {task.task_id}")
        elif self.missing == "error":
            raise ConfigError(f"no recorded session for task '{task.task_id}'",
                              field="user.sessions")
        else:
            turns, source = requirement_turns(task), "requirements"
        return ReplayState(task_id=task.task_id, seed=seed, turns=tuple(turns), source=source)

    async def first_turn(self, state: ReplayState) -> tuple[UserTurn, ReplayState]:
        """The first recorded turn."""
        text, _ = state.turns[0]
        meta = {"replay_index": 0, "replay_source": state.source}
        return UserTurn(content=text, act="request", meta=meta), replace(state, played=1)

    async def respond(self, obs: UserObservation,
                      state: ReplayState) -> tuple[UserTurn, ReplayState]:
        """The next recorded turn. The conversation stops on a closing approval, when the
        turns run out, or (``stop_on_pass``) when the agent's checked work passes."""
        if state.stopped:
            return UserTurn(content="", act="other", stop=True, meta={"reason": "stopped"}), state
        if self.stop_on_pass and obs.check is not None and obs.check.verified and obs.check.passed:
            return (UserTurn(content="Thanks, that works.", act="approval", stop=True,
                             meta={"reason": "passed", "replay_source": state.source}),
                    replace(state, stopped=True))
        if state.played >= len(state.turns):
            return (UserTurn(content="", act="other", stop=True,
                             meta={"reason": "replay_exhausted", "replay_source": state.source}),
                    replace(state, stopped=True))
        text, act = state.turns[state.played]
        if text.startswith(INTERRUPT_PREFIX):
            act = "interruption"
        # a closing approval ends the conversation; a closing request still gets an answer
        stop = state.played + 1 >= len(state.turns) and act == "approval"
        meta = {"replay_index": state.played, "replay_source": state.source}
        return (UserTurn(content=text, act=act, stop=stop, meta=meta),
                replace(state, played=state.played + 1, stopped=stop))
