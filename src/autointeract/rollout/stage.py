"""The ``rollout`` pipeline stage: episodes of each named solver on a task set.

    - stage: rollout
      params: {solvers: [weak, strong], tasks: {family: builtin, limit: 2}, max_turns: 3}

Writes ``trajectories.jsonl`` (resumable) in the run directory and returns a summary per
solver (pass rate, mean reward, mean turns, user correction, finish reasons).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.rollout.config import (
    AgentConfig,
    EpisodeConfig,
    PromptedUserConfig,
    ToolMode,
)
from autointeract.rollout.tasks import TaskSourceConfig


class RolloutStageConfig(StrictModel):
    """Params of the rollout stage (defaults: the small offline demo)."""

    solvers: list[str] = Field(default_factory=lambda: ["weak", "strong"])
    tasks: TaskSourceConfig = Field(default_factory=lambda: TaskSourceConfig(limit=2))
    seeds: list[int] | None = None
    tool_mode: ToolMode = "auto"
    max_turns: int = Field(default=2, ge=1)
    max_tokens: int = Field(default=192, ge=1)
    max_total_tokens: int = Field(default=16_000, ge=1)
    temperature: float | None = None
    user: PromptedUserConfig = Field(default_factory=PromptedUserConfig)
    episode: EpisodeConfig = Field(default_factory=lambda: EpisodeConfig(max_wall_s=300))
    concurrency: int = Field(default=2, ge=1)
    out: str = "trajectories.jsonl"


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Run the stage (see :class:`RolloutStageConfig`)."""
    from autointeract.rollout.runner import run_episodes, summarize
    from autointeract.rollout.store import TrajectoryStore
    from autointeract.rollout.tasks import load_rollout_tasks

    cfg = ctx.stage_params(RolloutStageConfig, params)
    tasks, origin = load_rollout_tasks(cfg.tasks)
    agents = [AgentConfig(name=s, model=ctx.model(s), tool_mode=cfg.tool_mode,
                          max_turns=cfg.max_turns, max_tokens=cfg.max_tokens,
                          max_total_tokens=cfg.max_total_tokens, temperature=cfg.temperature)
              for s in cfg.solvers]
    user = cfg.user
    if user.mode == "llm" and isinstance(user.model, str) and "/" not in user.model:
        user = user.model_copy(update={"model": ctx.model(user.model)})
    out = ctx.run_dir / cfg.out
    res = run_episodes(tasks, agents, user, seeds=cfg.seeds or [ctx.seed],
                       concurrency=cfg.concurrency, out_path=out, client=ctx.llm,
                       episode_cfg=cfg.episode, progress=True)
    wanted = {s for s in cfg.solvers}
    trajs = [t for t in TrajectoryStore(out).load() if t.solver in wanted]
    return {"trajectories": str(out), "tasks": origin, "n_tasks": len(tasks),
            "new_episodes": len(res.trajectories), "skipped": len(res.skipped),
            "failed": [f"{eid}: {err}" for eid, err in res.failed],
            "by_solver": summarize(trajs)}
