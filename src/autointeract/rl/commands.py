"""``autointeract train``: verl on a cluster, TRL on one machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer


def _split(config: list[str] | None) -> tuple[str | None, list[str]]:
    files = [c for c in config or [] if c.endswith((".yaml", ".yml")) and "=" not in c]
    if len(files) > 1:
        from autointeract.errors import ConfigError

        raise ConfigError(f"one config file at a time (got {files})", field="-c")
    return (files[0] if files else None), [c for c in config or [] if c not in files]


def load_train_config(path: str | None, overrides: list[str]) -> tuple[Any, int, str]:
    """The ``train`` stage's params of a pipeline YAML (or a bare TrainConfig YAML), with
    dotted overrides applied to those params. Returns (config, seed, pipeline name)."""
    from autointeract.config import _set_dotted, parse_overrides, read_yaml, validate
    from autointeract.errors import ConfigError
    from autointeract.rl.config import TrainConfig

    data = read_yaml(path) if path else {}
    seed, name, params = int(data.get("seed", 0)), str(data.get("name", "train")), data
    if "stages" in data:
        entries = [s for s in data["stages"] if isinstance(s, dict) and s.get("stage") == "train"]
        if not entries:
            raise ConfigError("no 'train' stage in this pipeline", file=path, field="stages")
        params = dict(entries[0].get("params") or {})
    params.pop("dry_run", None)
    for key, value in parse_overrides(overrides):
        _set_dotted(params, key, value)
    return validate(TrainConfig, params, file=path or "<overrides>"), seed, name


def train(
    config: Annotated[list[str] | None, typer.Option(
        "-c", "--config", help="A pipeline YAML (its train stage) and/or dotted overrides of "
                               "the train params, e.g. -c trl.grpo_steps=5.")] = None,
    engine: Annotated[str | None, typer.Option(help="verl or trl (overrides the config).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="verl: convert and validate the "
                       "data, check the agent loop, print the command; do not launch.")] = False,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Output directory.")] = None,
) -> None:
    """Train with verl (cluster) or TRL (one machine) on the generated rows.

    Examples:

      autointeract train --engine verl --dry-run -c pipelines/rl_qwen3_4b.yaml

      autointeract train --engine trl -c pipelines/trl_tiny.yaml

      autointeract train -c pipelines/trl_tiny.yaml -c trl.grpo_steps=2 -c recipe.lr=1e-4
    """
    from autointeract.config import write_provenance
    from autointeract.rl.stage import train as run_train

    path, overrides = _split(config)
    if engine:
        overrides.append(f"engine={engine}")
    cfg, seed, name = load_train_config(path, overrides)
    out = out_dir or Path(cfg.out_dir or f"runs/{name}/train")
    if cfg.trl.seed == 0 and seed:
        cfg.trl.seed = seed
    write_provenance(out, cfg, seed=seed, stage="train")
    summary = run_train(cfg, out_dir=out, dry_run=dry_run, log=typer.echo)
    if cfg.engine == "trl":
        typer.echo(f"done: {summary.get('steps')} GSPO steps, rewards per step "
                   f"{summary.get('mean_reward_per_step')}, adapter in {summary.get('adapter')}")
