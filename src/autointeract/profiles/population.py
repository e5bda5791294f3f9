"""Build a profile population end to end: real sessions in, archive + elites + heatmap out.

Shared by the ``profiles evolve`` command and the ``profiles`` pipeline stage::

    cfg = PopulationConfig(sessions="data/sessions", user_model="weak")
    summary = build_population(cfg, client=client, user_model=ModelConfig(...),
                               out_dir="user_models/demo")
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import Field

from autointeract.config import ModelConfig, StrictModel
from autointeract.errors import ConfigError, DataError
from autointeract.profiles.archive_io import plot_heatmap, real_user_coverage, write_elites
from autointeract.profiles.evolve import EvolveConfig, ProfileEvolver
from autointeract.profiles.realism import RealismModel, real_feature_rows
from autointeract.profiles.run import (Judge, ProfilePaths, atomic_write, open_evolver,
                                       read_evaluations, run_iteration, save_checkpoint)
from autointeract.profiles.simulator import SimulatorFactory, make_simulator_factory
from autointeract.profiles.space import seed_profiles

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient
    from autointeract.types import Session

POPULATION_FILE = "profiles_population.json"


class PopulationConfig(StrictModel):
    """Params of ``profiles evolve`` and the ``profiles`` stage.

    Attributes:
        sessions: Real sessions (SWE-Together folder, sessions JSONL, ...); in a pipeline,
            the ``history`` stage's sessions when omitted.
        user_model: The model that plays the users (a pipeline model name or litellm string;
            ``fake`` = the package's style-following fake).
        simulator: ``styled`` (this package's adapter) or ``learned`` (``autointeract.users``).
        behavior_prompt: A text file with the fitted behavior prompt (optional).
        judge_model: The plausibility judge (used when ``evolve.judge_weight > 0``).
        max_tokens: Token cap per simulated user turn.
        temperature: Sampling temperature of the user model.
        min_user_turns: Real sessions with fewer genuine user turns are not used.
        evolve: The MAP-Elites settings (iterations, batch, archive, probes, seed).
        fresh: Ignore an existing checkpoint and start over.
    """

    sessions: str | None = None
    user_model: str = "weak"
    simulator: Literal["styled", "learned"] = "styled"
    behavior_prompt: str | None = None
    judge_model: str | None = None
    max_tokens: int = Field(default=64, ge=1)
    temperature: float = 0.8
    min_user_turns: int = Field(default=2, ge=1)
    evolve: EvolveConfig = Field(default_factory=EvolveConfig)
    fresh: bool = False


def load_real(source: str) -> tuple[list[Session], frozenset[str]]:
    """Real sessions (rule-labeled) and their typo vocabulary.

    Raises:
        DataError: The source cannot be read or holds no sessions.
    """
    from autointeract.history.acts import label_session
    from autointeract.history.corpus import load_corpus
    from autointeract.history.stats import corpus_vocabulary

    try:
        corpus = load_corpus(source)
    except (FileNotFoundError, ValueError) as exc:
        raise DataError(str(exc), file=source, field="sessions") from None
    if not corpus.sessions:
        raise DataError("no sessions found", file=source, field="sessions")
    sessions = [label_session(s) if not any(m.meta.get("act") for m in s.messages) else s
                for s in corpus.sessions]
    return sessions, corpus_vocabulary(sessions)


def read_population(out_dir: str | Path) -> tuple[PopulationConfig, str, ModelConfig]:
    """The settings a population was built with: config, sessions source, user model.

    Raises:
        DataError: The folder holds no population.
    """
    p = Path(out_dir) / POPULATION_FILE
    if not p.is_file():
        raise DataError("not a profile population (run `autointeract profiles evolve`)", file=str(p))
    obj = json.loads(p.read_text(encoding="utf-8"))
    return (PopulationConfig.model_validate(obj["config"]), obj["sessions"],
            ModelConfig.model_validate(obj["user_model"]))


def real_points(sessions: list[Session], descriptors: list[str], *, vocabulary: frozenset[str] | None,
                min_user_turns: int) -> np.ndarray:
    """Real users' own descriptor values, one row per usable session."""
    rows = real_feature_rows(sessions, vocabulary=vocabulary, min_user_turns=min_user_turns)
    return np.array([[r[d] for d in descriptors] for r in rows.values()]).reshape(-1, len(descriptors))


def _progress(enabled: bool) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("[bold]profiles[/] {task.description}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), disable=not enabled, transient=False)


async def _loop(evo: ProfileEvolver, factory: SimulatorFactory, paths: ProfilePaths, *,
                vocabulary: frozenset[str] | None, judge: Judge | None, progress: bool,
                log: Callable[[str], None]) -> None:
    cache = read_evaluations(paths.evaluations)
    total = evo.config.iterations + 1
    with _progress(progress) as bar:
        it_task = bar.add_task("iterations", total=total, completed=evo.iteration)
        ev_task = bar.add_task("measuring", total=None)
        while not evo.done:
            bar.reset(ev_task, description=f"measuring (iteration {evo.iteration})")
            st = await run_iteration(evo, factory, paths, cache=cache, vocabulary=vocabulary,
                                     judge=judge, on_measured=lambda _i: bar.advance(ev_task))
            save_checkpoint(evo, paths)
            write_elites(evo.archive, evo.config.archive.descriptors, read_evaluations(paths.evaluations), paths)
            bar.update(it_task, advance=1, description=(
                f"iter {st['iteration']}: coverage {st['coverage']:.1%}, QD {st['qd_score']:.2f}, "
                f"elites {st['num_elites']}"))
            log(f"iteration {st['iteration']}: coverage={st['coverage']:.3f} "
                f"qd_score={st['qd_score']:.3f} elites={st['num_elites']} failed={st['failed']}")


def build_population(cfg: PopulationConfig, *, client: LLMClient, user_model: ModelConfig | str,
                     out_dir: str | Path, sessions_source: str | None = None,
                     judge_model: ModelConfig | str | None = None, progress: bool = True,
                     log: Callable[[str], None] = lambda _s: None) -> dict[str, Any]:
    """Evolve (or resume) the population in ``out_dir`` and write every output.

    Returns:
        A summary: paths, archive statistics, per-iteration history, real-user coverage.

    Raises:
        ConfigError: No sessions source, or an incompatible checkpoint.
        DataError: Unreadable sessions.
    """
    source = sessions_source or cfg.sessions
    if not source:
        raise ConfigError("no real sessions given", field="sessions")
    paths = ProfilePaths(Path(out_dir))
    sessions, vocab = load_real(source)
    descriptors = cfg.evolve.archive.descriptors
    realism = RealismModel.from_sessions(sessions, features=cfg.evolve.realism_features,
                                         vocabulary=vocab, min_user_turns=cfg.min_user_turns)
    seeds = seed_profiles(sessions, vocabulary=vocab, min_user_turns=cfg.min_user_turns)
    evo = open_evolver(cfg.evolve, paths, realism=realism, seeds=seeds, fresh=cfg.fresh)
    resumed_at = evo.iteration
    if resumed_at:
        log(f"resumed from checkpoint at iteration {resumed_at}")
    prompt = Path(cfg.behavior_prompt).read_text(encoding="utf-8") if cfg.behavior_prompt else None
    factory = make_simulator_factory(cfg.simulator, client, user_model, behavior_prompt=prompt,
                                     max_tokens=cfg.max_tokens, temperature=cfg.temperature)
    judge = Judge(client, judge_model) if judge_model is not None else None
    um = user_model.model_dump(mode="json") if isinstance(user_model, ModelConfig) else {"model": user_model}
    atomic_write(paths.root / POPULATION_FILE, json.dumps(
        {"config": cfg.model_dump(mode="json"), "sessions": source, "user_model": um}, indent=2).encode())
    asyncio.run(_loop(evo, factory, paths, vocabulary=vocab, judge=judge, progress=progress, log=log))
    evaluations = read_evaluations(paths.evaluations)
    rows = write_elites(evo.archive, descriptors, evaluations, paths)
    pts = real_points(sessions, descriptors, vocabulary=vocab, min_user_turns=cfg.min_user_turns)
    plot_heatmap(evo.archive, descriptors, paths.heatmap, real_points=pts)
    stats = evo.stats()
    return {"out_dir": str(paths.root), "profiles": str(paths.profiles), "heatmap": str(paths.heatmap),
            "archive": str(paths.archive), "checkpoint": str(paths.checkpoint),
            "resumed_at_iteration": resumed_at, "iterations": evo.iteration,
            "evaluated": len(evaluations), "n_elites": len(rows), **stats,
            "cells": int(np.prod(cfg.evolve.archive.dims)), "history": evo.history,
            "real_users": real_user_coverage(evo.archive, pts)}
