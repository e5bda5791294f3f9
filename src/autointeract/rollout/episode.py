"""One episode: user ↔ agent ↔ sandbox, with explicit state for all three (tau2-style).

    traj = await run_episode(task, agent, user, seed=0, config=EpisodeConfig())

The user speaks first. Each agent step is one model reply; its tool calls run in the
sandbox (in worker threads, so many episodes run concurrently). When the agent submits, or
shows the user code, the loop checks that code with the task's verifier and the user sees
the verdict (only *that* it fails and which of its requirements that touches). The episode
ends on submit+pass, a user stop, or a limit (turns, tokens, wall time); the final solution
is then verified on the hidden tests and the trajectory reward computed once.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

from autointeract.errors import LLMError
from autointeract.rollout.actions import TOOL_NAMES, extract_code, format_observation
from autointeract.rollout.config import AgentConfig, EpisodeConfig
from autointeract.rollout.protocols import Agent, AgentStep, UserObservation, UserSimulator, UserTurn
from autointeract.rollout.trajectory import build_trajectory, episode_id
from autointeract.rollout.verify import (
    Verifier,
    failing_requirements,
    is_pure,
    is_repo_task,
    no_solution,
    sandbox_verifier,
)
from autointeract.sandbox.base import Sandbox
from autointeract.sandbox.fake import FakeSandbox
from autointeract.types import Message, TaskSpec, ToolCall, Trajectory, VerifierResult

__all__ = ["EpisodeState", "episode_id", "run_episode"]


class UserModelError(Exception):
    """The user simulator's LLM failed (ends the episode as ``user_error``)."""


@dataclass
class EpisodeState:
    """The loop's own state; agent and user states are held here, returned by each step."""

    task: TaskSpec
    seed: int
    sandbox: Sandbox
    agent_state: Any = None
    user_state: Any = None
    messages: list[Message] = field(default_factory=list)
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    tool_calls: int = 0
    tools_used: list[str] = field(default_factory=list)
    user_acts: list[str] = field(default_factory=list)
    solution: str | None = None
    candidate: str | None = None
    last_code: str | None = None
    submitted: bool = False
    finish_reason: str = ""
    error: str | None = None
    checks: dict[str, VerifierResult] = field(default_factory=dict)
    n_checks: int = 0
    timings: dict[str, float] = field(default_factory=lambda: {
        "agent_s": 0.0, "user_s": 0.0, "tools_s": 0.0, "verify_s": 0.0})

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def _limits(agent: Agent, cfg: EpisodeConfig) -> tuple[int, int]:
    acfg = getattr(agent, "config", None)
    turns = cfg.max_turns or (acfg.max_turns if isinstance(acfg, AgentConfig) else 8)
    tokens = cfg.max_total_tokens or (
        acfg.max_total_tokens if isinstance(acfg, AgentConfig) else 32_000)
    return turns, tokens


def _tool_opts(agent: Agent) -> tuple[float, int]:
    acfg = getattr(agent, "config", None)
    if isinstance(acfg, AgentConfig):
        return acfg.tool_timeout_s, acfg.observation_chars
    return 10.0, 2000


