"""Pipeline stages ``users_fit`` and ``users_fidelity``.

    stages:
      - stage: history
        params: {source: data/sessions}
      - stage: users_fit
        params: {name: demo, model: weak, reflection_model: strong, budget: 12, max_examples: 6}
      - stage: users_fidelity
        params: {max_examples: 6}

Sessions default to the ``history`` stage's output, else ``data/sessions``. The fitted model
goes to ``<run_dir>/user_models/<name>`` unless ``out_dir`` says otherwise; ``users_fidelity``
evaluates the model the ``users_fit`` stage produced unless ``user_model`` names one.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.errors import ConfigError
from autointeract.users.fit import FitConfig

DEFAULT_SESSIONS = "data/sessions"


class UsersFitStageConfig(FitConfig):
    """Params of ``users_fit``: :class:`~autointeract.users.fit.FitConfig` plus where from/to.

    Attributes:
        sessions: Session source (default: the history stage's output, else data/sessions).
        name: The user model's name.
        out_dir: Folder of user models (default ``<run_dir>/user_models``).
        max_sessions: Load at most this many sessions.
        seed: Seed (the pipeline's seed when omitted).
    """

    sessions: str | None = None
    name: str = "demo"
    out_dir: str | None = None
    max_sessions: int | None = None
    model: str = "weak"
    reflection_model: str = "strong"
    seed: int | None = None  # type: ignore[assignment]


class UsersFidelityStageConfig(StrictModel):
    """Params of ``users_fidelity``.

    Attributes:
        sessions: Session source (as for ``users_fit``).
        user_model: A user model folder (default: the one ``users_fit`` wrote).
        model: Simulator model name (default: the fit's ``model``, else ``weak``).
        max_examples: Held-out next-turn examples.
        max_sessions: Load at most this many sessions.
        max_tokens: Tokens per simulated turn.
    """

    sessions: str | None = None
    user_model: str | None = None
    model: str | None = None
    max_examples: int = Field(20, ge=1)
    max_sessions: int | None = None
    max_tokens: int = Field(60, ge=4)


def _sessions_source(ctx: Any, given: str | None) -> str:
    if given:
        return given
    for out in ctx.outputs.values():
        if isinstance(out, dict) and out.get("sessions_path"):
            return str(out["sessions_path"])
    return DEFAULT_SESSIONS


def run_fit(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Fit a user model (see :func:`~autointeract.users.fit.fit_user_model`).

    Returns:
        A summary: ``model_dir``, seed and fitted validation scores, metric calls, held-out
        sessions.
    """
    from autointeract.users.fit import fit_user_model
    from autointeract.users.jobs import load_sessions

    cfg = ctx.stage_params(UsersFitStageConfig, params)
    seed = ctx.seed if cfg.seed is None else cfg.seed
    fit_cfg = FitConfig(**{k: v for k, v in cfg.model_dump().items()
                           if k in FitConfig.model_fields and k != "seed"}, seed=seed)
    names = [n for n in (cfg.model, cfg.reflection_model, cfg.judge_model) if n]
    models = {n: ctx.model(n) for n in names}
    sessions = load_sessions(_sessions_source(ctx, cfg.sessions), max_sessions=cfg.max_sessions)
    out_dir = cfg.out_dir or str(ctx.run_dir / "user_models")
    res = fit_user_model(sessions, name=cfg.name, out_dir=out_dir, client=ctx.llm,
                         config=fit_cfg, run_dir=ctx.run_dir / "users_fit" / "gepa",
                         models=models)
    return {**res.model_dump(), "simulator_model": cfg.model, "n_sessions": len(sessions)}


def run_fidelity(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Evaluate the seed and fitted prompt side by side on held-out sessions.

    Writes ``<run_dir>/users_fidelity/report.json``.

    Returns:
        A summary: the report path and the headline metrics of each prompt.
    """
    from autointeract.users.artifact import load_user_model
    from autointeract.users.jobs import load_sessions
    from autointeract.users.jobs import run_fidelity as fidelity_job

    cfg = ctx.stage_params(UsersFidelityStageConfig, params)
    fit_out = next((o for o in ctx.outputs.values() if isinstance(o, dict) and "model_dir" in o),
                   None)
    path = cfg.user_model or (fit_out or {}).get("model_dir")
    if not path:
        raise ConfigError("no user model: set user_model or run users_fit first",
                          file=ctx.config_file, field=f"stages.{ctx.stage_index}.params.user_model")
    um = load_user_model(path)
    model_name = cfg.model or (fit_out or {}).get("simulator_model") or "weak"
    sessions = load_sessions(_sessions_source(ctx, cfg.sessions), max_sessions=cfg.max_sessions)
    report, held = fidelity_job(sessions, um, client=ctx.llm, model=ctx.model(model_name),
                                seed=ctx.seed, max_examples=cfg.max_examples,
                                max_tokens=cfg.max_tokens)
    out = ctx.run_dir / "users_fidelity"
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps({"user_model": str(path), "heldout":
                                                 held.model_dump(), **report.model_dump()},
                                                indent=2), encoding="utf-8")
    head = {k: {"act_tvd": m.act_tvd, "pushback_delta": m.pushback_delta,
                "words_wasserstein": m.words_wasserstein,
                "discriminator_accuracy": m.discriminator_accuracy,
                "next_turn_score": m.next_turn_score} for k, m in report.models.items()}
    return {"report_path": str(out / "report.json"), "n_examples": report.n_examples,
            "overlaps_training": held.overlaps_training, "metrics": head}
