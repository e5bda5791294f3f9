"""Measured behavior: play a profile through probe episodes and compute its statistics.

A profile's place in the archive is what it *did*, not what its parameters say: each profile
is simulated on the same fixed probe episodes (:mod:`.probes`, seeds derived from one
measurement seed, so every profile meets the same situations) and the user's turns are
scored with ``autointeract.history.stats.conversation_stats``, exactly as real sessions are.

Features (all from :class:`~autointeract.history.stats.BehaviorStats`):
    pushback_rate, question_rate, approval_rate, new_requirement_rate, typo_rate, and
    log_words_per_turn = log(1 + words_per_turn_mean).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from autointeract.errors import LLMError
from autointeract.profiles.probes import PROBE_TASKS, run_probe
from autointeract.rollout.seeding import derive_seed
from autointeract.types import TaskSpec, UserProfile

if TYPE_CHECKING:
    from autointeract.history.stats import BehaviorStats
    from autointeract.profiles.simulator import SimulatorFactory

FEATURES: dict[str, tuple[Callable[[BehaviorStats], float], tuple[float, float]]] = {
    "pushback_rate": (lambda s: s.pushback_rate, (0.0, 1.0)),
    "log_words_per_turn": (lambda s: math.log1p(s.words_per_turn_mean), (0.0, 7.5)),
    "question_rate": (lambda s: s.question_rate, (0.0, 1.0)),
    "approval_rate": (lambda s: s.approval_rate, (0.0, 1.0)),
    "new_requirement_rate": (lambda s: s.new_requirement_rate, (0.0, 1.0)),
    "typo_rate": (lambda s: s.typo_rate, (0.0, 0.1)),
}
"""Feature name -> (function of the statistics, default descriptor range)."""


def check_features(names: Sequence[str]) -> list[str]:
    """``names`` as a list, or ``ValueError`` naming the unknown ones."""
    bad = [n for n in names if n not in FEATURES]
    if bad:
        raise ValueError(f"unknown features {bad} (known: {', '.join(FEATURES)})")
    return list(names)


def features_of(stats: BehaviorStats, names: Sequence[str] | None = None) -> dict[str, float]:
    """The named features (all by default) of one set of statistics."""
    return {n: float(FEATURES[n][0](stats)) for n in check_features(names or list(FEATURES))}


class Measurement(BaseModel):
    """What a profile did on the probe episodes."""

    features: dict[str, float] = Field(default_factory=dict)
    n_user_turns: int = 0
    user_turns: list[list[str]] = Field(default_factory=list)  # one list per probe episode
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.n_user_turns > 0


class ProbeSet(BaseModel):
    """Which probe episodes measure a profile. Same set + same seed = same situations."""

    n_probes: int = Field(default=2, ge=1)
    max_agent_turns: int = Field(default=3, ge=1, le=3)
    seed: int = 0

    def episodes(self, tasks: Sequence[TaskSpec] = PROBE_TASKS) -> list[tuple[TaskSpec, int]]:
        """(task, episode seed) for each probe episode."""
        return [(tasks[i % len(tasks)], derive_seed(self.seed, "probe", i))
                for i in range(self.n_probes)]


def stats_of_turns(turns: Sequence[Sequence[str]], *,
                   vocabulary: frozenset[str] | None = None) -> BehaviorStats:
    """Behavior statistics of simulated conversations (rule-labeled, like real ones)."""
    from autointeract.history.stats import conversation_stats

    return conversation_stats([list(t) for t in turns], vocabulary=vocabulary)


async def measure_profile(factory: SimulatorFactory, profile: UserProfile, *, probes: ProbeSet,
                          tasks: Sequence[TaskSpec] = PROBE_TASKS,
                          vocabulary: frozenset[str] | None = None) -> Measurement:
    """Simulate ``profile`` on the probe episodes and measure every feature.

    An LLM failure does not raise: the measurement carries ``error`` and no features.
    """
    sim = factory(profile)
    try:
        transcripts = [await run_probe(sim, task, seed=seed, max_agent_turns=probes.max_agent_turns)
                       for task, seed in probes.episodes(tasks)]
    except LLMError as exc:
        return Measurement(error=str(exc)[:300])
    turns = [t.user_turns for t in transcripts]
    stats = stats_of_turns(turns, vocabulary=vocabulary)
    return Measurement(features=features_of(stats), n_user_turns=stats.n_user_turns,
                       user_turns=turns)


async def measure_many(factory: SimulatorFactory, profiles: Sequence[UserProfile], *,
                       probes: ProbeSet, tasks: Sequence[TaskSpec] = PROBE_TASKS,
                       vocabulary: frozenset[str] | None = None,
                       on_done: Callable[[int], None] | None = None) -> list[Measurement]:
    """Measure many profiles concurrently (the LLM client caps the concurrency).

    Args:
        factory: ``profile -> UserSimulator``.
        profiles: The profiles, in order.
        probes: The probe episodes.
        tasks: The probe tasks.
        vocabulary: Typo vocabulary (use the real corpus's, so both are measured alike).
        on_done: Called with the index of each profile as its measurement finishes.

    Returns:
        One measurement per profile, in order.
    """
    async def one(i: int, p: UserProfile) -> Measurement:
        m = await measure_profile(factory, p, probes=probes, tasks=tasks, vocabulary=vocabulary)
        if on_done is not None:
            on_done(i)
        return m

    return list(await asyncio.gather(*(one(i, p) for i, p in enumerate(profiles))))
