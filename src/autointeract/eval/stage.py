"""The ``eval`` pipeline stage: one agent (a named model) × one user on benchmarks, k seeds.

    - stage: eval
      name: strong
      params: {solver: strong, benchmarks: [{family: builtin, limit: 2}], k: 2,
               max_turns: 2, max_tokens: 96, compare_to: weak}

Writes ``<run_dir>/<name>/`` (trajectories.jsonl, tasks.jsonl, behavior_runs.jsonl,
report.json); with ``compare_to`` (the name of an earlier eval stage) also
``compare_vs_<that>/compare.json`` and ``compare.png``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.errors import ConfigError
from autointeract.eval.config import BenchmarkSource, EvalConfig, UserSpec
from autointeract.rollout.config import EpisodeConfig, ToolMode


class EvalStageConfig(StrictModel):
    """Params of the eval stage (defaults: the small offline demo)."""

    solver: str = "strong"
    benchmarks: list[BenchmarkSource] = Field(
        default_factory=lambda: [BenchmarkSource(family="builtin", limit=2)])
    k: int = Field(default=2, ge=1)
    seeds: list[int] | None = None
    tool_mode: ToolMode = "auto"
    max_turns: int = Field(default=3, ge=1)
    max_tokens: int = Field(default=128, ge=1)
    max_total_tokens: int = Field(default=16_000, ge=1)
    temperature: float | None = None
    user: UserSpec = Field(default_factory=UserSpec)
    episode: EpisodeConfig = Field(default_factory=lambda: EpisodeConfig(max_wall_s=300))
    concurrency: int = Field(default=2, ge=1)
    docker: Literal["auto", "off", "require"] = "auto"
    out: str | None = None
    compare_to: str | None = None
    n_boot: int = Field(default=2000, ge=100)


def to_eval_config(ctx: Any, cfg: EvalStageConfig, name: str) -> EvalConfig:
    """The standalone :class:`EvalConfig` equivalent of the stage's params."""
    agent = {"name": cfg.solver, "model": ctx.model(cfg.solver), "tool_mode": cfg.tool_mode,
             "max_turns": cfg.max_turns, "max_tokens": cfg.max_tokens,
             "max_total_tokens": cfg.max_total_tokens, "temperature": cfg.temperature}
    return EvalConfig.model_validate({
        "name": name, "seed": ctx.seed, "k": cfg.k, "seeds": cfg.seeds,
        "llm": ctx.config.llm, "models": ctx.config.models, "benchmarks": cfg.benchmarks,
        "agent": agent, "user": cfg.user, "episode": cfg.episode,
        "concurrency": cfg.concurrency, "docker": cfg.docker, "n_boot": cfg.n_boot})


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Run the stage (see :class:`EvalStageConfig`)."""
    from autointeract.eval.runner import run_eval

    cfg = ctx.stage_params(EvalStageConfig, params)
    entry = ctx.config.stages[ctx.stage_index]
    name = cfg.out or entry.name or f"eval_{cfg.solver}"
    ecfg = to_eval_config(ctx, cfg, name)
    out_dir = ctx.run_dir / name
    res = run_eval(ecfg, client=ctx.llm, out_dir=out_dir, progress=True)
    overall = res.report["overall"]
    summary: dict[str, Any] = {
        "out_dir": str(out_dir), "new_episodes": res.new, "skipped": res.skipped,
        "failed": [f"{e}: {m}" for e, m in res.failed], "notes": res.notes,
        **{m: overall.get(m) for m in ("tasks", "runs", "unverified_runs", "pass@1",
                                       "pass@1_ci", "pass@k", "pass^k", "score", "user_correction",
                                       "turns", "tokens")}}
    if cfg.compare_to:
        summary["compare"] = _compare(ctx, cfg, out_dir)
    return summary


def _compare(ctx: Any, cfg: EvalStageConfig, out_dir: Any) -> str:
    from autointeract.eval.compare import compare_dirs, plot_compare

    other = ctx.outputs.get(cfg.compare_to, {}).get("out_dir")
    if not other:
        raise ConfigError(f"compare_to '{cfg.compare_to}' is not an earlier eval stage",
                          file=ctx.config_file, field=f"stages.{ctx.stage_index}.params.compare_to")
    cmp = compare_dirs(other, out_dir, n_boot=cfg.n_boot, seed=ctx.seed)
    dest = out_dir / f"compare_vs_{cfg.compare_to}"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "compare.json").write_text(json.dumps(cmp, indent=2, default=str), encoding="utf-8")
    plot_compare(cmp, dest / "compare.png")
    return str(dest / "compare.json")
