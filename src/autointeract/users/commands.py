"""``autointeract users``: fit a user simulator with GEPA; measure its fidelity.

    autointeract users fit --sessions ../shared/swe-together/tasks --name swe-together
    autointeract users fidelity --sessions ../shared/swe-together/tasks \\
        --user-model user_models/swe-together
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Fit user simulators with GEPA; measure fidelity.")

SessionsOpt = Annotated[str, typer.Option(
    "--sessions", "-s", help="Folder of SWE-Together task folders, sessions .jsonl, or SWE-chat "
    "parquet folder.")]
CacheOpt = Annotated[str, typer.Option("--cache-dir", help="LLM response cache folder.")]


def _progress(label: str) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn(f"[bold]{label}[/]"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), transient=True, redirect_stdout=False)


def _client(cache_dir: str) -> Any:
    from autointeract.config import LLMConfig
    from autointeract.llm.client import LLMClient

    return LLMClient(LLMConfig(cache_dir=cache_dir or None))


def _load(sessions: str, max_sessions: int | None = None) -> list[Any]:
    from autointeract.users.jobs import load_sessions

    with _progress("loading sessions") as progress:
        task = progress.add_task("", total=None)
        return load_sessions(sessions, max_sessions=max_sessions,
                             on_item=lambda _: progress.update(task, advance=1))


@app.command("fit")
def fit(
    sessions: SessionsOpt,
    name: Annotated[str, typer.Option("--name", "-n", help="User model name (folder name).")],
    model: Annotated[str, typer.Option("--model", "-m", help="Simulator model.")]
    = "local/smollm2-135m",
    reflection_model: Annotated[str, typer.Option("--reflection-model",
                                help="Model that rewrites the prompt.")] = "local/qwen2.5-coder-0.5b",
    judge_model: Annotated[str | None, typer.Option("--judge-model",
                           help="Optional LLM judge in the score.")] = None,
    budget: Annotated[int, typer.Option("--budget", "-b",
                      help="GEPA max_metric_calls (simulated turns).")] = 60,
    seed: Annotated[int, typer.Option("--seed", help="Seed of splits, sampling and GEPA.")] = 0,
    max_examples: Annotated[int, typer.Option("--max-examples",
                            help="Next-turn examples drawn from the training sessions.")] = 24,
    max_tokens: Annotated[int, typer.Option("--max-tokens", help="Tokens per simulated turn.")] = 60,
    max_sessions: Annotated[int | None, typer.Option("--max-sessions",
                            help="Load at most N sessions.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder of user models.")]
    = Path("user_models"),
    run_dir: Annotated[Path | None, typer.Option(
        "--run-dir", help="gepa state folder (resumes when it exists). Default: "
        "runs/users_fit/<name>/gepa")] = None,
    cache_dir: CacheOpt = ".cache/llm",
) -> None:
    """Fit a behavior prompt to real sessions with GEPA; save it to OUT/NAME.

    Examples:

      autointeract users fit -s ../shared/swe-together/tasks -n swe-together --budget 40

      autointeract users fit -s data/sessions -n demo -m openai/gpt-4o-mini \\
          --reflection-model openai/gpt-4o --budget 200
    """
    from autointeract.users.fit import FitConfig, fit_user_model

    cfg = FitConfig(model=model, reflection_model=reflection_model, judge_model=judge_model,
                    budget=budget, seed=seed, max_examples=max_examples, max_tokens=max_tokens)
    loaded = _load(sessions, max_sessions)
    typer.echo(f"{len(loaded)} sessions from {sessions}")
    client = _client(cache_dir)
    with _progress("GEPA metric calls") as progress:
        task = progress.add_task("", total=budget)
        res = fit_user_model(loaded, name=name, out_dir=out, client=client, config=cfg,
                             run_dir=run_dir or Path("runs/users_fit") / name / "gepa",
                             on_progress=lambda d, t: progress.update(task, completed=min(d, t)))
    typer.echo(f"seed prompt score {res.seed_score:.3f} -> fitted {res.best_score:.3f} "
               f"({res.n_candidates} candidates, {res.metric_calls} metric calls, "
               f"{res.n_train} train / {res.n_val} val examples)")
    typer.echo(f"held out {len(res.heldout_sessions)} session(s) for fidelity")
    typer.echo(f"saved {res.model_dir}")


@app.command("fidelity")
def fidelity(
    sessions: SessionsOpt,
    user_model: Annotated[Path, typer.Option("--user-model", "-u",
                          help="A fitted user model folder (user_models/<name>).")],
    model: Annotated[str | None, typer.Option("--model", "-m",
                     help="Simulator model (default: the one the model was fitted with).")] = None,
    max_examples: Annotated[int, typer.Option("--max-examples",
                            help="Held-out next-turn examples.")] = 40,
    max_tokens: Annotated[int, typer.Option("--max-tokens", help="Tokens per simulated turn.")] = 60,
    max_sessions: Annotated[int | None, typer.Option("--max-sessions",
                            help="Load at most N sessions.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of sampling and CV folds.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    cache_dir: CacheOpt = ".cache/llm",
) -> None:
    """Compare the seed and the fitted prompt against real held-out user turns.

    Sessions the model was fitted on are excluded automatically.

    Examples:

      autointeract users fidelity -s ../shared/swe-together/tasks -u user_models/demo

      autointeract users fidelity -s data/sessions -u user_models/demo --json --max-examples 10
    """
    from autointeract.users.artifact import load_user_model
    from autointeract.users.jobs import run_fidelity

    um = load_user_model(user_model)
    sim = model or um.provenance.get("models", {}).get("simulator") or "local/smollm2-135m"
    loaded = _load(sessions, max_sessions)
    with _progress("simulating turns") as progress:
        task = progress.add_task("", total=None)
        report, held = run_fidelity(loaded, um, client=_client(cache_dir), model=sim, seed=seed,
                                    max_examples=max_examples, max_tokens=max_tokens,
                                    on_progress=lambda d, t: progress.update(task, completed=d,
                                                                             total=t))
    if as_json:
        typer.echo(json.dumps({"user_model": str(user_model), "simulator": sim,
                               "heldout": held.model_dump(), **report.model_dump()}, indent=2))
        return
    _print_report(report, held, title=f"fidelity of {um.name} ({sim})")


def _print_report(report: Any, held: Any, *, title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    from autointeract.users.fidelity import report_rows

    table = Table(title=title)
    for col in ("metric", "real", *report.models):
        table.add_column(col, justify="right" if col != "metric" else "left")
    for metric, vals in report_rows(report):
        table.add_row(metric, *("-" if v is None else f"{v:g}" for v in vals))
    console = Console()
    console.print(table)
    note = " (WARNING: all overlap the fit's training sessions)" if held.overlaps_training else (
        f", {held.excluded_training} training session(s) excluded" if held.excluded_training else "")
    console.print(f"{report.n_examples} held-out turns from {report.n_sessions} sessions{note}")
