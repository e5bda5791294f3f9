"""The calibration loop: controller -> generator -> evaluator, resumable, with live progress.

    summary = run_calibration(cfg, run_dir="runs/x", client=client, models=models, seed=0)

Outputs (under ``run_dir``), all append-only or atomically replaced:

* ``candidates.jsonl`` — one record per candidate: proposal, generation, task, evidence;
* ``interactions.jsonl`` — every episode (:class:`~autointeract.types.Trajectory`);
* ``controller.json`` — the controller's checkpoint after each round;
* ``calibrate_summary.json`` — the final summary (funnel, cost, time).

Candidate and episode ids are deterministic (the controller's state, random generator
included, is checkpointed), so a killed run that is started again re-asks the same
proposals, reuses every candidate and episode already written, and goes on: nothing lost,
nothing duplicated.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autointeract.calibrate.config import CalibrateConfig, resolve_model
from autointeract.calibrate.controller import Controller, Outcome, Proposal
from autointeract.calibrate.evaluator import Evaluator
from autointeract.calibrate.executor import Executor, Participants, make_executor
from autointeract.calibrate.generator import Firewall, Generator
from autointeract.calibrate.progress import LiveProgress
from autointeract.calibrate.store import RecordStore, atomic_write_text
from autointeract.config import ModelConfig
from autointeract.rollout.store import TrajectoryStore
from autointeract.types import TaskSpec, UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

CANDIDATES, INTERACTIONS, CHECKPOINT = "candidates.jsonl", "interactions.jsonl", "controller.json"
SUMMARY = "calibrate_summary.json"


@dataclass
class Inputs:
    """The loop's inputs besides the config: seed tasks and the profile sampler."""

    seeds: dict[str, TaskSpec]
    sampler: Any = None
    cells: list[int | None] = field(default_factory=lambda: [None])

    def profile(self, cell: int | None, seed: int) -> UserProfile | None:
        if self.sampler is None or cell is None:
            return UserProfile(id="default")
        return self.sampler.sample(random.Random(seed), cell=cell)  # type: ignore[no-any-return]


def load_inputs(cfg: CalibrateConfig, *, seeds: list[TaskSpec] | None = None,
                profiles: str | None = None) -> Inputs:
    """Seed tasks (from the config's scenario or given) and the profile archive, if any."""
    if seeds is None and cfg.seeds.tasks_file:
        from autointeract.scenarios.stage import read_tasks

        seeds = read_tasks(cfg.seeds.tasks_file)
        if cfg.seeds.ids:
            seeds = [t for t in seeds if t.task_id in set(cfg.seeds.ids)]
        seeds = seeds[: cfg.seeds.limit] if cfg.seeds.limit else seeds
    if seeds is None:
        from autointeract.scenarios import load_tasks

        opts: dict[str, Any] = {"ids": cfg.seeds.ids} if cfg.seeds.ids else {}
        if cfg.seeds.limit:
            opts["limit"] = cfg.seeds.limit
        seeds = load_tasks(cfg.seeds.family, cfg.seeds.source, **opts)
    path = profiles or cfg.profiles
    if path is None:
        return Inputs(seeds={t.task_id: t for t in seeds})
    from autointeract.profiles import ProfileSampler

    sampler = ProfileSampler(path)
    return Inputs(seeds={t.task_id: t for t in seeds}, sampler=sampler,
                  cells=list(sampler.cells()))


