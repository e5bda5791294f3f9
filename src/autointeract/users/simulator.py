"""The learned user: a ``UserSimulator`` driven by a fitted behavior prompt and a profile.

    user = LearnedUser(client, "local/smollm2-135m", behavior_prompt=model.behavior_prompt,
                       profile=profile)
    state = user.init_state(task, seed=0)
    turn, state = await user.first_turn(state)
    turn, state = await user.respond(UserObservation(agent_message="..."), state)

Decisions (reveal, correct, approve, stop) are made by the pure rules of
:mod:`~autointeract.users.policy`; the language model words them in the user's style. Every
generated turn passes the :class:`~autointeract.users.leak_guard.LeakGuard`. State is
explicit and returned, never kept on the simulator, so an episode can be replayed.
"""

from __future__ import annotations

import copy
import hashlib
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autointeract.rollout.protocols import UserObservation, UserTurn
from autointeract.types import TaskSpec, UserProfile
from autointeract.users.leak_guard import LeakGuard, LeakStats, guarded_generate
from autointeract.users.policy import Plan, plan_turn
from autointeract.users.profile_text import patience_turns, render_profile
from autointeract.users.prompting import build_messages, clean_turn
from autointeract.users.seed import SEED_BEHAVIOR_PROMPT

_LEAK_WARNING = ("Never quote test cases, expected outputs or code: describe what you want "
                 "in your own words.")


@dataclass
class UserState:
    """Everything the learned user knows and has done in one episode."""

    task: TaskSpec
    profile: UserProfile
    seed: int
    turn: int = 0
    max_turns: int = 8
    revealed: list[int] = field(default_factory=list)
    transcript: list[tuple[str, str]] = field(default_factory=list)  # (USER|AGENT, text)
    acts: list[str] = field(default_factory=list)
    stopped: bool = False
    stop_reason: str = ""
    leaks: LeakStats = field(default_factory=LeakStats)


def _turn_seed(seed: int, turn: int, attempt: int) -> int:
    d = hashlib.sha256(f"{seed}:{turn}:{attempt}".encode()).hexdigest()
    return int(d[:8], 16)


