"""The evaluator: episodes of the weak and the strong solver until the band rule decides.

Each round runs the episodes :func:`~autointeract.calibrate.decision.decide` asks for (only
for solvers still undecided) through an :class:`~autointeract.calibrate.executor.Executor`,
then decides again. Episode seeds derive from the candidate's seed, the role and the episode
index, so ``offset`` gives fresh seeds for a re-check and a resumed run reuses episodes
already written (``known``) instead of running them twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from autointeract.calibrate.config import BandConfig
from autointeract.calibrate.decision import Counts, Decision, decide
from autointeract.calibrate.executor import EpisodeJob, Executor
from autointeract.rollout.seeding import derive_seed
from autointeract.types import TaskSpec, Trajectory, UserProfile

ROLES = ("weak", "strong")


class SolverEvidence(BaseModel):
    passes: int = 0
    n: int = 0
    errors: int = 0
    episode_ids: list[str] = Field(default_factory=list)
    rewards: list[float] = Field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.passes / self.n if self.n else 0.0


class Evidence(BaseModel):
    """The calibration evidence of one task."""

    status: str
    weak: SolverEvidence
    strong: SolverEvidence
    p_weak_in: float
    p_strong_in: float
    confidence: float
    band: dict[str, float]
    rounds: int
    episodes: int
    tokens: int
    wall_s: float

    def summary(self) -> dict[str, Any]:
        return {"status": self.status, "weak_rate": round(self.weak.rate, 4),
                "strong_rate": round(self.strong.rate, 4), "n_weak": self.weak.n,
                "n_strong": self.strong.n, "p_weak_in": self.p_weak_in,
                "p_strong_in": self.p_strong_in}


def job_id(task_id: str, role: str, seed: int) -> str:
    return f"{task_id}|{role}|s{seed}"


class Evaluator:
    """Sequential band evaluation of tasks (see the module docstring).

    Args:
        band: band edges, confidence and sampling limits.
        executor: where episodes run.
        known: trajectories already written, by episode id (reused, not rerun).
        on_episode: called with each new trajectory (e.g. to append it to a store).
    """

    def __init__(self, band: BandConfig, executor: Executor, *,
                 known: dict[str, Trajectory] | None = None,
                 on_episode: Callable[[Trajectory], None] | None = None):
        self.band, self.executor = band, executor
        self.known = known if known is not None else {}
        self.on_episode = on_episode

    async def evaluate(self, task: TaskSpec, profile: UserProfile | None, *, seed: int,
                       offset: int = 0, meta: dict[str, Any] | None = None
                       ) -> tuple[Evidence, list[Trajectory]]:
        """Run rounds until the band rule decides; the evidence and the trajectories."""
        t0 = time.perf_counter()
        ev = {r: SolverEvidence() for r in ROLES}
        attempts = {r: 0 for r in ROLES}
        trajs: list[Trajectory] = []
        rounds = tokens = 0
        while True:
            d = decide(Counts(ev["weak"].passes, ev["weak"].n),
                       Counts(ev["strong"].passes, ev["strong"].n), self.band)
            want = {"weak": d.next_weak, "strong": d.next_strong}
            if d.status != "continue":
                break
            jobs: list[EpisodeJob] = []
            for role in ROLES:
                for _ in range(want[role]):
                    if attempts[role] >= 2 * self.band.max_n:
                        continue
                    s = derive_seed(seed, role, offset + attempts[role])
                    attempts[role] += 1
                    jobs.append(EpisodeJob(job_id(task.task_id, role, s), task, role, s, profile,
                                           meta=dict(meta or {})))
            if not jobs:
                d = Decision(status="undecided", weak=d.weak, strong=d.strong,
                             p_weak_in=d.p_weak_in, p_strong_in=d.p_strong_in)
                break
            rounds += 1
            for job, res in zip(jobs, await self._run(jobs), strict=True):
                e = ev[job.role]
                if isinstance(res, BaseException):
                    e.errors += 1
                    continue
                trajs.append(res)
                e.n += 1
                e.passes += bool(res.verifier and res.verifier.passed)
                e.episode_ids.append(res.episode_id)
                e.rewards.append(res.reward)
                tokens += int(res.tokens.get("total", 0))
        evidence = Evidence(status=d.status, weak=ev["weak"], strong=ev["strong"],
                            p_weak_in=d.p_weak_in, p_strong_in=d.p_strong_in,
                            confidence=self.band.confidence,
                            band={"weak_max": self.band.weak_max,
                                  "strong_min": self.band.strong_min},
                            rounds=rounds, episodes=len(trajs), tokens=tokens,
                            wall_s=round(time.perf_counter() - t0, 3))
        return evidence, trajs

    async def _run(self, jobs: list[EpisodeJob]) -> list[Trajectory | BaseException]:
        todo = [j for j in jobs if j.episode_id not in self.known]
        fresh = dict(zip([j.episode_id for j in todo], await self.executor.run(todo), strict=True)
                     ) if todo else {}
        out: list[Trajectory | BaseException] = []
        for j in jobs:
            if j.episode_id in self.known:
                out.append(self.known[j.episode_id])
                continue
            res = fresh[j.episode_id]
            if isinstance(res, Trajectory):
                self.known[j.episode_id] = res
                if self.on_episode is not None:
                    self.on_episode(res)
            out.append(res)
        return out


__all__ = ["ROLES", "Evaluator", "Evidence", "SolverEvidence", "job_id"]
