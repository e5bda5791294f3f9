"""Many episodes at once: tasks × solvers × seeds, concurrent, written as they finish.

    result = run_episodes(tasks, AgentConfig(model="local/smollm2-135m"), PromptedUserConfig(),
                          seeds=[0, 1], concurrency=8, out_path="runs/x/trajectories.jsonl",
                          client=client)
    result.trajectories, result.skipped, result.failed, summarize(result.trajectories)

Episodes already in ``out_path`` are skipped (resume). An episode that crashes (a bug, a
broken sandbox) is reported in ``failed`` and not written, so a rerun retries it.
"""

from __future__ import annotations

import asyncio
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig
from autointeract.rollout.episode import episode_id, run_episode
from autointeract.rollout.protocols import Agent, UserSimulator
from autointeract.rollout.store import TrajectoryStore
from autointeract.rollout.verify import Verifier
from autointeract.types import TaskSpec, Trajectory

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient


@dataclass(repr=False)
class RolloutResult:
    """What a call of :func:`run_episodes` did."""

    trajectories: list[Trajectory] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)

    def __repr__(self) -> str:  # short: asyncio (3.11) reprs a run's result on exit
        return (f"RolloutResult({len(self.trajectories)} trajectories, "
                f"{len(self.skipped)} skipped, {len(self.failed)} failed)")


def make_agent(cfg: AgentConfig | Agent, client: LLMClient | None) -> Agent:
    """An agent from its config (an agent object passes through)."""
    if not isinstance(cfg, AgentConfig):
        return cfg
    from autointeract.rollout.agent import LLMAgent

    if client is None:
        raise ValueError("an LLM agent needs an LLMClient (client=...)")
    return LLMAgent(cfg, client)


def make_user(cfg: PromptedUserConfig | UserSimulator, client: LLMClient | None) -> UserSimulator:
    """A user simulator from its config (a simulator object passes through)."""
    if not isinstance(cfg, PromptedUserConfig):
        return cfg
    from autointeract.rollout.prompted_user import PromptedUser

    return PromptedUser(cfg, client=client)


def _as_list(x: Any) -> list[Any]:
    return list(x) if isinstance(x, list | tuple) else [x]


async def arun_episodes(tasks: Sequence[TaskSpec],
                        agent_cfg: AgentConfig | Agent | Sequence[AgentConfig | Agent],
                        user_cfg: PromptedUserConfig | UserSimulator, *, seeds: Sequence[int],
                        concurrency: int = 8, out_path: str | Path | None = None,
                        client: LLMClient | None = None, episode_cfg: EpisodeConfig | None = None,
                        verifier: Verifier | None = None, progress: bool = False,
                        on_done: Callable[[Trajectory], None] | None = None) -> RolloutResult:
    """The async form of :func:`run_episodes` (runs in the caller's event loop)."""
    agents = [make_agent(a, client) for a in _as_list(agent_cfg)]
    user = make_user(user_cfg, client)
    store = TrajectoryStore(out_path) if out_path else None
    done = store.done_ids() if store else set()
    result = RolloutResult()
    jobs = []
    for task in tasks:
        for agent in agents:
            for seed in seeds:
                eid = episode_id(task.task_id, agent.name, user.name, seed)
                if eid in done:
                    result.skipped.append(eid)
                else:
                    jobs.append((eid, task, agent, seed))
    slots = asyncio.Semaphore(concurrency)
    bar = _progress(len(jobs)) if progress and jobs else None

    async def one(eid: str, task: TaskSpec, agent: Agent, seed: int) -> None:
        async with slots:
            try:
                traj = await run_episode(task, agent, user, seed=seed, config=episode_cfg,
                                         verifier=verifier, episode=eid)
            except Exception as exc:  # one broken episode must not end the run
                result.failed.append((eid, f"{type(exc).__name__}: {exc}"[:500]))
                return
            finally:
                if bar is not None:
                    bar[0].advance(bar[1])
        if store is not None:
            store.append(traj)
        result.trajectories.append(traj)
        if on_done is not None:
            on_done(traj)

    try:
        await asyncio.gather(*(one(*j) for j in jobs))
    finally:
        if bar is not None:
            bar[0].stop()
    order = {j[0]: i for i, j in enumerate(jobs)}
    result.trajectories.sort(key=lambda t: order.get(t.episode_id, 0))
    return result


def run_episodes(tasks: Sequence[TaskSpec],
                 agent_cfg: AgentConfig | Agent | Sequence[AgentConfig | Agent],
                 user_cfg: PromptedUserConfig | UserSimulator, *, seeds: Sequence[int],
                 concurrency: int = 8, out_path: str | Path | None = None,
                 client: LLMClient | None = None, episode_cfg: EpisodeConfig | None = None,
                 verifier: Verifier | None = None, progress: bool = False) -> RolloutResult:
    """Run every (task, solver, seed) episode not yet in ``out_path``, ``concurrency`` at once.

    Args:
        tasks: the tasks.
        agent_cfg: one solver or several (configs or ready agents).
        user_cfg: the prompted user's config, or any ``UserSimulator`` (e.g. a learned one).
        seeds: episode seeds; each reaches every LLM call of its episode.
        concurrency: episodes in flight (also size the LLM client's ``max_concurrency``).
        out_path: append-only JSONL; episodes already there are skipped.
        client: the LLM client (needed for LLM agents and an LLM-phrased user).
        episode_cfg: limits and sandbox.
        verifier: override the task's verifier (e.g. ``reference_verifier`` in tests).
        progress: show a progress bar.

    Returns:
        The new trajectories (in job order), the skipped ids, the failed episodes.
    """
    async def main() -> RolloutResult:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=max(8, 2 * concurrency),
                                                     thread_name_prefix="rollout"))
        return await arun_episodes(tasks, agent_cfg, user_cfg, seeds=seeds,
                                   concurrency=concurrency, out_path=out_path, client=client,
                                   episode_cfg=episode_cfg, verifier=verifier, progress=progress)

    return asyncio.run(main())


def _progress(total: int) -> tuple[Any, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress("[progress.description]{task.description}", BarColumn(),
                   MofNCompleteColumn(), TimeElapsedColumn(), transient=False)
    bar.start()
    return bar, bar.add_task("episodes", total=total)


def summarize(trajectories: Sequence[Trajectory]) -> dict[str, dict[str, Any]]:
    """Per solver: episodes, pass rate, mean reward/turns/user correction, finish reasons."""
    by: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajectories:
        by[t.solver].append(t)
    out = {}
    for solver, ts in sorted(by.items()):
        out[solver] = {
            "episodes": len(ts),
            "pass_rate": round(sum(bool(t.verifier and t.verifier.passed) for t in ts) / len(ts), 4),
            "mean_reward": round(statistics.fmean(t.reward for t in ts), 4),
            "mean_grader": round(statistics.fmean(t.verifier.score if t.verifier else 0.0
                                                  for t in ts), 4),
            "mean_turns": round(statistics.fmean(t.meta.get("turns", 0) for t in ts), 2),
            "mean_user_correction": round(statistics.fmean(t.user_correction for t in ts), 3),
            "finish_reasons": dict(Counter(t.finish_reason for t in ts)),
        }
    return out