class LearnedUser:
    """A simulated developer conditioned on a behavior prompt, a profile and the hidden task.

    Args:
        client: The :class:`~autointeract.llm.LLMClient`.
        model: The model that words the turns (``ModelConfig`` or litellm string).
        behavior_prompt: How the user talks (a fitted prompt; the seed prompt by default).
        profile: The user's profile (a neutral one by default).
        name: Name recorded in trajectories.
        max_tokens: Token limit of one turn.
        temperature: Sampling temperature (the model's default when omitted).
        guard_leaks: Check turns against the task's hidden tests and reference solution.
        max_regenerations: Extra attempts for a leaking turn before a safe fallback text.
        context_chars: Budget of the transcript shown to the model.
        restyle_first_turn: Reword the task's opening message in the user's style (else it is
            sent verbatim).
        stage: Accounting stage of the LLM calls.
    """

    def __init__(self, client: Any, model: Any, *, behavior_prompt: str = SEED_BEHAVIOR_PROMPT,
                 profile: UserProfile | None = None, name: str = "learned_user",
                 max_tokens: int = 120, temperature: float | None = None,
                 guard_leaks: bool = True, max_regenerations: int = 2,
                 context_chars: int = 3000, restyle_first_turn: bool = False,
                 stage: str = "users.simulate"):
        self.client, self.model = client, model
        self.behavior_prompt = behavior_prompt
        self.profile = profile or UserProfile(id="default")
        self.name = name
        self.max_tokens, self.temperature = max_tokens, temperature
        self.guard_leaks, self.max_regenerations = guard_leaks, max_regenerations
        self.context_chars = context_chars
        self.restyle_first_turn = restyle_first_turn
        self.stage = stage

    @classmethod
    def from_artifact(cls, path: str | Path, client: Any, model: Any, **kw: Any) -> LearnedUser:
        """A learned user from a fitted ``user_models/<name>/`` folder."""
        from autointeract.users.artifact import load_user_model

        um = load_user_model(path)
        return cls(client, model, behavior_prompt=um.behavior_prompt,
                   name=kw.pop("name", f"learned:{um.name}"), **kw)

    # -- protocol ---------------------------------------------------------------------
    def init_state(self, task: TaskSpec, *, seed: int,
                   profile: UserProfile | None = None) -> UserState:
        """Fresh state for one episode of ``task`` (``profile`` overrides the default)."""
        prof = profile or self.profile
        return UserState(task=task, profile=prof, seed=seed, max_turns=patience_turns(prof))

    async def first_turn(self, state: UserState) -> tuple[UserTurn, UserState]:
        """The task's opening message (reworded in the user's style if configured)."""
        st = copy.deepcopy(state)
        text = st.task.initial_message.strip()
        if self.restyle_first_turn:
            plan = Plan("request", "Open the conversation: ask for this in your own words: "
                        f'"{text}"', fallback=text)
            text = await self._word(st, plan)
        st.transcript.append(("USER", text))
        st.acts.append("request")
        return UserTurn(content=text, act="request", meta={"reason": "opening"}), st

    async def respond(self, obs: UserObservation,
                      state: UserState) -> tuple[UserTurn, UserState]:
        """Answer the agent's last move (see :mod:`~autointeract.users.policy`)."""
        st = copy.deepcopy(state)
        if st.stopped:
            return UserTurn(content="", act="other", stop=True,
                            meta={"reason": st.stop_reason or "stopped"}), st
        agent_text = obs.agent_message.strip() or ("[agent submitted its solution]"
                                                   if obs.submitted else "[agent said nothing]")
        st.transcript.append(("AGENT", agent_text))
        st.turn += 1
        rng = random.Random(_turn_seed(st.seed, st.turn, -1))
        plan = plan_turn(st.task, st.profile, obs, revealed=st.revealed, turn=st.turn,
                         max_turns=st.max_turns, rng=rng)
        for i in plan.reveal:
            if i not in st.revealed:
                st.revealed.append(i)
        leaks_before = st.leaks.leaks
        text = await self._word(st, plan)
        st.transcript.append(("USER", text))
        st.acts.append(plan.act)
        if plan.stop:
            st.stopped, st.stop_reason = True, plan.reason
        meta = {"reason": plan.reason, "revealed": list(plan.reveal),
                "leaks": st.leaks.leaks - leaks_before}
        return UserTurn(content=text, act=plan.act, stop=plan.stop, meta=meta), st

    # -- wording ----------------------------------------------------------------------
    def task_text(self, st: UserState) -> str:
        """The private task section: the goal and what has been said so far."""
        lines = ["## What you want (private; the agent only knows what you tell it)",
                 f"Goal: {st.task.hidden_goal.strip()}"]
        if st.revealed:
            lines.append("Requirements you already told the agent:")
            lines += [f"- {st.task.requirements[i].text.strip()}" for i in st.revealed]
        return "\n".join(lines)

    def transcript_text(self, st: UserState) -> str:
        """The episode so far as ``USER:`` / ``AGENT:`` lines, newest kept within budget."""
        lines = [f"{who}: {' '.join(t.split())[:800]}" for who, t in st.transcript]
        out: list[str] = []
        budget = self.context_chars
        for line in reversed(lines):
            if budget - len(line) < 0 and out:
                break
            out.append(line)
            budget -= len(line) + 1
        return "\n".join(reversed(out))

    async def _word(self, st: UserState, plan: Plan) -> str:
        guard = LeakGuard.for_task(st.task) if self.guard_leaks else None
        base = build_messages(self.behavior_prompt, self.transcript_text(st),
                              profile_text=render_profile(st.profile),
                              task_text=self.task_text(st), directive=plan.directive)

        async def attempt(k: int) -> str:
            msgs = copy.deepcopy(base)
            if k:
                msgs[0]["content"] += "\n\n" + _LEAK_WARNING
            kw: dict[str, Any] = {"seed": _turn_seed(st.seed, st.turn, k),
                                  "max_tokens": self.max_tokens}
            if self.temperature is not None:
                kw["temperature"] = self.temperature
            reply = await self.client.acomplete(self.model, msgs, stage=self.stage, **kw)
            return clean_turn(reply.content) or plan.fallback

        text, _ = await guarded_generate(attempt, guard, max_regenerations=self.max_regenerations,
                                         fallback=plan.fallback, stats=st.leaks)
        return text or plan.fallback
