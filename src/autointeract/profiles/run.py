"""The evolution loop around :class:`~autointeract.profiles.evolve.ProfileEvolver`.

Each iteration asks for profiles, measures them concurrently over the LLM layer, appends one
row per evaluated profile to ``profiles_evaluations.jsonl`` (flushed before the archive
changes), tells the evolver, then writes an atomic checkpoint (``profiles_checkpoint.pkl``
and ``profiles_state.json``) and the current elites (``profiles.jsonl``). A killed run resumes
from the last checkpoint: the restored emitters ask for exactly the same profiles again, and
those already evaluated are read back from the evaluations table instead of re-simulated.
"""

from __future__ import annotations

import asyncio
import json
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from autointeract.errors import ConfigError
from autointeract.profiles.evolve import EvolveConfig, ProfileEvolver
from autointeract.profiles.measure import Measurement, measure_many
from autointeract.profiles.realism import RealismModel, judge_plausibility
from autointeract.profiles.simulator import SimulatorFactory
from autointeract.types import UserProfile


@dataclass(frozen=True)
class ProfilePaths:
    """Where a profile population lives (``user_models/<name>/`` by default)."""

    root: Path

    @property
    def profiles(self) -> Path:
        return self.root / "profiles.jsonl"

    @property
    def checkpoint(self) -> Path:
        return self.root / "profiles_checkpoint.pkl"

    @property
    def state(self) -> Path:
        return self.root / "profiles_state.json"

    @property
    def evaluations(self) -> Path:
        return self.root / "profiles_evaluations.jsonl"

    @property
    def realism(self) -> Path:
        return self.root / "profiles_realism.json"

    @property
    def heatmap(self) -> Path:
        return self.root / "profiles_heatmap.png"

    @property
    def archive(self) -> Path:
        return self.root / "profiles_archive.npz"


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_evaluations(path: Path) -> dict[int, dict[str, Any]]:
    """uid -> evaluation row (a torn last line from a kill is ignored)."""
    out: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[int(row["uid"])] = row
    return out


def _resume_key(cfg: EvolveConfig) -> str:
    return json.dumps(cfg.model_dump(mode="json", exclude={"iterations"}), sort_keys=True)


def save_checkpoint(evo: ProfileEvolver, paths: ProfilePaths) -> None:
    """Pickle the evolver and write the readable state next to it (both atomic)."""
    atomic_write(paths.checkpoint, pickle.dumps(evo))
    state = {"iteration": evo.iteration, "iterations": evo.config.iterations,
             "config": evo.config.model_dump(mode="json"), "history": evo.history}
    atomic_write(paths.state, json.dumps(state, indent=2).encode())


def load_checkpoint(paths: ProfilePaths, cfg: EvolveConfig) -> ProfileEvolver:
    """The evolver of a checkpoint, extended to ``cfg.iterations``.

    Raises:
        ConfigError: The checkpoint was made with different settings (besides iterations).
    """
    evo: ProfileEvolver = pickle.loads(paths.checkpoint.read_bytes())
    if _resume_key(evo.config) != _resume_key(cfg):
        raise ConfigError("checkpoint was made with different settings; pass --fresh to start "
                          "over, or use the same config", file=str(paths.checkpoint))
    evo.config = evo.config.model_copy(update={"iterations": cfg.iterations})
    return evo


def _append(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in rows))
        fh.flush()
        os.fsync(fh.fileno())


def _reused(row: dict[str, Any] | None, prof: UserProfile) -> Measurement | None:
    if row is None or not np.allclose(row["profile"]["vector"], prof.vector(), atol=1e-12):
        return None
    return Measurement.model_validate(row["measurement"])


@dataclass
class Judge:
    """An LLM judge of plausibility (used when ``judge_weight > 0``)."""

    client: Any
    model: Any


async def run_iteration(evo: ProfileEvolver, factory: SimulatorFactory, paths: ProfilePaths, *,
                        cache: dict[int, dict[str, Any]], vocabulary: frozenset[str] | None,
                        judge: Judge | None = None,
                        on_measured: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Ask, measure (or reuse), record, tell. Returns the archive statistics."""
    profiles = evo.ask()
    uids = [evo.uid(i) for i in range(len(profiles))]
    got: list[Measurement | None] = [_reused(cache.get(u), p) for u, p in zip(uids, profiles, strict=True)]
    todo = [i for i, m in enumerate(got) if m is None]
    fresh = await measure_many(factory, [profiles[i] for i in todo], probes=evo.config.probes,
                               vocabulary=vocabulary, on_done=on_measured)
    for i, m in zip(todo, fresh, strict=True):
        got[i] = m
    measurements: list[Measurement] = [m for m in got if m is not None]
    scores: list[float | None] = [cache[u].get("judge") if u in cache else None for u in uids]
    if judge is not None and evo.config.judge_weight > 0:
        js = await asyncio.gather(*(judge_plausibility(judge.client, judge.model, measurements[i].user_turns,
                                                       seed=evo.config.seed) for i in todo))
        for i, j in zip(todo, js, strict=True):
            scores[i] = j
    realism = evo.objectives(measurements, scores)
    _append(paths.evaluations, [
        {"uid": uids[i], "iteration": evo.iteration, "realism": float(realism[i]),
         "judge": scores[i], "profile": {**profiles[i].model_dump(mode="json"),
                                         "vector": profiles[i].vector()},
         "measurement": measurements[i].model_dump(mode="json")} for i in todo])
    return evo.tell(profiles, measurements, judge=scores)


def open_evolver(cfg: EvolveConfig, paths: ProfilePaths, *, realism: RealismModel | None,
                 seeds: list[UserProfile], fresh: bool = False) -> ProfileEvolver:
    """Resume the checkpoint in ``paths`` (unless ``fresh``), else start a new evolver.

    Raises:
        ConfigError: No realism model to start with, or an incompatible checkpoint.
    """
    if not fresh and paths.checkpoint.exists():
        return load_checkpoint(paths, cfg)
    if realism is None:
        raise ConfigError("no real sessions to fit the realism model on", field="sessions")
    for p in (paths.checkpoint, paths.state, paths.evaluations, paths.profiles):
        p.unlink(missing_ok=True)
    paths.root.mkdir(parents=True, exist_ok=True)
    realism.save(paths.realism)
    return ProfileEvolver(cfg, realism=realism, seeds=seeds)
