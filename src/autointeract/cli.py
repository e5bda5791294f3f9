"""The ``autointeract`` command: one typer app, a sub-command per stage.

Sub-apps live next to their stage (``autointeract/<stage>/commands.py``) and are listed in
``SUBCOMMANDS``; user errors (``AutointeractError``) print one line, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from autointeract.errors import AutointeractError

app = typer.Typer(
    name="autointeract",
    help=(
        "Learned user simulators and calibrated multi-turn coding tasks.\n\n"
        "Examples:\n\n"
        "  autointeract run pipelines/demo.yaml\n\n"
        "  autointeract run pipelines/demo.yaml -c seed=3 -c llm.max_concurrency=2\n\n"
        "  autointeract models check\n\n"
        "  autointeract history stats ../shared/swe-together/tasks"
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

# name -> (module, attribute holding a typer.Typer or a command function, help)
SUBCOMMANDS: list[tuple[str, str, str]] = [
    ("models", "autointeract.llm.commands:app", "Embedded and remote models: check, list."),
    ("scenarios", "autointeract.scenarios.commands:app", "Task families: list, show, export, check."),
    ("judge", "autointeract.verifiers.commands:judge", "Judge a solution against a problem's tests."),
    ("history", "autointeract.history.commands:app", "Load real sessions, label user acts, statistics."),
    ("rollout", "autointeract.rollout.commands:rollout", "Run agent-user-sandbox episodes from a config."),
    ("users", "autointeract.users.commands:app", "Fit user simulators with GEPA; measure fidelity."),
    ("profiles", "autointeract.profiles.commands:app", "Evolve user-profile populations with MAP-Elites."),
    ("generate", "autointeract.calibrate.commands:generate", "Generate calibrated multi-turn tasks."),
    ("calibrate", "autointeract.calibrate.commands:app", "Re-check calibrated tasks."),
    ("report", "autointeract.report.commands:report", "Write the HTML report of a run."),
    ("eval", "autointeract.eval.commands:app", "Evaluate models on multi-turn benchmarks."),
    ("train", "autointeract.rl.commands:train", "Train with verl (cluster) or TRL (one machine)."),
]


def _load(target: str) -> object | None:
    mod, attr = target.split(":")
    try:
        module = importlib.import_module(mod)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("autointeract"):
            return None  # stage not built in this checkout
        raise
    return getattr(module, attr)


def _register() -> None:
    for name, target, help_ in SUBCOMMANDS:
        obj = _load(target)
        if obj is None:
            continue
        if isinstance(obj, typer.Typer):
            app.add_typer(obj, name=name, help=help_)
        else:
            # a command's own docstring (with its examples) wins over the one-line summary
            app.command(name=name, help=None if obj.__doc__ else help_)(obj)


@app.command("run")
def run_cmd(
    pipeline: Annotated[Path, typer.Argument(help="Pipeline YAML (e.g. pipelines/demo.yaml).")],
    config: Annotated[list[str] | None, typer.Option("-c", "--config",
                      help="Dotted override, e.g. -c seed=3 -c llm.max_concurrency=2.")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="Run only these stages.")] = None,
) -> None:
    """Run a pipeline of registered stages.

    Example: autointeract run pipelines/demo.yaml -c seed=1
    """
    from autointeract.config import load_config
    from autointeract.pipeline import PipelineConfig, format_run_dir, run_pipeline

    cfg = load_config(PipelineConfig, pipeline, config)
    ctx = run_pipeline(cfg, config_file=str(pipeline), only=only, log=typer.echo)
    typer.echo(f"done: outputs in {format_run_dir(cfg)}")
    del ctx


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    _register()
    try:
        app(args=argv, standalone_mode=True)
    except AutointeractError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
