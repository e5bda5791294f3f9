"""The ``profiles`` pipeline stage: evolve a population of user profiles with MAP-Elites.

Writes ``<run_dir>/user_models/<name>/profiles.jsonl`` (elites), ``profiles_archive.npz``,
``profiles_heatmap.png``, ``profiles_state.json`` and the checkpoint (a rerun resumes it).
With ``remeasure: k`` it then re-measures the ``k`` most realistic elites and reports how
many agree with their stored descriptors within ``tolerance`` cell widths.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from autointeract.errors import ConfigError
from autointeract.profiles.population import PopulationConfig, build_population


class ProfilesStageConfig(PopulationConfig):
    """Params of the ``profiles`` stage (all of :class:`PopulationConfig`, plus these).

    Attributes:
        name: Population name (the output folder under ``<run_dir>/user_models/``).
        out_dir: Write here instead.
        remeasure: Re-measure this many elites after evolving (0 = skip).
        tolerance: Allowed descriptor move in cell widths for the re-measurement check.
    """

    name: str = "default"
    out_dir: str | None = None
    remeasure: int = Field(default=0, ge=0)
    tolerance: float = Field(default=1.0, gt=0)


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Run the stage.

    Args:
        ctx: The pipeline's ``StageContext``.
        params: The stage params (validated as :class:`ProfilesStageConfig`).

    Returns:
        The population summary (paths, coverage, QD score, real-user coverage, history).
    """
    cfg = ctx.stage_params(ProfilesStageConfig, params)
    source = cfg.sessions or ctx.outputs.get("history", {}).get("sessions_path")
    if not source:
        raise ConfigError("no sessions: set params.sessions or run the history stage first",
                          file=ctx.config_file, field=f"stages.{ctx.stage_index}.params.sessions")
    if cfg.user_model == "fake":
        from autointeract.profiles.commands import resolve_user_model

        user_model: Any = resolve_user_model("fake")
    else:
        user_model = ctx.model(cfg.user_model)
    judge = ctx.model(cfg.judge_model) if cfg.judge_model else None
    out_dir = Path(cfg.out_dir) if cfg.out_dir else ctx.run_dir / "user_models" / cfg.name
    evolve = cfg.evolve.model_copy(update={"seed": cfg.evolve.seed + ctx.seed})
    pop = PopulationConfig.model_validate(
        {**cfg.model_dump(exclude={"name", "out_dir", "remeasure", "tolerance"}),
         "evolve": evolve.model_dump(), "sessions": source})
    summary = build_population(pop, client=ctx.llm, user_model=user_model, out_dir=out_dir,
                               judge_model=judge, progress=True, log=print)
    if cfg.remeasure:
        from autointeract.profiles.remeasure import remeasure_population

        rep = remeasure_population(out_dir, client=ctx.llm, n=cfg.remeasure, tolerance=cfg.tolerance)
        summary["remeasure"] = {k: v for k, v in rep.items() if k != "rows"}
    return {k: v for k, v in summary.items() if k != "history"} | {
        "history": [{k: h[k] for k in ("iteration", "coverage", "qd_score", "num_elites")}
                    for h in summary["history"]]}

