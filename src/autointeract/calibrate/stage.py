"""The pipeline's ``generate`` stage: calibrated tasks and their datasets.

Seeds default to the ``scenarios`` stage's ``tasks.jsonl`` when it ran, profiles to the
``profiles`` stage's archive, and a learned user to the ``users_fit`` stage's model.
Outputs go to ``<run_dir>/generate/``.
"""

from __future__ import annotations

from typing import Any

import yaml

from autointeract.calibrate.config import CalibrateConfig, GenerateConfig
from autointeract.calibrate.recheck import CONFIG_FILE
from autointeract.calibrate.run import generate_tasks


def _from_outputs(ctx: Any, key: str) -> str | None:
    for out in ctx.outputs.values():
        if isinstance(out, dict) and out.get(key):
            return str(out[key])
    return None


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Run the stage (params validated as :class:`~autointeract.calibrate.config.CalibrateConfig`).

    Returns:
        The calibration summary (funnel, statuses, episodes, cost, time) and dataset counts.
    """
    cfg = ctx.stage_params(CalibrateConfig, params)
    given = set(params)
    if "seeds" not in given:
        path = ctx.outputs.get("scenarios", {}).get("path")
        if path:
            cfg.seeds.tasks_file = path
    if cfg.profiles is None:
        cfg.profiles = _from_outputs(ctx, "profiles")
    if cfg.user.kind == "learned" and not cfg.user.path:
        cfg.user.path = _from_outputs(ctx, "model_dir")
    run_dir = ctx.run_dir / "generate"
    run_dir.mkdir(parents=True, exist_ok=True)
    full = GenerateConfig.model_validate({**cfg.model_dump(), "name": ctx.config.name,
                                          "seed": ctx.seed, "run_dir": str(run_dir),
                                          "llm": ctx.config.llm.model_dump(),
                                          "models": {k: v.model_dump() for k, v in
                                                     ctx.config.models.items()}})
    (run_dir / CONFIG_FILE).write_text(yaml.safe_dump(full.model_dump(mode="json"),
                                                      sort_keys=False), encoding="utf-8")
    summary = generate_tasks(cfg, run_dir=run_dir, client=ctx.llm, models=ctx.config.models,
                             seed=ctx.seed, name=f"{ctx.config.name}-tasks", hash_of=full)
    summary["run_dir"] = str(run_dir)
    return summary
