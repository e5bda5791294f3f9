"""One generation run end to end: calibrate, then write the datasets (and push them).

Shared by ``autointeract generate`` and the pipeline's ``generate`` stage.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from autointeract.calibrate.config import CalibrateConfig, resolve_model
from autointeract.calibrate.generator import Firewall
from autointeract.calibrate.loop import CalibrationLoop, load_inputs
from autointeract.config import ModelConfig, config_hash
from autointeract.errors import ConfigError

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient


def make_firewall(options: dict[str, Any] | None) -> Firewall | None:
    """The evaluation firewall of a config's ``firewall:`` section (None when unset).

    Raises:
        ConfigError: bad options (names the field).
    """
    if not options:
        return None
    from autointeract.config import validate
    from autointeract.eval.firewall import FirewallConfig, build_firewall

    return build_firewall(validate(FirewallConfig, options, file="<firewall>"))


def user_model_ref(cfg: CalibrateConfig, models: dict[str, ModelConfig]) -> Any:
    """The RL rows' reference to the simulated user of this run."""
    from autointeract.dataset.rows import UserModelRef

    u = cfg.user
    model = resolve_model(u.model, models).model if u.model else None
    name = (f"learned:{Path(u.path).name}" if u.kind == "learned" and u.path else
            "learned_user" if u.kind == "learned" else f"prompted-{u.mode}")
    return UserModelRef(kind=u.kind, name=name, path=u.path, model=model,
                        config={"mode": u.mode, "max_user_turns": u.max_user_turns})


def generate_tasks(cfg: CalibrateConfig, *, run_dir: str | Path, client: LLMClient | None,
                   models: dict[str, ModelConfig], seed: int, name: str = "autointeract-tasks",
                   firewall: Firewall | None = None, hash_of: Any = None,
                   log: Any = print) -> dict[str, Any]:
    """Calibrate tasks into ``run_dir`` and write the datasets to ``run_dir/dataset``.

    Returns:
        The calibration summary plus the dataset counts and paths.
    """
    from autointeract.dataset.writer import push_to_hub, write_datasets

    fw = firewall if firewall is not None else make_firewall(cfg.firewall)
    inputs = load_inputs(cfg)
    refused_seeds: list[str] = []
    if fw is not None and hasattr(fw, "filter_tasks"):
        kept, refused = fw.filter_tasks(list(inputs.seeds.values()))
        refused_seeds = [t.task_id for t, _ in refused]
        inputs.seeds = {t.task_id: t for t in kept}
    if not inputs.seeds:
        raise ConfigError("no seed problems left to calibrate (check seeds and the firewall)",
                          field="seeds")
    loop = CalibrationLoop(cfg, run_dir=run_dir, client=client, models=models, seed=seed,
                           inputs=inputs, firewall=fw)
    summary = loop.run()
    fw_info = (fw.card_section() if fw is not None and hasattr(fw, "card_section") else
               {"enabled": fw is not None})
    fw_info.update(enabled=fw is not None, refused_seeds=refused_seeds)
    prov = {"seed": seed, "config_hash": config_hash(hash_of or cfg),
            "models": {"weak": _model_id(cfg.weak, models), "strong": _model_id(cfg.strong, models),
                       "generator": resolve_model(cfg.generator.model, models).model
                       if cfg.generator.use_llm else "knob-only"},
            "user": user_model_ref(cfg, models).name, "band": cfg.band.model_dump(),
            "seeds_source": cfg.seeds.model_dump(), "seed_ids": list(inputs.seeds),
            "funnel": summary["funnel"], "firewall": fw_info}
    ds = write_datasets(run_dir, sft_threshold=cfg.dataset.sft_threshold,
                        sft_tasks=cfg.dataset.sft_tasks, user_model=user_model_ref(cfg, models),
                        firewall=fw, max_user_turns=cfg.user.max_user_turns, name=name,
                        provenance=prov)
    summary["dataset"] = {"out_dir": str(ds.out_dir), "counts": ds.counts, "refused": ds.refused}
    if cfg.dataset.push_to_hub:
        summary["dataset"]["hub_url"] = push_to_hub(ds.out_dir, cfg.dataset.push_to_hub,
                                                    private=cfg.dataset.private)
    log(f"accepted {summary['accepted']}/{summary['candidates']} candidates "
        f"({summary['episodes']} episodes, {summary['wall_s']}s); datasets: {ds.counts}")
    return summary


def _model_id(solver: Any, models: dict[str, ModelConfig]) -> str:
    if solver.kind == "skill":
        return f"skill:{solver.skill}"
    return resolve_model(solver.model, models).model


__all__ = ["generate_tasks", "make_firewall", "user_model_ref"]