class _Loop:
    """The episode loop over an :class:`EpisodeState` (one instance per episode)."""

    def __init__(self, st: EpisodeState, agent: Agent, user: UserSimulator,
                 cfg: EpisodeConfig, verifier: Verifier):
        self.st, self.agent, self.user, self.cfg, self.verifier = st, agent, user, cfg, verifier
        self.repo = is_repo_task(st.task)
        self.tool_timeout, self.obs_chars = _tool_opts(agent)

    async def check(self, solution: str | None) -> VerifierResult:
        """The verifier's verdict on ``solution`` (cached by content within the episode)."""
        st = self.st
        key = "repo-state" if self.repo else hashlib.sha256(
            (solution or "").encode()).hexdigest()
        if key in st.checks and not self.repo:
            return st.checks[key]
        t0 = time.perf_counter()
        if is_pure(self.verifier):
            res = self.verifier(st.task, solution, st.sandbox)
        else:
            res = await asyncio.to_thread(self.verifier, st.task, solution, st.sandbox)
        st.timings["verify_s"] += time.perf_counter() - t0
        if res.verified and not any(c.verdict in ("TLE", "MLE") for c in res.criteria):
            st.checks[key] = res  # limit verdicts may be load noise: check again next time
        st.n_checks += 1
        return res

    def _add(self, msg: Message) -> None:
        msg.timestamp = time.time()
        self.st.messages.append(msg)

    async def _user(self, coro: Any) -> UserTurn:
        t0 = time.perf_counter()
        try:
            turn, self.st.user_state = await coro
        except LLMError as exc:  # the simulator's model failed, not the agent's
            raise UserModelError(str(exc)) from exc
        self.st.timings["user_s"] += time.perf_counter() - t0
        self.st.user_acts.append(turn.act)
        self._add(Message(role="user", content=turn.content,
                          meta={"act": turn.act, "stop": turn.stop, **turn.meta}))
        return turn

    async def _blocking(self, fn: Any, *args: Any, **kw: Any) -> Any:
        """Run a sandbox call in a worker thread (inline for the in-memory fake, where the
        thread hop would cost more than the call)."""
        if isinstance(self.st.sandbox, FakeSandbox):
            return fn(*args, **kw)
        return await asyncio.to_thread(fn, *args, **kw)

    async def _run_tool(self, call: ToolCall) -> str:
        sb, args = self.st.sandbox, call.arguments
        cwd = self.cfg.repo_path if self.repo else None
        if call.name == "run_python":
            name = f"snippet_{self.st.tool_calls}.py"
            self.st.last_code = str(args.get("code", ""))
            await self._blocking(sb.write_file, name, str(args.get("code", "")))
            cmd: Any = [getattr(sb, "python", "python3"), name]
            stdin, cwd = args.get("stdin"), None
        else:
            cmd, stdin = str(args.get("command", "")), None
        res = await self._blocking(sb.run, cmd, stdin=stdin, timeout_s=self.tool_timeout, cwd=cwd)
        return format_observation(res, max_chars=self.obs_chars)

    async def act(self, step: AgentStep) -> tuple[str, bool] | None:
        """Run the step's tool calls; ``(text for the user, submitted)`` or None when the
        agent only used the sandbox and keeps going."""
        st, to_user, submitted = self.st, [], False
        calls = step.message.tool_calls
        for call in calls:
            st.tool_calls += 1
            st.tools_used.append(call.name)
            t0 = time.perf_counter()
            if call.name in ("run_python", "bash"):
                out = await self._run_tool(call)
            elif call.name == "message_user":
                to_user.append(str(call.arguments.get("content", "")))
                out = "(delivered to the user)"
            elif call.name == "submit":
                submitted = True
                out = "(submitted; the user will check it)"
            else:
                out = f"unknown tool '{call.name}'; available: {', '.join(sorted(TOOL_NAMES))}"
            st.timings["tools_s"] += time.perf_counter() - t0
            self._add(Message(role="tool", content=out, tool_call_id=call.id, name=call.name))
        if not calls:
            to_user.append(step.message.content)
        if not submitted and not to_user:
            return None
        return "\n\n".join(to_user) or step.message.content, submitted

    async def run(self) -> None:
        st, cfg = self.st, self.cfg
        max_turns, max_tokens = _limits(self.agent, cfg)
        await self._user(self.user.first_turn(st.user_state))
        while True:
            if st.turns >= max_turns:
                st.finish_reason = "max_turns"
                return
            if st.tokens >= max_tokens:
                st.finish_reason = "max_tokens"
                return
            t0 = time.perf_counter()
            step, st.agent_state = await self.agent.step(st.messages, st.agent_state)
            st.timings["agent_s"] += time.perf_counter() - t0
            st.turns += 1
            st.prompt_tokens += step.prompt_tokens
            st.completion_tokens += step.completion_tokens
            self._add(step.message)
            outcome = await self.act(step)
            if outcome is None:
                continue
            text, submitted = outcome
            check, code = None, None
            if submitted:
                st.submitted = True
                if not self.repo:
                    st.solution = code = step.solution
                check = await self.check(code)
            elif cfg.check_messages and not self.repo:
                code = extract_code(text)
                if code is not None:
                    st.candidate = code
                    check = await self.check(code)
            obs = UserObservation(
                agent_message=text, submitted=submitted, solution=code, check=check,
                failing_requirements=failing_requirements(st.task, check) if check else [],
                turn=st.turns)
            turn = await self._user(self.user.respond(obs, st.user_state))
            if submitted and check is not None and check.passed:
                st.finish_reason = "submitted"
                return
            if turn.stop:
                passed = check is not None and check.passed
                st.finish_reason = "user_satisfied" if passed else "user_stop"
                return


