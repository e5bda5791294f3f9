"""MAP-Elites over user profiles, on pyribs, in ask/tell form.

The library proposes profile vectors; the caller simulates them (expensive, concurrent,
outside the library) and tells back realism as the objective and measured behavior as the
descriptors::

    evo = ProfileEvolver(cfg, realism=model, seeds=seed_profiles(sessions))
    while not evo.done:
        profiles = evo.ask()
        measurements = await measure_many(factory, profiles, probes=cfg.probes)
        evo.tell(profiles, measurements)

Iteration 0 evaluates the seed profiles (fitted to real sessions) and adds them to the archive
directly; later iterations come from the emitters (``gaussian``, ``iso_line`` or CMA-ME
``cma_me``). Profiles whose realism does not exceed ``archive.min_realism`` are not archived.
The whole evolver (archive, emitters, their random states) pickles, which is how
:mod:`.run` checkpoints and resumes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from autointeract.config import StrictModel
from autointeract.profiles.measure import FEATURES, Measurement, ProbeSet, check_features
from autointeract.profiles.realism import DEFAULT_FEATURES, RealismModel, combine
from autointeract.profiles.space import BOUNDS, DIM, from_vector, to_vector
from autointeract.types import UserProfile


class ArchiveConfig(StrictModel):
    """The grid: which measured features span it, how finely, over what ranges."""

    descriptors: list[str] = Field(default_factory=lambda: ["pushback_rate", "log_words_per_turn"])
    dims: list[int] = Field(default_factory=lambda: [10, 10])
    ranges: list[tuple[float, float]] | None = None
    min_realism: float = Field(default=0.0, ge=0.0, lt=1.0)

    @model_validator(mode="after")
    def _check(self) -> ArchiveConfig:
        check_features(self.descriptors)
        if not 1 <= len(self.descriptors) <= 3 or len(self.dims) != len(self.descriptors):
            raise ValueError("give 1-3 descriptors and one dims entry per descriptor")
        if self.ranges is not None and len(self.ranges) != len(self.descriptors):
            raise ValueError("give one range per descriptor")
        return self

    def resolved_ranges(self) -> list[tuple[float, float]]:
        return list(self.ranges or [FEATURES[d][1] for d in self.descriptors])


class EvolveConfig(StrictModel):
    """Everything that decides an evolution run (with the seed, it fixes the result).

    Attributes:
        iterations: Emitter iterations after the seed iteration.
        emitter: ``iso_line`` (Iso+LineDD), ``gaussian`` or ``cma_me``.
        n_emitters: Emitters per iteration.
        batch_size: Profiles per emitter per iteration.
        sigma: Mutation scale (iso sigma for ``iso_line``, initial step for ``cma_me``).
        line_sigma: Line scale of ``iso_line``.
        n_seeds: Seed profiles evaluated in iteration 0 (fitted to real sessions; random
            profiles fill up when there are fewer).
        probes: The probe episodes that measure each profile.
        realism_features: Features of the realism density.
        judge_weight: Weight of the LLM judge in the objective (0 = density only).
        seed: The run's seed.
    """

    archive: ArchiveConfig = Field(default_factory=ArchiveConfig)
    iterations: int = Field(default=10, ge=0)
    emitter: Literal["iso_line", "gaussian", "cma_me"] = "iso_line"
    n_emitters: int = Field(default=2, ge=1)
    batch_size: int = Field(default=4, ge=1)
    sigma: float = Field(default=0.08, gt=0)
    line_sigma: float = Field(default=0.2, ge=0)
    n_seeds: int = Field(default=8, ge=1)
    probes: ProbeSet = Field(default_factory=ProbeSet)
    realism_features: list[str] = Field(default_factory=lambda: list(DEFAULT_FEATURES))
    judge_weight: float = Field(default=0.0, ge=0.0, le=1.0)
    seed: int = 0


def make_archive(cfg: ArchiveConfig, *, seed: int) -> Any:
    """A ``GridArchive`` over the descriptors, with a ``uid`` field linking to the side table."""
    from ribs.archives import GridArchive

    return GridArchive(solution_dim=DIM, dims=cfg.dims, ranges=cfg.resolved_ranges(),
                       learning_rate=1.0, threshold_min=cfg.min_realism, seed=seed,
                       extra_fields={"uid": ((), np.int64)})


def make_emitters(cfg: EvolveConfig, archive: Any, x0: np.ndarray) -> list[Any]:
    """The configured emitters, started from the seed vectors."""
    from ribs.emitters import EvolutionStrategyEmitter, GaussianEmitter, IsoLineEmitter

    out: list[Any] = []
    for i in range(cfg.n_emitters):
        s = cfg.seed * 1000 + i + 1
        if cfg.emitter == "iso_line":
            out.append(IsoLineEmitter(archive, iso_sigma=cfg.sigma, line_sigma=cfg.line_sigma,
                                      initial_solutions=x0, bounds=BOUNDS,
                                      batch_size=cfg.batch_size, seed=s))
        elif cfg.emitter == "gaussian":
            out.append(GaussianEmitter(archive, sigma=cfg.sigma, initial_solutions=x0,
                                       bounds=BOUNDS, batch_size=cfg.batch_size, seed=s))
        else:
            out.append(EvolutionStrategyEmitter(archive, x0=x0[i % len(x0)], sigma0=cfg.sigma,
                                                ranker="2imp", bounds=BOUNDS,
                                                batch_size=cfg.batch_size, seed=s))
    return out


def pick_seeds(seeds: Sequence[UserProfile], n: int, *, seed: int) -> list[UserProfile]:
    """``n`` seed profiles: a seeded sample of ``seeds``, topped up with random profiles."""
    rng = random.Random(seed)
    chosen = rng.sample(list(seeds), min(n, len(seeds)))
    while len(chosen) < n:
        vec = [rng.random() for _ in range(DIM)]
        chosen.append(from_vector(vec, id=f"random-{len(chosen)}", meta={"origin": "random"}))
    return chosen


class ProfileEvolver:
    """MAP-Elites over profiles: :meth:`ask` for profiles, :meth:`tell` their measurements.

    Args:
        config: The run's settings.
        realism: The objective's density model.
        seeds: Seed profiles (fitted to real sessions).
    """

    def __init__(self, config: EvolveConfig, *, realism: RealismModel, seeds: Sequence[UserProfile]):
        self.config, self.realism = config, realism
        self.archive = make_archive(config.archive, seed=config.seed)
        self.seeds = pick_seeds(seeds, config.n_seeds, seed=config.seed)
        self.scheduler: Any = None
        self.iteration = 0  # iterations completed (0 = the seed iteration is next)
        self.history: list[dict[str, Any]] = []
        self._pending: np.ndarray | None = None

    @property
    def done(self) -> bool:
        return self.iteration > self.config.iterations

    def _start_scheduler(self) -> None:
        from ribs.schedulers import Scheduler

        x0 = np.stack([to_vector(p) for p in self.seeds])
        # "single" adds one by one, so a cell's threshold is always its elite's realism;
        # the batch rule would set it to the batch mean and let a worse profile replace it.
        self.scheduler = Scheduler(self.archive, make_emitters(self.config, self.archive, x0),
                                   add_mode="single")

    def uid(self, i: int) -> int:
        """The id of the ``i``-th profile asked in the current iteration."""
        return self.iteration * 100_000 + i

    def ask(self) -> list[UserProfile]:
        """The profiles to evaluate in this iteration (the seeds in iteration 0)."""
        if self.iteration == 0:
            self._pending = None
            return [p.model_copy(update={"id": f"p{self.uid(i)}",
                                         "meta": {**p.meta, "origin": p.meta.get("origin", "seed")}})
                    for i, p in enumerate(self.seeds)]
        if self.scheduler is None:
            self._start_scheduler()
        self._pending = self.scheduler.ask()
        return [from_vector(v, id=f"p{self.uid(i)}", meta={"origin": self.config.emitter})
                for i, v in enumerate(self._pending)]

    def objectives(self, measurements: Sequence[Measurement],
                   judge: Sequence[float | None] | None = None) -> np.ndarray:
        """Realism of each measurement; a failed measurement scores below every threshold."""
        out = np.full(len(measurements), -1.0)
        for i, m in enumerate(measurements):
            if m.ok:
                dens = self.realism.score_features(m.features)
                out[i] = combine(dens, judge[i] if judge else None,
                                 judge_weight=self.config.judge_weight)
        return out

    def descriptors(self, measurements: Sequence[Measurement]) -> np.ndarray:
        """Each measurement's descriptor vector (the lower corner for a failed one)."""
        names, lo = self.config.archive.descriptors, [r[0] for r in self.config.archive.resolved_ranges()]
        return np.array([[m.features[d] for d in names] if m.ok else lo for m in measurements],
                        dtype=np.float64).reshape(len(measurements), len(names))

    def tell(self, profiles: Sequence[UserProfile], measurements: Sequence[Measurement], *,
             judge: Sequence[float | None] | None = None) -> dict[str, Any]:
        """Report the measurements of the profiles from the last :meth:`ask`.

        Returns:
            The archive statistics after this iteration.

        Raises:
            ValueError: When the lengths do not match the asked batch.
        """
        if len(profiles) != len(measurements):
            raise ValueError("one measurement per profile")
        obj, desc = self.objectives(measurements, judge), self.descriptors(measurements)
        uids = np.array([self.uid(i) for i in range(len(profiles))], dtype=np.int64)
        if self.iteration == 0:
            for p, o, d, u in zip(profiles, obj, desc, uids, strict=True):
                self.archive.add_single(to_vector(p), o, d, uid=u)
        else:
            if self._pending is None or len(self._pending) != len(profiles):
                raise ValueError("tell() must follow ask() with the same batch")
            self.scheduler.tell(obj, desc, uid=uids)
        self._pending = None
        st = self.stats()
        st["iteration"], st["evaluated"] = self.iteration, len(profiles)
        st["failed"] = int(sum(not m.ok for m in measurements))
        self.history.append(st)
        self.iteration += 1
        return st

    def stats(self) -> dict[str, Any]:
        """Coverage, QD score and friends of the archive now."""
        s = self.archive.stats
        return {"num_elites": int(s.num_elites), "coverage": float(s.coverage),
                "qd_score": float(s.qd_score), "norm_qd_score": float(s.norm_qd_score),
                "obj_max": None if s.obj_max is None else float(s.obj_max),
                "obj_mean": None if s.obj_mean is None else float(s.obj_mean)}
