"""The simulated user's turn during RL: conversation so far + task + user-model reference →
the next user message, through the :class:`~autointeract.rollout.protocols.UserSimulator`
protocol.

Users are picked by a short registry name mapped to an import path (``prompted`` — the
state-machine user of :mod:`autointeract.rollout.prompted_user`; ``learned`` — the fitted
simulator of :mod:`autointeract.users`; ``scripted`` — :class:`ScriptedUser`, a deterministic
fake that ships in the package for tests and smoke runs).

    user = make_user(row.user_model, client=client)
    state = user.init_state(row.task(), seed=seed)
    turn, state = await next_user_turn(user, state, agent_message="Which format?")
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from typing import Any

from autointeract.errors import ConfigError
from autointeract.rollout.protocols import UserObservation, UserSimulator, UserTurn
from autointeract.types import TaskSpec, VerifierResult

# kind -> "module:factory"; a factory is called as factory(ref, client=client)
USER_KINDS: dict[str, str] = {
    "prompted": "autointeract.rl.user_turn:_make_prompted",
    "learned": "autointeract.users:make_user_from_ref",
    "scripted": "autointeract.rl.user_turn:_make_scripted",
}


@dataclass(frozen=True)
class ScriptedUserState:
    task: TaskSpec
    seed: int
    turn: int = 0


class ScriptedUser:
    """A deterministic fake user: approves and stops on a passing check, otherwise replies
    with its next scripted line (cycling), and stops after ``max_turns`` replies.

    Args:
        replies: what to say after a non-passing agent move.
        max_turns: replies before it gives up.
    """

    def __init__(self, replies: list[str] | None = None, *, max_turns: int = 3,
                 name: str = "scripted"):
        self.replies = replies or ["It doesn't work yet, please fix it and submit the code."]
        self.max_turns, self.name = max_turns, name

    def init_state(self, task: TaskSpec, *, seed: int) -> ScriptedUserState:
        return ScriptedUserState(task=task, seed=seed)

    async def first_turn(self, state: ScriptedUserState) -> tuple[UserTurn, ScriptedUserState]:
        return UserTurn(content=state.task.initial_message, act="request"), state

    async def respond(self, obs: UserObservation,
                      state: ScriptedUserState) -> tuple[UserTurn, ScriptedUserState]:
        new = replace(state, turn=state.turn + 1)
        if obs.check is not None and obs.check.passed:
            return UserTurn("Thanks, that works.", act="approval", stop=True,
                            meta={"satisfied": True}), new
        text = self.replies[state.turn % len(self.replies)]
        act = "failure_report" if obs.check is not None else "other"
        return UserTurn(text, act=act, stop=new.turn >= self.max_turns), new


def _make_scripted(ref: Any, *, client: Any = None) -> ScriptedUser:
    cfg = dict(ref.config)
    return ScriptedUser(cfg.get("replies"), max_turns=int(cfg.get("max_turns", 3)),
                        name=ref.name or "scripted")


def _make_prompted(ref: Any, *, client: Any = None) -> UserSimulator:
    from autointeract.rollout.config import PromptedUserConfig
    from autointeract.rollout.prompted_user import PromptedUser

    cfg = dict(ref.config)
    if ref.model and "model" not in cfg:
        cfg.setdefault("mode", "llm")
        cfg["model"] = ref.model
    return PromptedUser(PromptedUserConfig.model_validate(cfg), client=client,
                        profile=ref.profile)


def make_user(ref: Any, *, client: Any = None) -> UserSimulator:
    """Build the simulator a row's :class:`~autointeract.dataset.rows.UserModelRef` names.

    Args:
        ref: the row's user-model reference (``kind``, ``name``, ``path``, ``model``, ...).
        client: the LLM client, for users that phrase turns with a model.

    Raises:
        ConfigError: an unknown ``kind``, or a kind whose package is not in this checkout.
    """
    if ref.kind not in USER_KINDS:
        raise ConfigError(f"unknown user kind '{ref.kind}' (known: {', '.join(sorted(USER_KINDS))})",
                          field="user_model.kind")
    mod, fn = USER_KINDS[ref.kind].split(":")
    try:
        factory = getattr(importlib.import_module(mod), fn)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"user kind '{ref.kind}' is not available here ({exc})",
                          field="user_model.kind") from None
    return factory(ref, client=client)  # type: ignore[no-any-return]


async def next_user_turn(user: UserSimulator, state: Any, *, agent_message: str,
                         submitted: bool = False, solution: str | None = None,
                         check: VerifierResult | None = None, turn: int = 0,
                         ) -> tuple[UserTurn, Any]:
    """The user's answer to the agent's last move (the one call an RL loop makes per turn).

    Args:
        user: any :class:`UserSimulator`.
        state: the user's state from ``init_state``/the previous turn.
        agent_message: what the agent said (its text, code included).
        submitted: the agent submitted a solution this move.
        solution: the submitted source, if any.
        check: the verifier's verdict on ``solution`` (the user sees only pass/fail kinds).
        turn: the agent-turn index.

    Returns:
        The user's turn and its new state.
    """
    failing: list[int] = []
    if check is not None and not check.passed:
        task = getattr(state, "task", None)
        failed = {i for i, c in enumerate(check.criteria) if not c.passed}
        if task is not None:
            failing = [i for i, r in enumerate(task.requirements) if set(r.tests) & failed]
    obs = UserObservation(agent_message=agent_message, submitted=submitted, solution=solution,
                          check=check, failing_requirements=failing, turn=turn)
    return await user.respond(obs, state)


__all__ = ["USER_KINDS", "ScriptedUser", "ScriptedUserState", "make_user", "next_user_turn"]
