"""The simulator that plays a profile: the learned user when available, else a styled adapter.

:class:`StyledUser` is a small :class:`~autointeract.rollout.protocols.UserSimulator`: an LLM
writes each user turn from a behavior prompt, the profile (persona plus one style phrase per
parameter) and the task; then two parameters are rendered mechanically, because small models
ignore such instructions: ``verbosity`` sets a word budget (``3 * 60 ** verbosity`` words,
3 to 180) and ``typo_rate`` swaps letters in ``0.1 * typo_rate`` of the longer words. Every
draw is seeded from the episode seed and the turn, so an episode is reproducible.

:func:`make_simulator_factory` picks the implementation: ``learned`` uses
``autointeract.users.LearnedUser`` (the fitted simulator), ``styled`` this module's adapter.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from autointeract.config import ModelConfig
from autointeract.profiles.space import describe
from autointeract.rollout.protocols import UserObservation, UserSimulator, UserTurn
from autointeract.rollout.seeding import derive_seed
from autointeract.types import TaskSpec, UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

SimulatorFactory = Callable[[UserProfile], UserSimulator]

DEFAULT_BEHAVIOR_PROMPT = (
    "You are a real software developer chatting with an AI coding assistant. Write only your "
    "next chat message, in your own voice: no role labels, no quotes, no explanations of "
    "what you are doing.")
_PREFIX = re.compile(r"^\s*(user|me|developer|you)\s*:\s*", re.I)
_WORD = re.compile(r"[A-Za-z]{4,}")


def word_budget(verbosity: float) -> int:
    """The most words a turn may have: ``3 * 60 ** verbosity`` (3 to 180)."""
    return max(1, round(3 * 60 ** max(0.0, min(1.0, verbosity))))


def add_typos(text: str, typo_rate: float, rng: random.Random) -> str:
    """Swap two inner letters of a ``0.1 * typo_rate`` share of words with 4+ letters."""
    p = 0.1 * max(0.0, min(1.0, typo_rate))

    def swap(m: re.Match[str]) -> str:
        w = m.group(0)
        if rng.random() >= p:
            return w
        i = rng.randrange(1, len(w) - 2)
        return w[:i] + w[i + 1] + w[i] + w[i + 2:]

    return _WORD.sub(swap, text) if p > 0 else text


def clean_reply(text: str, *, max_words: int) -> str:
    """Strip role prefixes, quotes and blank lines; cut to ``max_words`` words."""
    t = _PREFIX.sub("", text.strip()).strip().strip('"').strip()
    words = t.split()
    return " ".join(words[:max_words]) if len(words) > max_words else t


@dataclass(frozen=True)
class StyledState:
    """One episode: the task, the seed, and the conversation as (speaker, text) pairs."""

    task: TaskSpec
    seed: int
    turn: int = 0
    history: tuple[tuple[str, str], ...] = ()


class StyledUser:
    """A user simulator conditioned on a behavior prompt, a profile and the task.

    Args:
        client: The LLM client.
        model: The model writing the user's turns.
        profile: The profile to play.
        behavior_prompt: The base instructions (a fitted behavior prompt, or the default).
        max_tokens: Upper bound on tokens per turn (the word budget may be lower).
        temperature: Sampling temperature.
        use_cache: Use the LLM cache (``False`` forces fresh samples, e.g. to re-measure).
        stage: The usage-accounting stage name.
    """

    def __init__(self, client: LLMClient, model: ModelConfig | str, profile: UserProfile, *,
                 behavior_prompt: str = DEFAULT_BEHAVIOR_PROMPT, max_tokens: int = 96,
                 temperature: float = 0.8, use_cache: bool = True, stage: str = "profiles.user"):
        self.client, self.model, self.profile = client, model, profile
        self.behavior_prompt, self.max_tokens, self.temperature = behavior_prompt, max_tokens, temperature
        self.use_cache, self.stage = use_cache, stage
        self.name = f"styled:{model if isinstance(model, str) else model.model}"

    def system_prompt(self, task: TaskSpec) -> str:
        """The instructions: behavior prompt, persona, style, the goal and what is held back."""
        p = self.profile
        style = "\n".join(f"- You {s}." for s in describe(p))
        reqs = "\n".join(f"- {r.text}" for r in task.requirements) or "- (none)"
        return (f"{self.behavior_prompt}\n\nWho you are: {p.persona or 'a developer'}\n"
                f"Your style:\n{style}\n- Keep each message under {word_budget(p.verbosity)} words.\n\n"
                f"What you want: {task.hidden_goal}\nYour requirements (reveal them as your "
                f"style says):\n{reqs}")

    def init_state(self, task: TaskSpec, *, seed: int) -> StyledState:
        return StyledState(task=task, seed=seed)

    async def _say(self, state: StyledState, prompt: str) -> str:
        msgs: list[dict[str, Any]] = [{"role": "system", "content": self.system_prompt(state.task)}]
        for who, text in state.history:  # the simulated user is the "assistant" of this chat
            msgs.append({"role": "assistant" if who == "user" else "user", "content": text})
        msgs.append({"role": "user", "content": prompt})
        budget = word_budget(self.profile.verbosity)
        reply = await self.client.acomplete(
            self.model, msgs, stage=self.stage, cache=self.use_cache, temperature=self.temperature,
            max_tokens=min(self.max_tokens, int(budget * 1.6) + 8),
            seed=derive_seed(state.seed, "profile-user", state.turn))
        text = clean_reply(reply.content, max_words=budget) or "ok"
        return add_typos(text, self.profile.typo_rate,
                         random.Random(derive_seed(state.seed, "typos", state.turn)))

    async def first_turn(self, state: StyledState) -> tuple[UserTurn, StyledState]:
        text = await self._say(state, "Write your first message to the assistant, asking for "
                                      f"this (your draft: {state.task.initial_message!r}).")
        return (UserTurn(content=text, act="request"),
                replace(state, turn=1, history=state.history + (("user", text),)))

    async def respond(self, obs: UserObservation, state: StyledState) -> tuple[UserTurn, StyledState]:
        note = ""
        if obs.check is not None and not obs.check.passed:
            failing = [state.task.requirements[i].text for i in obs.failing_requirements
                       if i < len(state.task.requirements)]
            note = ("\n\n(You tried it yourself: it does not fully work"
                    + (f"; this still fails: {'; '.join(failing)}" if failing else "") + ".)")
        elif obs.check is not None:
            note = "\n\n(You tried it yourself: it works.)"
        hist = state.history + (("agent", obs.agent_message),)
        text = await self._say(replace(state, history=hist), obs.agent_message + note)
        return (UserTurn(content=text, act="other"),
                replace(state, turn=state.turn + 1, history=hist + (("user", text),)))


def make_simulator_factory(kind: Literal["styled", "learned"], client: LLMClient,
                           model: ModelConfig | str, *, behavior_prompt: str | None = None,
                           max_tokens: int = 96, temperature: float = 0.8,
                           use_cache: bool = True) -> SimulatorFactory:
    """A function ``profile -> UserSimulator`` for measuring profiles.

    Args:
        kind: ``styled`` (:class:`StyledUser`) or ``learned`` (``autointeract.users``).
        client: The LLM client.
        model: The model playing the user.
        behavior_prompt: The fitted behavior prompt (the default prompt when omitted).
        max_tokens: Token cap per user turn.
        temperature: Sampling temperature.
        use_cache: Whether simulated turns may come from the LLM cache.

    Raises:
        ConfigError: ``learned`` requested but ``autointeract.users`` is not available.
    """
    if kind == "learned":
        from autointeract.profiles.learned import learned_factory

        return learned_factory(client, model, behavior_prompt=behavior_prompt,
                               max_tokens=max_tokens, temperature=temperature, use_cache=use_cache)
    prompt = behavior_prompt or DEFAULT_BEHAVIOR_PROMPT

    def factory(profile: UserProfile) -> UserSimulator:
        return StyledUser(client, model, profile, behavior_prompt=prompt, max_tokens=max_tokens,
                          temperature=temperature, use_cache=use_cache)

    return factory
