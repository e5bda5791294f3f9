"""One RL episode as an engine-neutral state machine: the policy's text in, the messages to
append (tool results, the simulated user's turn) out.

An engine adapter owns tokens and generation; this class owns everything else:

    env = CodingEnv(row, user=make_user(row.user_model), seed=7)
    messages = env.reset()                          # the row's prompt
    while not env.done:
        text = generate(messages)                   # the policy (engine side, trainable)
        new = await env.step(text)                  # tool results / user turn (not trainable)
        messages += [{"role": "assistant", "content": text}, *new]
    summary = env.summary()                         # solution, tool-call counts, finish reason

The action protocol is the text protocol of :mod:`autointeract.rollout.actions` (fenced
``python``/``bash`` blocks run in the sandbox; ``SUBMIT`` + a block submits). A submission
is verified at once; the user sees the verdict's kind, never the hidden tests.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from autointeract.config import StrictModel
from autointeract.rollout.protocols import UserSimulator
from autointeract.rl.user_turn import next_user_turn
from autointeract.types import VerifierResult


class EnvConfig(StrictModel):
    """Limits of one RL episode.

    Attributes:
        max_assistant_turns: policy replies before the episode is cut (finish ``max_turns``).
        tool_timeout_s: wall limit of one ``python``/``bash`` block.
        observation_chars: tool output shown to the policy.
        sandbox: the sandbox for tool calls (a registry name or config dict).
        verify_on_submit: run the verifier on every submission (the user reacts to it).
    """

    max_assistant_turns: int = 6
    tool_timeout_s: float = 10.0
    observation_chars: int = 1500
    sandbox: str | dict[str, Any] = "local"
    verify_on_submit: bool = True


@dataclass
class EpisodeSummary:
    """What the reward needs from an episode (carried to verl's ``extra_info``)."""

    solution: str | None = None
    n_tool_calls: int = 0
    tools_used: list[str] = field(default_factory=list)
    finish_reason: str = ""
    assistant_turns: int = 0
    user_turns: int = 0
    user_acts: list[str] = field(default_factory=list)
    last_check: VerifierResult | None = None

    def to_extra(self) -> dict[str, Any]:
        """A plain-JSON dict (what ``compute_score`` reads back from ``extra_info``)."""
        return {"solution": self.solution, "n_tool_calls": self.n_tool_calls,
                "tools_used": list(self.tools_used), "finish_reason": self.finish_reason,
                "assistant_turns": self.assistant_turns, "user_turns": self.user_turns,
                "user_acts": list(self.user_acts),
                "last_score": self.last_check.score if self.last_check else None}


class CodingEnv:
    """The environment side of one episode of an :class:`~autointeract.dataset.rows.RLRow`.

    Args:
        row: the RL row (prompt, verifier, task).
        user: the simulated user (see :func:`autointeract.rl.user_turn.make_user`).
        config: episode limits.
        seed: the episode seed (the user's choices derive from it).
    """

    def __init__(self, row: Any, *, user: UserSimulator, config: EnvConfig | None = None,
                 seed: int = 0):
        self.row, self.user, self.config, self.seed = row, user, config or EnvConfig(), seed
        self.task = row.task()
        self.user_state: Any = None
        self.done = False
        self._sum = EpisodeSummary()
        self._sandbox: Any = None

    def reset(self) -> list[dict[str, Any]]:
        """Start the episode; returns the prompt messages (the row's, verbatim)."""
        self.user_state = self.user.init_state(self.task, seed=self.seed)
        self.done, self._sum = False, EpisodeSummary(user_acts=["request"])
        return [m.to_dict() for m in self.row.prompt]

    async def step(self, text: str) -> list[dict[str, Any]]:
        """Take the policy's reply; return the messages to append after it.

        A ``python``/``bash`` block yields one ``tool`` message (as a user-role observation
        for text-protocol models, role ``tool``); a submission or a plain message yields
        the simulated user's turn. Sets :attr:`done` when the episode ends.
        """
        from autointeract.rollout.actions import parse_text_action

        if self.done:
            raise RuntimeError("step() after the episode ended")
        s = self._sum
        s.assistant_turns += 1
        calls = parse_text_action(text)
        out: list[dict[str, Any]] = []
        submitted, check = False, None
        if calls and calls[0].name in ("run_python", "bash"):
            s.n_tool_calls += 1
            s.tools_used.append(calls[0].name)
            obs = await asyncio.to_thread(self._run_tool, calls[0].name, calls[0].arguments)
            out.append({"role": "tool", "content": obs})
        else:
            if calls and calls[0].name == "submit":
                s.n_tool_calls += 1
                s.tools_used.append("submit")
                submitted = True
                s.solution = str(calls[0].arguments.get("solution", ""))
                if self.config.verify_on_submit:
                    check = await asyncio.to_thread(self._verify, s.solution)
                    s.last_check = check
            turn, self.user_state = await next_user_turn(
                self.user, self.user_state, agent_message=text, submitted=submitted,
                solution=s.solution if submitted else None, check=check,
                turn=s.assistant_turns)
            s.user_turns += 1
            s.user_acts.append(turn.act)
            out.append({"role": "user", "content": turn.content})
            if turn.stop:
                self.done = True
                satisfied = bool(turn.meta.get("satisfied")) or turn.act == "approval"
                s.finish_reason = "user_satisfied" if satisfied else "user_stop"
        if not self.done and s.assistant_turns >= self.config.max_assistant_turns:
            self.done = True
            s.finish_reason = "submitted" if s.solution is not None else "max_turns"
        if self.done:
            self.close()
        return out

    def truncate(self, reason: str = "length") -> None:
        """End the episode from outside (the engine ran out of context)."""
        if not self.done:
            self.done, self._sum.finish_reason = True, reason
        self.close()

    def summary(self) -> EpisodeSummary:
        return self._sum

    def _run_tool(self, name: str, args: dict[str, Any]) -> str:
        from autointeract.rollout.actions import format_observation
        from autointeract.sandbox import make_sandbox

        if self._sandbox is None:
            self._sandbox = make_sandbox(self.config.sandbox)
        t = self.config.tool_timeout_s
        if name == "run_python":
            self._sandbox.write_file("scratch.py", str(args.get("code", "")))
            res = self._sandbox.run(["python3", "-I", "scratch.py"], stdin=args.get("stdin"),
                                    timeout_s=t)
        else:
            res = self._sandbox.run(str(args.get("command", "")), timeout_s=t)
        return format_observation(res, max_chars=self.config.observation_chars)

    def _verify(self, solution: str) -> VerifierResult:
        from autointeract.verifiers import verify

        return verify(self.row.verifier, solution=solution)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None


__all__ = ["CodingEnv", "EnvConfig", "EpisodeSummary"]
