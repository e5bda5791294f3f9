"""Where episodes run: an executor protocol, a local one (asyncio) and a Ray one.

    ex = LocalExecutor(participants, client=client, concurrency=4)
    results = await ex.run(jobs)          # Trajectory, or the exception of a broken episode

:class:`Participants` is plain, picklable data (solver configs, the user config, episode
limits, the LLM config), so the Ray executor ships it to workers that rebuild the agents, the
user and their own LLM client. Locally, episodes share the run's client (its concurrency cap
and cache) and sandboxes and verifiers run as subprocesses from worker threads.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from autointeract.calibrate.config import SolverConfig, UserConfig, resolve_model
from autointeract.config import LLMConfig, ModelConfig
from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig
from autointeract.types import TaskSpec, Trajectory, UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient
    from autointeract.rollout.protocols import Agent, UserSimulator


@dataclass
class EpisodeJob:
    """One episode to run: a task, a solver role, a seed, the user's profile."""

    episode_id: str
    task: TaskSpec
    role: str
    seed: int
    profile: UserProfile | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Participants:
    """Everything needed to rebuild the episode's participants in any process."""

    solvers: dict[str, SolverConfig]
    user: UserConfig
    models: dict[str, ModelConfig] = field(default_factory=dict)
    episode: EpisodeConfig = field(default_factory=EpisodeConfig)
    verify: str = "judge"
    llm: LLMConfig = field(default_factory=LLMConfig)

    def agent(self, role: str, client: LLMClient | None) -> Agent:
        """The solver playing ``role``."""
        cfg = self.solvers[role]
        name = cfg.name or role
        if cfg.kind == "skill":
            from autointeract.calibrate.fakes import SkillAgent

            return SkillAgent(name=name, skill=cfg.skill, latency_s=cfg.latency_s)
        from autointeract.rollout.agent import LLMAgent

        if client is None:
            raise ValueError("an LLM solver needs an LLM client")
        acfg = AgentConfig(name=name, model=resolve_model(cfg.model, self.models),
                           tool_mode=cfg.tool_mode, max_turns=cfg.max_turns,
                           max_tokens=cfg.max_tokens, temperature=cfg.temperature,
                           system_prompt=cfg.system_prompt)
        agent: Agent = LLMAgent(acfg, client)
        if cfg.submit_on_code:
            from autointeract.calibrate.solvers import SubmitOnCode

            agent = SubmitOnCode(agent)
        return agent

    def user_for(self, profile: UserProfile | None, client: LLMClient | None) -> UserSimulator:
        """The simulated user, conditioned on ``profile``."""
        u = self.user
        model = resolve_model(u.model, self.models) if u.model else None
        if u.kind == "learned":
            from autointeract.users.simulator import LearnedUser

            if client is None or model is None:
                raise ValueError("the learned user needs user.model and an LLM client")
            kw: dict[str, Any] = {"profile": profile, "max_tokens": u.max_tokens}
            if u.path:
                return LearnedUser.from_artifact(u.path, client, model, **kw)
            return LearnedUser(client, model, **kw)
        from autointeract.rollout.prompted_user import PromptedUser

        pcfg = PromptedUserConfig(mode=u.mode, model=model, max_user_turns=u.max_user_turns,
                                  max_tokens=u.max_tokens)
        return PromptedUser(pcfg, client=client, profile=profile)

    def verifier(self) -> Any:
        if self.verify == "reference":
            from autointeract.rollout.verify import reference_verifier

            return reference_verifier
        return None


async def run_job(job: EpisodeJob, parts: Participants, client: LLMClient | None) -> Trajectory:
    """Run one job to its trajectory (the role and job meta go into ``Trajectory.meta``)."""
    from autointeract.rollout.episode import run_episode

    return await run_episode(job.task, parts.agent(job.role, client),
                             parts.user_for(job.profile, client), seed=job.seed,
                             config=parts.episode, verifier=parts.verifier(),
                             episode=job.episode_id, meta={"role": job.role, **job.meta})


class Executor(Protocol):
    """Runs episode jobs; results are in job order, an exception stands for a broken episode."""

    async def run(self, jobs: list[EpisodeJob]) -> list[Trajectory | BaseException]:
        ...

    def close(self) -> None:
        ...


class LocalExecutor:
    """Episodes as asyncio tasks in this process, ``concurrency`` at once.

    Args:
        participants: how to build solvers and the user.
        client: the run's LLM client (shared: its cache and concurrency cap apply).
        concurrency: episodes in flight.
    """

    def __init__(self, participants: Participants, *, client: LLMClient | None,
                 concurrency: int = 4):
        self.parts, self.client = participants, client
        self._slots = asyncio.Semaphore(concurrency)

    async def run(self, jobs: list[EpisodeJob]) -> list[Trajectory | BaseException]:
        async def one(job: EpisodeJob) -> Trajectory:
            async with self._slots:
                return await run_job(job, self.parts, self.client)

        return list(await asyncio.gather(*(one(j) for j in jobs), return_exceptions=True))

    def close(self) -> None:
        return None


def _ray_episode(parts: Participants, job: EpisodeJob) -> str:
    """Ray worker body: rebuild the participants and run one episode; trajectory JSON."""
    from autointeract.llm.client import LLMClient

    client = LLMClient(parts.llm)
    return asyncio.run(run_job(job, parts, client)).model_dump_json()


class RayExecutor:
    """Episodes as Ray tasks, for runs that outgrow one machine.

    Args:
        participants: how to build solvers and the user (shipped to workers).
        address: a Ray cluster address; None starts (or joins) a local instance.
        num_cpus: CPUs of a local instance.
        concurrency: episodes in flight.
    """

    def __init__(self, participants: Participants, *, address: str | None = None,
                 num_cpus: int | None = None, concurrency: int = 4):
        import ray

        if not ray.is_initialized():
            ray.init(address=address, num_cpus=num_cpus, include_dashboard=False,
                     ignore_reinit_error=True, log_to_driver=False)
        self._ray = ray
        self.parts = participants
        self._remote = ray.remote(num_cpus=1)(_ray_episode)
        self._slots = asyncio.Semaphore(concurrency)
        self._parts_ref = ray.put(participants)

    async def run(self, jobs: list[EpisodeJob]) -> list[Trajectory | BaseException]:
        async def one(job: EpisodeJob) -> Trajectory:
            async with self._slots:
                raw = await self._remote.remote(self._parts_ref, job)
            return Trajectory.model_validate_json(raw)

        return list(await asyncio.gather(*(one(j) for j in jobs), return_exceptions=True))

    def close(self) -> None:
        return None


def make_executor(kind: str, participants: Participants, *, client: LLMClient | None,
                  concurrency: int, address: str | None = None) -> Executor:
    """``local`` or ``ray`` executor."""
    if kind == "ray":
        return RayExecutor(participants, address=address, concurrency=concurrency)
    return LocalExecutor(participants, client=client, concurrency=concurrency)


__all__ = ["EpisodeJob", "Executor", "LocalExecutor", "Participants", "RayExecutor",
           "make_executor", "run_job"]
