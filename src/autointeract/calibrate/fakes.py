"""A simulated solver with a known pass probability, for tests, benchmarks and dry runs.

:class:`SkillAgent` submits the task's reference solution with probability
:func:`pass_probability` (a logistic of its skill minus the task's hardness) and a wrong one
otherwise, decided once per episode from the episode seed. The verifier still judges the
submission, so the whole loop (episodes, checks, rewards, datasets) runs for real, only the
model is replaced.
"""

from __future__ import annotations

import asyncio
import math
import random
from dataclasses import dataclass
from typing import Any

from autointeract.calibrate.knobs import Knobs
from autointeract.rollout.protocols import AgentStep
from autointeract.rollout.seeding import derive_seed
from autointeract.types import Message, TaskSpec, ToolCall

_BASE = {"easy": 0.0, "medium": 0.1, "hard": 0.2}


def task_hardness(task: TaskSpec) -> float:
    """The knobs' hardness plus a little for the seed's own difficulty, in [0, 1.2]."""
    try:
        knobs = Knobs.model_validate(task.knobs) if task.knobs else Knobs()
    except ValueError:
        knobs = Knobs()
    return knobs.hardness() + _BASE.get(task.difficulty or "easy", 0.0)


def pass_probability(skill: float, hardness: float, *, slope: float = 8.0) -> float:
    """P(pass) = 1 / (1 + exp(-slope * (skill - hardness)))."""
    return 1.0 / (1.0 + math.exp(-slope * (skill - hardness)))


def wrong_solution(task: TaskSpec) -> str:
    """A real (non-stub) submission that fails the task's tests."""
    spec = task.verifier
    if spec.kind == "functional" and spec.func_name:
        return f"def {spec.func_name}(*args, **kwargs):\n    return '__wrong__'\n"
    return "print('__wrong__')\n"


@dataclass(frozen=True)
class SkillState:
    seed: int
    passes: bool
    solution: str
    turn: int = 0


class SkillAgent:
    """An :class:`~autointeract.rollout.protocols.Agent` that passes with a known probability.

    Args:
        name: the solver label in trajectories.
        skill: in [0, 1]; compared with the task's hardness.
        slope: steepness of the logistic.
        ask_first: ask the user one question before submitting (exercises the user).
        latency_s: seconds each step takes (to simulate a model).
    """

    def __init__(self, *, name: str = "skill", skill: float = 0.5, slope: float = 8.0,
                 ask_first: bool = True, latency_s: float = 0.0):
        self.name, self.skill, self.slope, self.ask_first = name, skill, slope, ask_first
        self.latency_s = latency_s

    def probability(self, task: TaskSpec) -> float:
        return pass_probability(self.skill, task_hardness(task), slope=self.slope)

    def init_state(self, task: TaskSpec, *, seed: int) -> SkillState:
        rng = random.Random(derive_seed(seed, "skill", self.name, task.task_id))
        ok = rng.random() < self.probability(task) and bool(task.reference_solution)
        return SkillState(seed=seed, passes=ok,
                          solution=task.reference_solution if ok else wrong_solution(task))  # type: ignore[arg-type]

    async def step(self, messages: list[Message], state: SkillState) -> tuple[AgentStep, Any]:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        nxt = SkillState(state.seed, state.passes, state.solution, state.turn + 1)
        if self.ask_first and state.turn == 0:
            msg = Message(role="assistant", content="Is there anything else I should know?")
            return AgentStep(message=msg, prompt_tokens=40, completion_tokens=8), nxt
        call = ToolCall(id=f"call_{state.turn}", name="submit",
                        arguments={"solution": state.solution})
        msg = Message(role="assistant", content=f"SUBMIT\n```python\n{state.solution}```",
                      tool_calls=[call])
        return AgentStep(message=msg, submitted=True, solution=state.solution,
                         prompt_tokens=60, completion_tokens=20), nxt


__all__ = ["SkillAgent", "pass_probability", "task_hardness", "wrong_solution"]
