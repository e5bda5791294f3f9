"""The LLM coding agent: one model, three action protocols, explicit per-episode state.

    agent = LLMAgent(AgentConfig(model="local/qwen2.5-coder-0.5b"), client)
    state = agent.init_state(task, seed=0)
    step, state = await agent.step(conversation, state)

The conversation (``list[Message]``) is the episode's transcript: user turns, the agent's
replies (with their tool calls, parsed from text when the model has no tool calling) and
tool results. :meth:`LLMAgent.render` turns it into the model's chat format for its mode.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from autointeract.rollout.actions import (
    SUBMIT_MARKER,
    TOOLS,
    parse_bash_action,
    parse_text_action,
)
from autointeract.rollout.config import AgentConfig
from autointeract.rollout.protocols import AgentStep
from autointeract.rollout.seeding import derive_seed
from autointeract.types import Message, TaskSpec

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

_NATIVE = (
    "You are a coding assistant working with a user in a sandbox. Tools: run_python (run a "
    "program), bash (shell), message_user (ask a question or show work), submit (the final "
    "Python solution). Ask when the request is unclear; test before you submit.")
_TEXT = (
    "You are a coding assistant working with a user. To run Python, reply with one "
    "```python block. To run a shell command, reply with one ```bash block. To hand in the "
    "final solution, write a line SUBMIT followed by one ```python block with the full "
    "program. Any other reply is sent to the user as a message. Keep replies and code short, "
    "without comments.")
_BASH = (
    "You are a software engineer fixing a repository together with a user. Reply with "
    "exactly one ```bash block holding one command; you will see its output. When the work "
    f"is done, reply with ```bash\necho {SUBMIT_MARKER}\n```. A reply without a bash block "
    "is sent to the user as a message.")


def task_brief(task: TaskSpec) -> str:
    """How the solution is judged (never the tests): stdin program, function, or repo."""
    spec = task.verifier
    if spec.kind == "functional":
        brief = (f"The solution defines `{spec.func_name}` (a function, or a method of class "
                 "Solution); it is called with the arguments and its return value is checked.")
    elif spec.kind == "stdin":
        brief = "The solution is a program that reads standard input and prints the answer."
    else:
        brief = "The repository is in the current directory; its tests decide."
    if task.starter_code:
        brief += f"\nStarter code:\n```python\n{task.starter_code}\n```"
    return brief


@dataclass(frozen=True)
class AgentState:
    """What the agent carries between steps of one episode."""

    seed: int
    system: str
    turn: int = 0


def _merge_same_role(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in msgs:
        if out and out[-1]["role"] == m["role"] and m["role"] != "system":
            out[-1] = {**out[-1], "content": f"{out[-1]['content']}\n\n{m['content']}"}
        else:
            out.append(m)
    return out


class LLMAgent:
    """An :class:`~autointeract.rollout.protocols.Agent` backed by one LLM.

    Args:
        config: model, protocol (``tool_mode``) and limits.
        client: the run's LLM client (cache, retries, accounting).
    """

    def __init__(self, config: AgentConfig, client: LLMClient):
        self.config = config
        self.client = client
        self.name = config.label()
        self.mode = config.resolved_mode()

    def init_state(self, task: TaskSpec, *, seed: int) -> AgentState:
        base = self.config.system_prompt or {"native": _NATIVE, "text": _TEXT,
                                             "bash": _BASH}[self.mode]
        return AgentState(seed=seed, system=f"{base}\n\n{task_brief(task)}")

    def render(self, messages: list[Message], state: AgentState) -> list[dict[str, Any]]:
        """The conversation in the model's chat format (tool results as text in text modes)."""
        out: list[dict[str, Any]] = [{"role": "system", "content": state.system}]
        native = self.mode == "native"
        for m in messages:
            if m.role == "assistant":
                d: dict[str, Any] = {"role": "assistant", "content": m.content}
                if native and m.tool_calls:
                    d["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                        "name": c.name, "arguments": json.dumps(c.arguments)}}
                        for c in m.tool_calls]
                out.append(d)
            elif m.role == "tool":
                if native:
                    out.append({"role": "tool", "tool_call_id": m.tool_call_id or "",
                                "content": m.content})
                else:
                    out.append({"role": "user", "content": f"[{m.name} output]\n{m.content}"})
            elif m.role == "user":
                out.append({"role": "user", "content": m.content})
        return out if native else _merge_same_role(out)

    def parse(self, content: str) -> list[Any]:
        """Actions of a text reply under this agent's protocol."""
        return parse_bash_action(content) if self.mode == "bash" else parse_text_action(content)

    async def step(self, messages: list[Message], state: AgentState) -> tuple[AgentStep, AgentState]:
        """One model call; the reply and its actions (native tool calls or parsed text)."""
        cfg = self.config
        kw: dict[str, Any] = {"max_tokens": cfg.max_tokens}
        if cfg.temperature is not None:
            kw["temperature"] = cfg.temperature
        if self.mode == "native":
            kw["tools"] = TOOLS
        reply = await self.client.acomplete(
            cfg.model_config_(), self.render(messages, state), stage="rollout.agent",
            seed=derive_seed(state.seed, "agent", state.turn), **kw)
        calls = list(reply.tool_calls) if self.mode == "native" else self.parse(reply.content)
        for i, c in enumerate(calls):
            if not c.id:
                calls[i] = c.model_copy(update={"id": f"call_{state.turn}_{i}"})
        submit = next((c for c in calls if c.name == "submit"), None)
        solution = None
        if submit is not None:
            raw = submit.arguments.get("solution")
            solution = raw if isinstance(raw, str) else None
        msg = Message(role="assistant", content=reply.content, tool_calls=calls,
                      meta={"protocol": self.mode, "finish_reason": reply.finish_reason,
                            "cached": reply.cached})
        step = AgentStep(message=msg, submitted=submit is not None, solution=solution,
                         prompt_tokens=reply.prompt_tokens,
                         completion_tokens=reply.completion_tokens)
        return step, replace(state, turn=state.turn + 1)
