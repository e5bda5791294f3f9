"""Solver adapters for calibration.

Small embedded models rarely follow the text protocol's ``SUBMIT`` line: they answer with a
bare ```python block, which the protocol runs instead of handing in. :class:`SubmitOnCode`
wraps any agent and turns such a run into a submission when the code is a whole solution of
the task (it defines the function the task calls, or reads standard input for a program).
It is opt-in per solver (``submit_on_code: true``) and recorded in the step's message meta,
so a dataset shows which submissions were inferred.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from autointeract.rollout.protocols import Agent, AgentStep
from autointeract.types import Message, TaskSpec, ToolCall

_STDIN = re.compile(r"\binput\s*\(|sys\.stdin|open\(\s*0\b")


def is_whole_solution(task: TaskSpec, code: str) -> bool:
    """Code that could be judged as is: defines ``func_name`` (functional) or reads stdin."""
    spec = task.verifier
    if spec.kind == "functional" and spec.func_name:
        return re.search(rf"^\s*def\s+{re.escape(spec.func_name)}\s*\(", code, re.M) is not None
    if spec.kind == "stdin":
        return _STDIN.search(code) is not None
    return False


@dataclass(frozen=True)
class WrapState:
    task: TaskSpec
    inner: Any


class SubmitOnCode:
    """Wrap ``agent``: a ``run_python`` of a whole solution becomes a ``submit``.

    Args:
        agent: the wrapped agent (its ``name`` and ``config`` are exposed unchanged).
    """

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name
        self.config = getattr(agent, "config", None)

    def init_state(self, task: TaskSpec, *, seed: int) -> WrapState:
        return WrapState(task=task, inner=self.agent.init_state(task, seed=seed))

    async def step(self, messages: list[Message], state: WrapState) -> tuple[AgentStep, WrapState]:
        step, inner = await self.agent.step(messages, state.inner)
        calls = step.message.tool_calls
        if (not step.submitted and len(calls) == 1 and calls[0].name == "run_python"
                and is_whole_solution(state.task, str(calls[0].arguments.get("code", "")))):
            code = str(calls[0].arguments["code"])
            sub = ToolCall(id=calls[0].id, name="submit", arguments={"solution": code})
            msg = step.message.model_copy(update={
                "tool_calls": [sub], "meta": {**step.message.meta, "inferred_submit": True}})
            step = AgentStep(message=msg, submitted=True, solution=code,
                             prompt_tokens=step.prompt_tokens,
                             completion_tokens=step.completion_tokens)
        return step, WrapState(task=state.task, inner=inner)


__all__ = ["SubmitOnCode", "is_whole_solution"]
