"""An agent without a model, for tests and for measuring the engine alone.

:class:`ScriptedAgent` replays actions in the same shapes as ``ScriptedModel`` outputs:
a string (parsed with the text protocol), a ``{"content", "tool_calls"}`` dict, or a
callable of the conversation returning either. Unlike an ``LLMAgent`` over a
``ScriptedModel`` it never goes through litellm, so a benchmark can tell the loop's own cost
from the LLM layer's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autointeract.rollout.actions import parse_text_action
from autointeract.rollout.protocols import AgentStep
from autointeract.types import Message, TaskSpec, ToolCall

Action = str | dict[str, Any] | Callable[[list[Message]], "str | dict[str, Any]"]


@dataclass(frozen=True)
class ScriptedAgentState:
    seed: int
    turn: int = 0


class ScriptedAgent:
    """An :class:`~autointeract.rollout.protocols.Agent` that plays ``actions`` in order.

    Args:
        actions: one per step; after the last one the agent repeats it (``cycle=False``)
            or starts over (``cycle=True``).
        name: the solver name recorded in trajectories.
        latency_s: wait this long per step without blocking the event loop (a remote
            model's latency, for concurrency benchmarks).
    """

    def __init__(self, actions: Sequence[Action], *, name: str = "scripted-agent",
                 cycle: bool = False, latency_s: float = 0.0):
        if not actions:
            raise ValueError("ScriptedAgent needs at least one action")
        self.actions, self.name, self.cycle = list(actions), name, cycle
        self.latency_s = latency_s

    def init_state(self, task: TaskSpec, *, seed: int) -> ScriptedAgentState:
        return ScriptedAgentState(seed=seed)

    async def step(self, messages: list[Message],
                   state: ScriptedAgentState) -> tuple[AgentStep, ScriptedAgentState]:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        i = state.turn % len(self.actions) if self.cycle else min(state.turn, len(self.actions) - 1)
        out = self.actions[i]
        out = out(messages) if callable(out) else out
        if isinstance(out, str):
            content, calls = out, parse_text_action(out)
        else:
            content = out.get("content", "")
            calls = [ToolCall(id=f"call_{state.turn}_{j}", name=c["name"],
                              arguments=dict(c.get("arguments", {})))
                     for j, c in enumerate(out.get("tool_calls", []))]
        submit = next((c for c in calls if c.name == "submit"), None)
        sol = submit.arguments.get("solution") if submit else None
        step = AgentStep(message=Message(role="assistant", content=content, tool_calls=calls),
                         submitted=submit is not None,
                         solution=sol if isinstance(sol, str) else None,
                         prompt_tokens=sum(len(m.content) for m in messages) // 4,
                         completion_tokens=len(content) // 4 + 5 * len(calls))
        return step, ScriptedAgentState(seed=state.seed, turn=state.turn + 1)
