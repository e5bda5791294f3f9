"""Run an evaluation: benchmarks × k seeds through the rollout engine, then the report.

    res = run_eval(EvalConfig(...), client=LLMClient(cfg.llm), out_dir="runs/eval/weak")
    res.report["overall"]["pass@1"], res.report["by_benchmark"], res.report["behavior"]

The output folder holds ``trajectories.jsonl`` (append-only; a rerun skips finished
episodes), ``tasks.jsonl`` (task id → benchmark, family, difficulty, category),
``behavior_runs.jsonl`` (Table-4 metrics of every run) and ``report.json``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autointeract.errors import ConfigError, SandboxUnavailable
from autointeract.eval.config import BenchmarkSource, EvalConfig, UserSpec
from autointeract.eval.verify import HideUnverified, docker_bound, docker_reachable, eval_verifier
from autointeract.rollout.protocols import Agent, UserSimulator
from autointeract.types import TaskSpec, Trajectory

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

TRAJ_FILE, TASKS_FILE, REPORT_FILE, BEHAVIOR_FILE = (
    "trajectories.jsonl", "tasks.jsonl", "report.json", "behavior_runs.jsonl")


@dataclass
class EvalResult:
    """What :func:`run_eval` did: the report, new/skipped/failed episodes, the notes."""

    out_dir: Path
    report: dict[str, Any]
    new: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _source(src: str | None) -> str | None:
    if src and src.startswith("$"):
        value = os.environ.get(src[1:])
        if not value:
            raise ConfigError(f"environment variable {src[1:]} is not set", field="source")
        return value
    return src


def load_benchmark(b: BenchmarkSource) -> list[TaskSpec]:
    """The tasks of one benchmark entry (through ``autointeract.rollout.tasks``)."""
    from autointeract.rollout.tasks import TaskSourceConfig, load_rollout_tasks

    cfg = TaskSourceConfig(family=b.family, source=_source(b.source), ids=b.ids, limit=b.limit,
                           options=b.options, fallback_to_mock=False)
    tasks, _ = load_rollout_tasks(cfg)
    return tasks


def task_category(task: TaskSpec, benchmark: str) -> dict[str, Any]:
    """The row of ``tasks.jsonl``: what reports break results down by."""
    return {"task_id": task.task_id, "benchmark": benchmark, "family": task.family,
            "difficulty": task.difficulty, "category": task.meta.get("category"),
            "docker_bound": docker_bound(task), "contest_date": task.meta.get("contest_date"),
            "reference_patch": task.reference_solution if task.verifier.kind in ("repo", "swebench")
            else None}


def load_all(benchmarks: list[BenchmarkSource]) -> tuple[list[TaskSpec], list[dict[str, Any]]]:
    """Every benchmark's tasks and their rows; a task id used twice is an error.

    Raises:
        ConfigError: duplicate task ids or an empty benchmark.
    """
    tasks, rows, seen = [], [], {}
    for i, b in enumerate(benchmarks):
        got = load_benchmark(b)
        if not got:
            raise ConfigError(f"benchmark '{b.label()}' has no tasks", field=f"benchmarks.{i}")
        for t in got:
            if t.task_id in seen:
                raise ConfigError(f"task '{t.task_id}' is in benchmarks '{seen[t.task_id]}' and "
                                  f"'{b.label()}'", field=f"benchmarks.{i}.ids")
            seen[t.task_id] = b.label()
            tasks.append(t)
            rows.append(task_category(t, b.label()))
    return tasks, rows


def make_eval_user(spec: UserSpec, client: LLMClient | None, *,
                   resolve: Callable[[Any], Any] = lambda m: m) -> UserSimulator:
    """The user simulator of ``spec`` (prompted, learned from a folder, or replay).

    Raises:
        ConfigError: a learned user without ``path`` or ``model``.
    """
    if spec.kind == "replay":
        from autointeract.eval.replay import ReplayUser, load_sessions

        sessions = load_sessions(spec.sessions) if spec.sessions else None
        return ReplayUser(sessions, name=spec.name or "replay", stop_on_pass=spec.stop_on_pass,
                          missing=spec.missing_session)
    if spec.kind == "learned":
        from autointeract.users.simulator import LearnedUser

        if not spec.path or spec.model is None:
            raise ConfigError("a learned user needs path (user_models/<name>/) and model",
                              field="user.path" if not spec.path else "user.model")
        kw: dict[str, Any] = {"max_tokens": spec.max_tokens, "temperature": spec.temperature}
        if spec.name:
            kw["name"] = spec.name
        return LearnedUser.from_artifact(spec.path, client, resolve(spec.model), **kw)
    from autointeract.rollout.prompted_user import PromptedUser

    cfg = spec.prompted
    if spec.name:
        cfg = cfg.model_copy(update={"name": spec.name})
    if cfg.model is not None:
        cfg = cfg.model_copy(update={"model": resolve(cfg.model)})
    return PromptedUser(cfg, client=client)


def _docker(cfg: EvalConfig, tasks: list[TaskSpec], notes: list[str]) -> bool:
    n = sum(docker_bound(t) for t in tasks)
    if not n or cfg.docker == "off":
        if n:
            notes.append(f"docker: off; {n} docker-bound task(s) run unverified")
        return False
    ok, why = docker_reachable()
    if not ok:
        if cfg.docker == "require":
            raise SandboxUnavailable(f"{why} (docker: require)")
        notes.append(f"{why}: {n} docker-bound task(s) run the conversation only and are "
                     "reported as unverified")
    return ok


def _write_lines(path: Path, rows: list[dict[str, Any]]) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("".join(json.dumps(r, default=str) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)


def run_eval(cfg: EvalConfig, *, client: LLMClient | None, out_dir: str | Path,
             agent: Agent | None = None, user: UserSimulator | None = None,
             progress: bool = True, log: Callable[[str], None] = print) -> EvalResult:
    """Evaluate one agent with one user on every benchmark task, k seeds each.

    Args:
        cfg: the evaluation config.
        client: the LLM client (for LLM agents and LLM-worded users).
        out_dir: where trajectories and the report go (resumable).
        agent: an agent object instead of ``cfg.agent`` (e.g. a ``ScriptedAgent``).
        user: a user simulator instead of ``cfg.user``.
        progress: show a progress bar.
        log: where notes (e.g. "no docker engine") are written, once per run.

    Returns:
        The report and what ran.

    Raises:
        ConfigError: bad benchmarks or user settings.
        SandboxUnavailable: ``docker: require`` without an engine.
    """
    from autointeract.eval.report import build_report, save_report
    from autointeract.rollout.runner import make_agent, run_episodes
    from autointeract.rollout.store import TrajectoryStore

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tasks, rows = load_all(cfg.benchmarks)
    _write_lines(out / TASKS_FILE, rows)
    notes: list[str] = []
    docker_ok = _docker(cfg, tasks, notes)
    for n in notes:
        log(n)
    agent_cfg = cfg.agent.model_copy(update={"model": cfg.resolve_model(cfg.agent.model)})
    the_agent = agent or make_agent(agent_cfg, client)
    the_user = HideUnverified(user or make_eval_user(cfg.user, client, resolve=cfg.resolve_model))
    verifier = eval_verifier(docker_ok=docker_ok, repo=cfg.episode.repo_path)
    seeds = cfg.seed_list()
    res_new, res_skip, failed = 0, 0, []
    groups = _sandbox_groups(cfg, tasks, docker_ok)
    for episode_cfg, group in groups:
        res = run_episodes(group, the_agent, the_user, seeds=seeds, concurrency=cfg.concurrency,
                           out_path=out / TRAJ_FILE, client=client, episode_cfg=episode_cfg,
                           verifier=verifier, progress=progress)
        res_new += len(res.trajectories)
        res_skip += len(res.skipped)
        failed += res.failed
    wanted = {(t.task_id, s) for t in tasks for s in seeds}
    trajs = [t for t in TrajectoryStore(out / TRAJ_FILE).load()
             if (t.task_id, t.seed) in wanted and t.solver == the_agent.name
             and t.user_model == the_user.name]
    report = build_report(trajs, rows, meta={
        "name": cfg.name, "agent": the_agent.name, "user": the_user.name, "seeds": seeds,
        "k": len(seeds), "docker": docker_ok, "notes": notes,
        "failed": [f"{e}: {m}" for e, m in failed]}, n_boot=cfg.n_boot, seed=cfg.seed)
    save_report(out, report, trajs, rows)
    return EvalResult(out_dir=out, report=report, new=res_new, skipped=res_skip, failed=failed,
                      notes=notes)


def _sandbox_groups(cfg: EvalConfig, tasks: list[TaskSpec],
                    docker_ok: bool) -> list[tuple[Any, list[TaskSpec]]]:
    """Tasks grouped by sandbox: docker-bound tasks run in their own image when an engine
    answers; everything else in the configured sandbox."""
    plain = [t for t in tasks if not (docker_ok and docker_bound(t) and t.verifier.docker_image)]
    groups: list[tuple[Any, list[TaskSpec]]] = [(cfg.episode, plain)] if plain else []
    images: dict[str, list[TaskSpec]] = {}
    for t in tasks:
        if t not in plain:
            images.setdefault(str(t.verifier.docker_image), []).append(t)
    for image, group in sorted(images.items()):
        ep = cfg.episode.model_copy(update={"sandbox": {"kind": "docker", "image": image}})
        groups.append((ep, group))
    return groups


def load_trajectories(out_dir: str | Path) -> list[Trajectory]:
    """The trajectories of an evaluation folder.

    Raises:
        DataError: the folder has no trajectories file or a malformed line.
    """
    from autointeract.errors import DataError
    from autointeract.rollout.store import TrajectoryStore

    path = Path(out_dir) / TRAJ_FILE
    if not path.is_file():
        raise DataError("not an evaluation folder (no trajectories.jsonl)", file=str(out_dir))
    return TrajectoryStore(path, repair=False).load()