class CalibrationLoop:
    """One calibration run over ``run_dir`` (see the module docstring).

    Args:
        cfg: the stage's config.
        run_dir: where outputs go (resumed when they exist).
        client: the LLM client (None is fine for ``skill`` solvers and knob-only variants).
        models: named models (``weak``/``strong``...) the config refers to.
        seed: the run seed.
        inputs: seed tasks and profiles (default: from the config).
        firewall: optional evaluation firewall (refuses matching variants).
        executor: where episodes run (default: from the config).
    """

    def __init__(self, cfg: CalibrateConfig, *, run_dir: str | Path, client: LLMClient | None,
                 models: dict[str, ModelConfig] | None = None, seed: int = 0,
                 inputs: Inputs | None = None, firewall: Firewall | None = None,
                 executor: Executor | None = None):
        self.cfg, self.run_dir, self.client, self.seed = cfg, Path(run_dir), client, seed
        self.models = models or {}
        self.inputs = inputs or load_inputs(cfg)
        gen_model = resolve_model(cfg.generator.model, self.models) if client else None
        self.generator = Generator(cfg.generator, client=client, model=gen_model,
                                   firewall=firewall)
        self.parts = Participants(solvers={"weak": cfg.weak, "strong": cfg.strong},
                                  user=cfg.user, models=self.models, episode=cfg.episode,
                                  verify=cfg.verify,
                                  llm=client.config if client is not None else _default_llm())
        self.executor = executor or make_executor(cfg.executor, self.parts, client=client,
                                                  concurrency=cfg.concurrency,
                                                  address=cfg.ray_address)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.candidates = RecordStore(self.run_dir / CANDIDATES, key="candidate_id")
        self.episodes = TrajectoryStore(self.run_dir / INTERACTIONS)

    def controller(self) -> Controller:
        ck = self.run_dir / CHECKPOINT
        if ck.exists():
            return Controller.restore(ck, self.cfg.controller)
        return Controller(self.cfg.controller, seed_ids=list(self.inputs.seeds),
                          cells=self.inputs.cells, seed=self.seed)

    async def _candidate(self, prop: Proposal, evaluator: Evaluator,
                         done: dict[str, dict[str, Any]]) -> Outcome:
        if prop.candidate_id in done:  # written before a kill: reuse, never redo
            return Outcome.model_validate(done[prop.candidate_id]["outcome"])
        t0 = time.perf_counter()
        seed_task = self.inputs.seeds[prop.seed_id]
        profile = self.inputs.profile(prop.profile_cell, prop.seed)
        meta = {"candidate_id": prop.candidate_id, "seed_id": prop.seed_id,
                "profile_cell": prop.profile_cell, "level": prop.level}
        gen = await asyncio.to_thread(self.generator.generate, seed_task, profile, prop.knobs,
                                      seed=prop.seed, meta=meta)
        rec: dict[str, Any] = {"candidate_id": prop.candidate_id,
                               "proposal": prop.model_dump(mode="json"),
                               "profile": profile.model_dump(mode="json") if profile else None,
                               "generation": {"status": gen.status, "source": gen.source,
                                              "fallback_reason": gen.fallback_reason,
                                              "reference": gen.reference,
                                              "firewall_match": gen.firewall_match}}
        if gen.task is None:
            out = Outcome(candidate_id=prop.candidate_id, status=gen.status,
                          wall_s=round(time.perf_counter() - t0, 3))
            rec.update(task=None, evidence=None, outcome=out.model_dump())
            self.candidates.append(rec)
            return out
        evidence, _ = await evaluator.evaluate(gen.task, profile, seed=prop.seed,
                                               meta={**meta, "task_id": gen.task.task_id})
        out = Outcome(candidate_id=prop.candidate_id, status=evidence.status,
                      task_id=gen.task.task_id, weak_rate=evidence.weak.rate,
                      strong_rate=evidence.strong.rate, episodes=evidence.episodes,
                      tokens=evidence.tokens, wall_s=round(time.perf_counter() - t0, 3))
        gen.task.meta["calibration"] = evidence.summary()
        rec.update(task=gen.task.model_dump(mode="json"), evidence=evidence.model_dump(),
                   outcome=out.model_dump())
        self.candidates.append(rec)
        return out

    async def arun(self) -> dict[str, Any]:
        """Run (or resume) until the controller stops; returns the summary."""
        ctrl = self.controller()
        known = {t.episode_id: t for t in self.episodes}
        done = self.candidates.load()
        evaluator = Evaluator(self.cfg.band, self.executor, known=known,
                              on_episode=self.episodes.append)
        t_run = time.perf_counter()
        with LiveProgress(enabled=self.cfg.progress, total=ctrl.config.max_candidates,
                          usage=self.client.usage if self.client else None) as bar:
            bar.update(ctrl)
            while not ctrl.done():
                props = ctrl.ask(self.cfg.controller.batch)
                if not props:
                    break
                t0 = time.perf_counter()
                outs = await asyncio.gather(*(self._candidate(p, evaluator, done) for p in props))
                ctrl.tell(props, list(outs))
                ctrl.note_elapsed(time.perf_counter() - t0)
                ctrl.save(self.run_dir / CHECKPOINT)
                bar.update(ctrl)
        self.executor.close()
        summary = self.summary(ctrl, time.perf_counter() - t_run)
        atomic_write_text(self.run_dir / SUMMARY, _dumps(summary))
        return summary

    def run(self) -> dict[str, Any]:
        """Blocking :meth:`arun`."""
        return asyncio.run(self.arun())

    def summary(self, ctrl: Controller, wall_s: float) -> dict[str, Any]:
        recs = list(self.candidates.load().values())
        gen = [r["generation"] for r in recs]
        accepted = [r for r in recs if r["outcome"]["status"] == "accepted"]
        usage = self.client.usage.summary() if self.client else {}
        cost = float(usage.get("total", {}).get("cost_usd", 0.0))
        return {
            "stop_reason": ctrl.stop_reason() or "proposals exhausted",
            "candidates": len(recs), "accepted": len(accepted),
            "acceptance_rate": round(len(accepted) / len(recs), 4) if recs else 0.0,
            "status_counts": ctrl.status_counts,
            "funnel": {"proposed": len(recs),
                       "llm_variants": sum(g["source"] == "llm" for g in gen),
                       "fallback_variants": sum(g["source"] == "fallback" for g in gen),
                       "firewalled": sum(g["status"] == "firewalled" for g in gen),
                       "reference_disagrees": sum(g["status"] == "reference_disagrees"
                                                  for g in gen),
                       "evaluated": sum(r["evidence"] is not None for r in recs),
                       "accepted": len(accepted)},
            "episodes": ctrl.totals["episodes"], "tokens": ctrl.totals["tokens"],
            "cost_usd": round(cost, 6), "wall_s": round(wall_s, 2),
            "seeds": {k: {"accepted": s.accepted, "lo": s.lo, "hi": s.hi}
                      for k, s in ctrl.seeds.items()},
        }


def _default_llm() -> Any:
    from autointeract.config import LLMConfig

    return LLMConfig()


def _dumps(obj: Any) -> str:
    import json

    return json.dumps(obj, indent=2, default=str)


def run_calibration(cfg: CalibrateConfig, *, run_dir: str | Path, client: LLMClient | None,
                    models: dict[str, ModelConfig] | None = None, seed: int = 0,
                    inputs: Inputs | None = None, firewall: Firewall | None = None,
                    executor: Executor | None = None) -> dict[str, Any]:
    """Run (or resume) a calibration; see :class:`CalibrationLoop`. Returns the summary."""
    return CalibrationLoop(cfg, run_dir=run_dir, client=client, models=models, seed=seed,
                           inputs=inputs, firewall=firewall, executor=executor).run()


__all__ = ["CANDIDATES", "CHECKPOINT", "INTERACTIONS", "SUMMARY", "CalibrationLoop", "Inputs",
           "load_inputs", "run_calibration"]
