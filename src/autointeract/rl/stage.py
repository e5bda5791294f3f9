"""The ``train`` pipeline stage: verl (cluster launch, or its dry run) or TRL (this machine).

    stages:
      - stage: train
        params: {engine: trl, data: {rl_rows: runs/x/rl_rows.jsonl, sft_rows: ...}}
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import Any

from autointeract.errors import ConfigError
from autointeract.rl.config import TrainConfig


def train(cfg: TrainConfig, *, out_dir: str | Path, dry_run: bool = False,
          log: Any = print) -> dict[str, Any]:
    """Run (or, for verl with ``dry_run``, prepare and print) one training run.

    Returns:
        A summary for ``summary.json`` (data sizes, the verl command, or TRL rewards).
    """
    out = Path(out_dir)
    if cfg.firewall:
        cfg = firewall_rows(cfg, out=out, log=log)
    if cfg.engine == "verl":
        from autointeract.rl.verl_launch import prepare_verl

        plan = prepare_verl(cfg, out_dir=out)
        for c in plan.checks:
            log(f"ok  {c}")
        cmd = shlex.join(plan.command)
        (out / "verl_command.sh").write_text(cmd + "\n", encoding="utf-8")
        log(cmd)
        if not dry_run:
            subprocess.run(plan.command, check=True)  # noqa: S603 - the user's own launch
        return {"engine": "verl", "dry_run": dry_run, "n_train": plan.n_train,
                "n_val": plan.n_val, "command": cmd, "checks": plan.checks}
    return _train_trl(cfg, out=out, log=log)


def firewall_rows(cfg: TrainConfig, *, out: Path, log: Any = print) -> TrainConfig:
    """Refuse training rows that match a registered benchmark (the evaluation firewall).

    The kept rows are written under ``out/firewalled`` and the returned config points at
    them; ``out/firewalled/firewall.json`` says what was refused.

    Raises:
        ConfigError: no RL row is left.
    """
    import json

    from autointeract.config import validate
    from autointeract.dataset.rows import read_rows, write_rows
    from autointeract.eval.firewall import FirewallConfig, build_firewall
    from autointeract.rl.demo_rows import load_rows

    fw = build_firewall(validate(FirewallConfig, cfg.firewall or {}, file="<firewall>"))
    rl, sft = load_rows(cfg.data.rl_rows, cfg.data.sft_rows) if cfg.data.rl_rows else ([], [])
    val = read_rows(cfg.data.val_rows, "rl") if cfg.data.val_rows else []
    refused: list[str] = []

    def ok(row: Any, texts: list[str]) -> bool:
        hit = fw.check_task(row.task()) if hasattr(row, "task") else fw.check_texts(texts)
        if hit is not None:
            refused.append(f"{row.id}: {hit}")
        return hit is None

    rl = [r for r in rl if ok(r, [])]
    val = [r for r in val if ok(r, [])]
    sft = [r for r in sft if ok(r, [m.content for m in r.messages if m.role == "user"])]
    if cfg.data.rl_rows and not rl:
        raise ConfigError("the firewall refused every RL row", field="data.rl_rows")
    d = out / "firewalled"
    data = cfg.data.model_copy(update={
        "rl_rows": str(write_rows(d / "rl_rows.jsonl", rl)) if cfg.data.rl_rows else None,
        "val_rows": str(write_rows(d / "val_rows.jsonl", val)) if cfg.data.val_rows else None,
        "sft_rows": str(write_rows(d / "sft_rows.jsonl", sft)) if cfg.data.sft_rows else None})
    (d / "firewall.json").write_text(json.dumps({**fw.card_section(), "refused_rows": refused},
                                                indent=2), encoding="utf-8")
    if refused:
        log(f"firewall: refused {len(refused)} training row(s) matching a benchmark")
    return cfg.model_copy(update={"data": data})


def _train_trl(cfg: TrainConfig, *, out: Path, log: Any) -> dict[str, Any]:
    from autointeract.rl.demo_rows import load_rows
    from autointeract.rl.trl_train import run_grpo, run_sft

    if not cfg.data.rl_rows:
        raise ConfigError("TRL training needs RL rows", field="data.rl_rows")
    rl, sft = load_rows(cfg.data.rl_rows, cfg.data.sft_rows)
    s = cfg.trl
    model = s.model
    if s.tiny:
        from autointeract.rl.demo_rows import corpus_texts
        from autointeract.rl.tiny import build_tiny_model

        model = str(build_tiny_model(out / "tiny", corpus=corpus_texts(rl, sft), seed=s.seed))
    summary: dict[str, Any] = {"engine": "trl", "n_rl": len(rl), "n_sft": len(sft)}
    if sft and s.sft_steps > 0:
        log(f"SFT: {len(sft)} rows, {s.sft_steps} steps")
        model = str(run_sft(sft, model=model, out_dir=out / "sft", steps=s.sft_steps,
                            lr=s.sft_lr, seed=s.seed))
    log(f"GRPO/GSPO: {len(rl)} rows, {s.grpo_steps} steps, "
        f"{cfg.recipe.samples_per_prompt} samples per prompt")
    summary.update(run_grpo(rl, model=model, out_dir=out / "rl", recipe=cfg.recipe, settings=s))
    return summary


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Pipeline entry: ``params`` validate as :class:`TrainConfig`; ``dry_run`` is a param."""
    from autointeract.config import write_provenance

    params = dict(params)
    dry = bool(params.pop("dry_run", False))
    cfg = ctx.stage_params(TrainConfig, params)
    out = Path(cfg.out_dir) if cfg.out_dir else ctx.run_dir / "train"
    if cfg.trl.seed == 0 and ctx.seed:
        cfg.trl.seed = ctx.seed
    write_provenance(out, cfg, seed=ctx.seed, stage="train")
    return train(cfg, out_dir=out, dry_run=dry)


__all__ = ["run", "train"]
