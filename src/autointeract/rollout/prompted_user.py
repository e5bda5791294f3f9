"""A minimal prompted user: an explicit state machine over the task's hidden requirements.

The user opens with ``task.initial_message`` and holds ``task.requirements`` back. Each reply
is first *planned* (pure: :func:`plan_reply`) — reveal requirements that are asked about,
that failing checks touch, or whose ``reveal_after_turn`` has come; correct the agent when a
stated requirement still fails; approve and stop when the check passes; give up when out of
patience — then *phrased*, by seeded templates (``mode: template``, deterministic) or by an
LLM through the LLM layer (``mode: llm``; the template is the fallback when the call fails).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from autointeract.errors import ConfigError, LLMError
from autointeract.rollout.config import PromptedUserConfig
from autointeract.rollout.protocols import UserObservation, UserTurn
from autointeract.rollout.seeding import derive_seed
from autointeract.types import TaskSpec, UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

_VERDICT_WORDS = {"WA": "gives wrong answers", "RE": "crashes", "TLE": "is too slow",
                  "MLE": "uses too much memory", "SKIP": "does not run"}
_APPROVE = ("That works, thanks!", "Great, that does what I need.", "Perfect, thank you.")
_NUDGE = ("Please go ahead and write the code.", "Can you just write it and show me?",
          "Let's see some code please.")
_NO_INFO = ("I don't have more details, go with what makes sense.",
            "Nothing else I can think of, just do the sensible thing.")
_GIVE_UP = ("I have to stop here, thanks anyway.", "Let's leave it there for now.")


@dataclass(frozen=True)
class PromptedUserState:
    """Everything the user knows and has done in one episode."""

    task: TaskSpec
    seed: int
    max_turns: int
    turn: int = 0
    revealed: tuple[int, ...] = ()
    acts: tuple[str, ...] = ()
    stopped: bool = False
    satisfied: bool = False


@dataclass
class ReplyPlan:
    """What the next user turn means, before it is phrased."""

    act: str
    stop: bool = False
    satisfied: bool = False
    reveal: list[int] = field(default_factory=list)
    correct: list[int] = field(default_factory=list)
    failure: str = ""
    kind: str = "nudge"  # approve | give_up | reveal | correct | failure | no_info | nudge


def _eligible(task: TaskSpec, i: int, why: str) -> bool:
    """May requirement ``i`` be revealed for reason ``why`` (asked, failed_test, turn)?

    ``trigger: never`` holds it back always; a failing test or the ``reveal_after_turn``
    deadline reveals any other; a question reveals only untriggered or ``asked`` ones.
    """
    trig = task.requirements[i].trigger
    if trig == "never":
        return False
    return why != "asked" or trig in (None, "asked")


def plan_reply(obs: UserObservation, state: PromptedUserState, *,
               reveal_on_question: bool = True) -> ReplyPlan:
    """Decide the next user turn from what the user saw. Pure and deterministic."""
    task, turn = state.task, state.turn + 1
    check = obs.check
    if check is not None and check.passed:
        return ReplyPlan(act="approval", stop=True, satisfied=True, kind="approve")
    hidden = [i for i in range(len(task.requirements)) if i not in state.revealed]
    failing = set(obs.failing_requirements)
    reveal = [i for i in hidden if i in failing and _eligible(task, i, "failed_test")]
    reveal += [i for i in hidden if i not in reveal and task.requirements[i].reveal_after_turn
               is not None and task.requirements[i].reveal_after_turn <= turn
               and _eligible(task, i, "turn")]
    asked = "?" in obs.agent_message
    if asked and reveal_on_question and not reveal:
        reveal = [i for i in hidden if _eligible(task, i, "asked")][:1]
    correct = sorted(i for i in failing if i in state.revealed)
    failure = ""
    if check is not None and not check.passed and not reveal and not correct:
        verdicts = sorted({c.verdict for c in check.criteria if not c.passed} or {"WA"})
        failure = " and ".join(_VERDICT_WORDS.get(v, "fails") for v in verdicts)
    if turn >= state.max_turns:
        return ReplyPlan(act="other", stop=True, kind="give_up", reveal=reveal)
    if correct:
        return ReplyPlan(act="correction", reveal=reveal, correct=correct, kind="correct")
    if reveal:
        return ReplyPlan(act="new_requirement", reveal=reveal, kind="reveal")
    if failure:
        return ReplyPlan(act="failure_report", failure=failure, kind="failure")
    return ReplyPlan(act="other", kind="no_info" if asked else "nudge")


def _clause(text: str) -> str:
    """A requirement as a clause: no final stop, lower-cased unless it starts an acronym."""
    t = text.strip().rstrip(".!")
    return t[0].lower() + t[1:] if len(t) > 1 and t[1].islower() else t


def template_text(plan: ReplyPlan, task: TaskSpec, rng: random.Random) -> str:
    """Phrase a plan with fixed templates (one seeded choice among a few wordings)."""
    req = [_clause(task.requirements[i].text) for i in plan.reveal]
    fix = [_clause(task.requirements[i].text) for i in plan.correct]
    parts: list[str] = []
    if plan.kind == "approve":
        return rng.choice(_APPROVE)
    if fix:
        parts.append("It still doesn't do what I asked: " + "; ".join(fix) + ".")
    if req:
        parts.append(("Also, " if not fix else "And ") + "; ".join(req) + ".")
    if plan.failure:
        parts.append(f"I tried it and it {plan.failure} on some of my cases.")
    if plan.kind == "give_up":
        parts.append(rng.choice(_GIVE_UP))
    if not parts:
        parts.append(rng.choice(_NO_INFO if plan.kind == "no_info" else _NUDGE))
    return " ".join(parts)


class PromptedUser:
    """A :class:`~autointeract.rollout.protocols.UserSimulator` driven by :func:`plan_reply`.

    Args:
        config: mode (template or llm), patience, model for phrasing.
        client: the LLM client; required for ``mode: llm``.
        profile: optional profile; ``patience`` scales the number of replies and the
            persona goes into the LLM phrasing prompt.
    """

    def __init__(self, config: PromptedUserConfig | None = None, *,
                 client: LLMClient | None = None, profile: UserProfile | None = None):
        self.config = cfg = config or PromptedUserConfig()
        if cfg.mode == "llm" and (client is None or cfg.model is None):
            raise ConfigError("mode 'llm' needs a model and an LLM client", field="user.model")
        self.client, self.profile = client, profile
        self.name = cfg.label()

    def init_state(self, task: TaskSpec, *, seed: int) -> PromptedUserState:
        turns = self.config.max_user_turns
        if self.profile is not None:
            turns = max(1, round(turns * (0.5 + self.profile.patience)))
        return PromptedUserState(task=task, seed=seed, max_turns=turns)

    async def first_turn(self, state: PromptedUserState) -> tuple[UserTurn, PromptedUserState]:
        task = state.task
        now = [i for i, r in enumerate(task.requirements)
               if r.reveal_after_turn is not None and r.reveal_after_turn <= 0]
        text = task.initial_message
        if now:
            text += "\n" + " ".join(task.requirements[i].text for i in now)
        return (UserTurn(content=text, act="request", meta={"revealed": now}),
                replace(state, revealed=tuple(now), acts=("request",)))

    async def respond(self, obs: UserObservation,
                      state: PromptedUserState) -> tuple[UserTurn, PromptedUserState]:
        plan = plan_reply(obs, state, reveal_on_question=self.config.reveal_on_question)
        rng = random.Random(derive_seed(state.seed, "user", state.turn))
        text, phrased = template_text(plan, state.task, rng), "template"
        if self.config.mode == "llm":
            text, phrased = await self._phrase(plan, text, obs, state)
        new = replace(state, turn=state.turn + 1, revealed=state.revealed + tuple(plan.reveal),
                      acts=state.acts + (plan.act,), stopped=plan.stop,
                      satisfied=plan.satisfied)
        meta = {"kind": plan.kind, "revealed": plan.reveal, "corrected": plan.correct,
                "satisfied": plan.satisfied, "phrased_by": phrased}
        return UserTurn(content=text, act=plan.act, stop=plan.stop, meta=meta), new

    async def _phrase(self, plan: ReplyPlan, draft: str, obs: UserObservation,
                      state: PromptedUserState) -> tuple[str, str]:
        persona = self.profile.persona if self.profile and self.profile.persona else (
            "a busy developer")
        msgs = [{"role": "system", "content": (
                    f"You are {persona} chatting with a coding assistant about: "
                    f"{state.task.hidden_goal}\nRewrite the draft as your next chat message. "
                    "Keep its meaning, one or two sentences, no code, no quotes.")},
                {"role": "user", "content": f"Assistant said: {obs.agent_message[:600]}\n\n"
                                            f"Draft: {draft}"}]
        cfg = self.config
        try:
            reply = await self.client.acomplete(  # type: ignore[union-attr]
                cfg.model, msgs, stage="rollout.user", max_tokens=cfg.max_tokens,  # type: ignore[arg-type]
                temperature=cfg.temperature, seed=derive_seed(state.seed, "user", state.turn))
        except LLMError:
            return draft, "template-fallback"
        text = reply.content.strip()
        return (text, "llm") if text else (draft, "template-fallback")