async def run_episode(task: TaskSpec, agent: Agent, user: UserSimulator, *, seed: int,
                      config: EpisodeConfig | None = None, sandbox: Sandbox | None = None,
                      verifier: Verifier | None = None, episode: str | None = None,
                      meta: dict[str, Any] | None = None) -> Trajectory:
    """Run one episode to its end and return the full, scored trajectory.

    Args:
        task: the task (what the user says first, what it hides, how it is verified).
        agent: the coding agent (e.g. :class:`~autointeract.rollout.agent.LLMAgent`).
        user: the user simulator (prompted, or the learned one from ``users``).
        seed: the episode seed; it reaches every LLM call (agent and user).
        config: limits and the sandbox backend.
        sandbox: use this sandbox (not closed here); default: a fresh one from ``config``.
        verifier: ``(task, solution, sandbox) -> VerifierResult`` (default: the task's own).
        episode: the episode id (default from task, solver, user and seed).
        meta: extra fields for ``Trajectory.meta``.

    Returns:
        The trajectory; errors of the agent's model end the episode (``agent_error``)
        instead of raising.
    """
    from autointeract.sandbox import make_sandbox
    from autointeract.verifiers.repo import copy_into

    cfg = config or EpisodeConfig()
    t_start = time.perf_counter()
    own = sandbox is None
    inline_sb = cfg.sandbox.get("kind") == "fake"  # in memory: no thread hop needed
    if sandbox is not None:
        sb = sandbox
    else:
        sb = make_sandbox(cfg.sandbox) if inline_sb else await asyncio.to_thread(
            make_sandbox, cfg.sandbox)
    verify_fn = verifier or (lambda t, s, b: sandbox_verifier(t, s, b, repo=cfg.repo_path))
    st = EpisodeState(task=task, seed=seed, sandbox=sb,
                      agent_state=agent.init_state(task, seed=seed),
                      user_state=user.init_state(task, seed=seed))
    loop = _Loop(st, agent, user, cfg, verify_fn)
    try:
        if loop.repo and task.verifier.repo_dir:
            # the agent starts from the task's workspace only: never the task folder, whose
            # reference patch, recorded session and hidden tests must stay out of reach
            start = task.verifier.meta.get("workspace_dir") or task.verifier.repo_dir
            await asyncio.to_thread(copy_into, sb, start, dest=cfg.repo_path)
        try:
            async with asyncio.timeout(cfg.max_wall_s):
                await loop.run()
        except TimeoutError:
            st.finish_reason = "time_limit"
        except UserModelError as exc:
            st.finish_reason, st.error = "user_error", str(exc)[:500]
        except LLMError as exc:
            st.finish_reason, st.error = "agent_error", str(exc)[:500]
        if st.solution is None and st.candidate is None and cfg.final_fallback == "last_code":
            st.candidate = st.last_code
        final = (await loop.check(st.solution or st.candidate)
                 if loop.repo or (st.solution or st.candidate) is not None else no_solution(task))
    finally:
        if own and inline_sb:
            sb.close()
        elif own:
            await asyncio.to_thread(sb.close)
    return build_trajectory(st, agent_name=agent.name, user=user, final=final, repo=loop.repo,
                            episode=episode, meta=meta, wall_s=time.perf_counter() - t_start)
