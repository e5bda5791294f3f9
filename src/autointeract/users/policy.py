"""What the simulated user does next: a pure decision over the task, its state and the
agent's last move. The language model only words the decision.

Rules, in order (the first that applies decides):

1. Out of patience (``turn >= max_turns``) -> stop (``other``, ``out_of_patience``).
2. The agent's work fails requirements (``failing_requirements``) -> ``correction`` naming the
   first one (revealing it if still hidden; a ``trigger="never"`` requirement is never named:
   the user only says the result is wrong, a ``failure_report``).
3. The check passed -> ``approval`` and stop (``satisfied``).
4. The check failed without a requirement to blame -> ``failure_report``.
5. Requirements are due -> ``new_requirement`` revealing them: ``reveal_after_turn`` reached,
   ``trigger="asked"`` and the agent asked a question, or (no schedule) a seeded draw below
   ``reveal_eagerness``. Eager users (``reveal_eagerness >= 2/3``) reveal two at a time.
6. The agent asked a question -> answer it (``request``).
7. The agent submitted without a check: hidden requirements left -> reveal the next one; else
   push back with probability ``pushback`` (``correction``), otherwise approve and stop.
8. Otherwise -> tell the agent to carry on (``request``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from autointeract.rollout.protocols import UserObservation
from autointeract.types import Requirement, TaskSpec, UserProfile

REVEALABLE_TRIGGERS = (None, "", "asked", "turn")


@dataclass(frozen=True)
class Plan:
    """One decision: the act, what the turn must say, which requirements it reveals."""

    act: str
    directive: str
    reveal: tuple[int, ...] = ()
    stop: bool = False
    reason: str = ""
    fallback: str = ""
    refs: tuple[int, ...] = ()


def _quote(r: Requirement) -> str:
    return f'"{r.text.strip()}"'


def asked_question(agent_message: str) -> bool:
    """Whether the agent's message asks the user something."""
    return "?" in agent_message


def due_requirements(task: TaskSpec, revealed: list[int], *, turn: int, asked: bool,
                     eagerness: float, rng: random.Random) -> list[int]:
    """Hidden requirements that should come out at reply ``turn`` (1-based)."""
    due = []
    for i, r in enumerate(task.requirements):
        if i in revealed or r.trigger not in REVEALABLE_TRIGGERS:
            continue
        if r.reveal_after_turn is not None:
            if turn >= r.reveal_after_turn:
                due.append(i)
        elif r.trigger == "asked":
            if asked:
                due.append(i)
        elif rng.random() < eagerness:
            due.append(i)
            break  # unscheduled ones come out one draw at a time, in order
    return due[: 2 if eagerness >= 2 / 3 else 1]


def next_hidden(task: TaskSpec, revealed: list[int]) -> int | None:
    """The first requirement not yet revealed that may be revealed at all."""
    return next((i for i, r in enumerate(task.requirements)
                 if i not in revealed and r.trigger != "never"), None)


def plan_turn(task: TaskSpec, profile: UserProfile, obs: UserObservation, *, revealed: list[int],
              turn: int, max_turns: int, rng: random.Random) -> Plan:
    """Decide the user's next move (see the module docstring for the rules).

    Args:
        task: The hidden task.
        profile: The user's profile.
        obs: The agent's last move.
        revealed: Indices of requirements already revealed.
        turn: The 1-based index of this reply.
        max_turns: Replies the user's patience allows.
        rng: Seeded randomness of this reply.

    Returns:
        The plan.
    """
    reqs = task.requirements
    if turn > max_turns:
        return Plan("other", "You have run out of patience: say you are giving up on this.",
                    stop=True, reason="out_of_patience", fallback="forget it, this isn't working")
    failing = [i for i in obs.failing_requirements if 0 <= i < len(reqs)]
    if failing:
        i = failing[0]
        if reqs[i].trigger == "never":
            return Plan("failure_report", "Say the result is still wrong. Do not explain what "
                        "exactly is expected.", reason="failing_hidden", fallback="still wrong",
                        refs=(i,))
        new = () if i in revealed else (i,)
        say = ("Push back: the agent's work breaks something you already asked for: "
               if not new else "Push back: the work is wrong; tell the agent it must meet this "
               "requirement: ")
        return Plan("correction", say + _quote(reqs[i]), reveal=new, reason="failing_requirement",
                    fallback=f"no, that's not right. {reqs[i].text.strip()}", refs=(i,))
    if obs.check is not None and obs.check.passed:
        return Plan("approval", "The work is done and correct: approve it in a few words.",
                    stop=True, reason="satisfied", fallback="ok looks good")
    if obs.check is not None and obs.check.criteria:
        return Plan("failure_report", "Say it still does not work, without details.",
                    reason="check_failed", fallback="still doesn't work")
    asked = asked_question(obs.agent_message)
    due = due_requirements(task, revealed, turn=turn, asked=asked,
                           eagerness=profile.reveal_eagerness, rng=rng)
    if due:
        texts = "; ".join(_quote(reqs[i]) for i in due)
        lead = "Answer the agent's question and add" if asked else "Add"
        return Plan("new_requirement", f"{lead} this new requirement: {texts}", reveal=tuple(due),
                    reason="reveal", fallback="also " + "; ".join(reqs[i].text for i in due))
    if asked:
        return Plan("request", "Answer the agent's question briefly, in line with what you want.",
                    reason="answer", fallback="your call, just make it work")
    if obs.submitted:
        nxt = next_hidden(task, revealed)
        if nxt is not None:
            return Plan("new_requirement", f"Add this new requirement: {_quote(reqs[nxt])}",
                        reveal=(nxt,), reason="reveal_on_submit",
                        fallback=f"also {reqs[nxt].text.strip()}")
        if rng.random() < profile.pushback:
            return Plan("correction", "Push back: ask whether it was actually tested and "
                        "tell the agent to verify it works.", reason="skeptical",
                        fallback="did you actually test it? run it")
        return Plan("approval", "Accept the work in a few words.", stop=True,
                    reason="satisfied", fallback="ok thanks")
    return Plan("request", "Tell the agent to carry on and finish the task.", reason="continue",
                fallback="keep going")
