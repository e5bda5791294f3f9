"""``autointeract generate`` and ``autointeract calibrate recheck``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Re-check calibrated tasks.")


def generate(
    config: Annotated[Path, typer.Argument(help="Generate YAML (a GenerateConfig).")],
    overrides: Annotated[list[str] | None, typer.Option(
        "-c", "--config", help="Dotted override, e.g. -c band.max_n=8.")] = None,
    run_dir: Annotated[Path | None, typer.Option(
        "--run-dir", help="Output folder (default: the config's run_dir).")] = None,
    push_to_hub: Annotated[str | None, typer.Option(
        "--push-to-hub", help="Upload the datasets to this Hub repo (needs HF_TOKEN).")] = None,
    progress: Annotated[bool, typer.Option(help="Show live progress.")] = True,
) -> None:
    """Generate calibrated multi-turn tasks and write them as datasets.

    Examples:

      autointeract generate pipelines/generate.yaml

      autointeract generate cfg.yaml -c seeds.limit=3 -c band.max_n=4 -c band.confidence=0.8

      autointeract generate cfg.yaml -c weak.kind=skill -c strong.kind=skill   (dry run, no LLM)

      autointeract generate cfg.yaml --push-to-hub me/calibrated-tasks

    A config names the seed problems (seeds.family: builtin | livecodebench | lcbpro |
    swetogether), the two reference solvers (weak, strong), the simulated user, the band
    (weak <= 40%, strong >= 70% by default) and the budgets. Rerunning into the same folder
    resumes a killed run without losing or duplicating anything.
    """
    import yaml

    from autointeract.calibrate.config import GenerateConfig
    from autointeract.calibrate.recheck import CONFIG_FILE
    from autointeract.calibrate.run import generate_tasks
    from autointeract.config import load_config, write_provenance
    from autointeract.llm import LLMClient

    cfg = load_config(GenerateConfig, config, overrides)
    if push_to_hub:
        cfg.dataset.push_to_hub = push_to_hub
        from autointeract.dataset.writer import hub_token

        hub_token()  # fail before the run, not after it
    cfg.progress = progress
    out = run_dir or Path(cfg.run_dir.format(name=cfg.name, seed=cfg.seed))
    write_provenance(out, cfg, seed=cfg.seed, stage="generate")
    (out / CONFIG_FILE).write_text(yaml.safe_dump(cfg.model_dump(mode="json"), sort_keys=False),
                                   encoding="utf-8")
    client = LLMClient(cfg.llm)
    summary = generate_tasks(cfg, run_dir=out, client=client, models=cfg.models, seed=cfg.seed,
                             name=f"{cfg.name}-tasks", log=typer.echo)
    summary["llm_usage"] = client.usage.summary().get("total", {})
    typer.echo(json.dumps({k: summary[k] for k in ("stop_reason", "candidates", "accepted",
                                                   "funnel", "dataset")}, indent=1))


@app.command("recheck")
def recheck(
    run_dir: Annotated[Path, typer.Argument(help="A `generate` run folder.")],
    offset: Annotated[int, typer.Option(help="Shift of the episode seeds (fresh seeds).")] = 1000,
) -> None:
    """Re-measure accepted tasks with fresh seeds; print the share still in band.

    Examples:

      autointeract calibrate recheck runs/generate

      autointeract calibrate recheck runs/demo/generate --offset 2000
    """
    from autointeract.calibrate.recheck import recheck_run

    rep = recheck_run(run_dir, offset=offset)
    typer.echo(f"{rep['accepted_again']}/{rep['tasks']} accepted tasks still in band "
               f"({rep['still_in_band']:.0%}); statuses: {rep['statuses']}")


__all__ = ["app", "generate"]
