"""Pipelines: a YAML list of registered stages run in order over one run directory.

A stage is a function ``run(ctx: StageContext, params: dict) -> dict`` found by a short
registry name mapped to an import path (so ``import autointeract`` stays fast and a stage's
heavy dependencies load only when it runs). Each stage validates ``params`` with its own
config model through :func:`stage_params`, so a wrong field names the file and the field.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from autointeract.config import LLMConfig, ModelConfig, StrictModel, validate, write_provenance
from autointeract.errors import ConfigError

T = TypeVar("T", bound=BaseModel)

# registry name -> "module:function". Stages add themselves here.
STAGES: dict[str, str] = {
    "models_check": "autointeract.llm.stage:run_models_check",
    "history": "autointeract.history.stage:run",
    "scenarios": "autointeract.scenarios.stage:run",
    "rollout": "autointeract.rollout.stage:run",
    "users_fit": "autointeract.users.stage:run_fit",
    "users_fidelity": "autointeract.users.stage:run_fidelity",
    "profiles": "autointeract.profiles.stage:run",
    "generate": "autointeract.calibrate.stage:run",
    "report": "autointeract.report.stage:run",
    "eval": "autointeract.eval.stage:run",
    "train": "autointeract.rl.stage:run",
}


class StageEntry(StrictModel):
    stage: str
    name: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)


class PipelineConfig(StrictModel):
    """A pipeline: shared settings plus an ordered list of stages."""

    name: str = "pipeline"
    seed: int = 0
    run_dir: str = "runs/{name}"
    llm: LLMConfig = Field(default_factory=LLMConfig)
    models: dict[str, ModelConfig] = Field(default_factory=dict)
    stages: list[StageEntry] = Field(default_factory=list)


@dataclass
class StageContext:
    """What a stage gets: where to write, the seed, the shared LLM client, earlier outputs."""

    run_dir: Path
    seed: int
    config: PipelineConfig
    config_file: str = "<pipeline>"
    stage_index: int = 0
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    _llm: Any = None

    @property
    def llm(self) -> Any:
        """The run's LLMClient (created on first use, shared across stages)."""
        if self._llm is None:
            from autointeract.llm import LLMClient

            self._llm = LLMClient(self.config.llm)
        return self._llm

    def model(self, name: str) -> ModelConfig:
        """A named model from the pipeline's ``models`` section (or a litellm model string)."""
        if name in self.config.models:
            return self.config.models[name]
        if "/" in name:
            return ModelConfig(model=name)
        raise ConfigError(f"no model named '{name}' in models (have {sorted(self.config.models)})",
                          file=self.config_file, field=f"stages.{self.stage_index}.params")

    def stage_params(self, model: type[T], params: dict[str, Any]) -> T:
        try:
            return validate(model, params, file=self.config_file)
        except ConfigError as exc:
            raise ConfigError(exc.message, file=self.config_file,
                              field=f"stages.{self.stage_index}.params.{exc.field}") from None


def resolve_stage(name: str, *, file: str = "<pipeline>", index: int = 0) -> Callable[..., dict]:
    if name not in STAGES:
        raise ConfigError(f"unknown stage '{name}' (known: {', '.join(sorted(STAGES))})",
                          file=file, field=f"stages.{index}.stage")
    mod_name, fn = STAGES[name].split(":")
    return getattr(importlib.import_module(mod_name), fn)


def format_run_dir(cfg: PipelineConfig) -> Path:
    return Path(cfg.run_dir.format(name=cfg.name, seed=cfg.seed))


def run_pipeline(cfg: PipelineConfig, *, config_file: str = "<pipeline>",
                 only: list[str] | None = None, log: Callable[[str], None] = print) -> StageContext:
    """Run every stage in order; each stage's summary is written to ``run_dir/summary.json``."""
    for i, entry in enumerate(cfg.stages):  # fail on bad names before any work starts
        resolve_stage(entry.stage, file=config_file, index=i)
    run_dir = format_run_dir(cfg)
    write_provenance(run_dir, cfg, seed=cfg.seed, stage="pipeline")
    ctx = StageContext(run_dir=run_dir, seed=cfg.seed, config=cfg, config_file=config_file)
    for i, entry in enumerate(cfg.stages):
        label = entry.name or entry.stage
        if only and label not in only and entry.stage not in only:
            continue
        ctx.stage_index = i
        fn = resolve_stage(entry.stage, file=config_file, index=i)
        log(f"[stage {i + 1}/{len(cfg.stages)}] {label}")
        t0 = time.perf_counter()
        out = fn(ctx, entry.params) or {}
        out["wall_s"] = round(time.perf_counter() - t0, 2)
        ctx.outputs[label] = out
        (run_dir / "summary.json").write_text(json.dumps(ctx.outputs, indent=2, default=str))
    if ctx._llm is not None:
        (run_dir / "llm_usage.json").write_text(json.dumps(ctx.llm.usage.summary(), indent=2))
    return ctx
