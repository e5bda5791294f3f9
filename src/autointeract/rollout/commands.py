"""``autointeract rollout``: run agent ↔ user ↔ sandbox episodes from a YAML config."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def rollout(
    config: Annotated[Path, typer.Argument(help="Rollout YAML (a RolloutConfig).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Trajectory JSONL (appended; "
                                      "episodes already in it are skipped).")],
    overrides: Annotated[list[str] | None, typer.Option(
        "-c", "--config", help="Dotted override, e.g. -c agents.0.max_turns=4.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Run episodes of every (task, agent, seed) and append scored trajectories to --out.

    Examples:

      autointeract rollout rollout.yaml --out runs/r1/trajectories.jsonl

      autointeract rollout rollout.yaml -o t.jsonl -c seeds=[0,1,2] -c tasks.limit=5

      autointeract rollout rollout.yaml -o t.jsonl -c user.mode=llm -c user.model=local/smollm2-135m

    A minimal rollout.yaml (every other field has a default):

      tasks: {family: builtin, limit: 3}      # or mock | livecodebench | taskspec + source

      agents: [{model: local/qwen2.5-coder-0.5b, max_turns: 4, max_tokens: 192}]

      user: {mode: template, max_user_turns: 4}

    Rerunning with the same --out resumes: episodes already written are skipped.
    """
    from autointeract.config import load_config, write_provenance
    from autointeract.errors import ConfigError
    from autointeract.llm import LLMClient
    from autointeract.rollout.config import RolloutConfig
    from autointeract.rollout.runner import run_episodes, summarize
    from autointeract.rollout.store import TrajectoryStore
    from autointeract.rollout.tasks import load_rollout_tasks

    cfg = load_config(RolloutConfig, config, overrides)
    tasks, origin = load_rollout_tasks(cfg.tasks)
    if not tasks:
        raise ConfigError("no tasks selected", file=str(config), field="tasks")
    write_provenance(out.parent, cfg, seed=cfg.seed, stage=f"rollout-{out.stem}",
                     extra={"out": str(out), "tasks": origin, "n_tasks": len(tasks)})
    client = LLMClient(cfg.llm)
    res = run_episodes(tasks, list(cfg.agents), cfg.user, seeds=cfg.seed_list(),
                       concurrency=cfg.concurrency, out_path=out, client=client,
                       episode_cfg=cfg.episode, progress=progress)
    typer.echo(f"{len(res.trajectories)} episodes written, {len(res.skipped)} already in {out}, "
               f"{len(res.failed)} failed (tasks: {origin})")
    for eid, err in res.failed[:5]:
        typer.echo(f"  failed {eid}: {err}", err=True)
    typer.echo(json.dumps(summarize(TrajectoryStore(out).load()), indent=1))
    if res.failed:
        raise typer.Exit(1)
