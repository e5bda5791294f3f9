"""``autointeract history``: ingest sessions, print behavior statistics.

    autointeract history ingest ../shared/swe-together/tasks --out runs/history/sessions.jsonl
    autointeract history stats ../shared/swe-together/tasks
    autointeract history stats runs/history/sessions.jsonl --json
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from autointeract.errors import ConfigError

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="Load real sessions, label user acts, statistics.")

SrcArg = Annotated[str, typer.Argument(
    help="SWE-Together tasks folder, SWE-chat parquet folder, sessions .jsonl, or hf:<repo>.")]
FormatOpt = Annotated[str, typer.Option("--format", "-f",
                      help="auto | swe-together | swe-chat | jsonl.")]
MaxOpt = Annotated[int | None, typer.Option("--max-sessions", help="Keep at most N sessions.")]


def _load(src: str, *, fmt: str, max_sessions: int | None, labeler: Any = None) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from autointeract.history.corpus import detect_format
    from autointeract.history.ingest import ingest

    if fmt not in ("auto", "swe-together", "swe-chat", "jsonl"):
        raise ConfigError(f"unknown format '{fmt}'", field="--format")
    try:
        kind = detect_format(src) if fmt == "auto" else fmt
    except (FileNotFoundError, ValueError) as exc:
        raise ConfigError(str(exc).split(": ", 1)[-1] or "not found", file=src) from None
    total = None
    if kind == "swe-together" and Path(src).is_dir():
        total = sum(1 for p in Path(src).iterdir() if (p / "original_session.json").exists()) or 1
    with Progress(TextColumn("[bold]loading[/]"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.description}"), transient=True,
                  redirect_stdout=False) as progress:
        task = progress.add_task("", total=total)
        corpus = ingest(src, labeler=labeler, format=kind,  # type: ignore[arg-type]
                        max_sessions=max_sessions,
                        on_item=lambda name: progress.update(task, advance=1, description=name[:40]))
    return corpus


def _report_issues(corpus: Any) -> None:
    skipped = corpus.skipped_files
    if skipped:
        typer.secho(f"skipped {len(skipped)} file(s):", fg=typer.colors.YELLOW, err=True)
        for f in skipped:
            reason = next((i.reason for i in corpus.issues if i.skipped and f.startswith(i.file)), "")
            typer.secho(f"  {f}: {reason}", fg=typer.colors.YELLOW, err=True)
    other = [i for i in corpus.issues if not i.skipped]
    if other:
        typer.secho(f"{len(other)} repaired issue(s), e.g. {other[0]}", err=True)


@app.command("ingest")
def ingest_cmd(
    src: SrcArg,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output sessions .jsonl.")],
    fmt: FormatOpt = "auto",
    labeler: Annotated[str, typer.Option("--labeler", help="rules | llm.")] = "rules",
    model: Annotated[str, typer.Option("--model", help="litellm model for --labeler llm.")]
    = "local/qwen2.5-coder-0.5b",
    max_sessions: MaxOpt = None,
) -> None:
    """Write normalized, redacted, act-labeled sessions as JSONL (+ stats.json, issues.jsonl).

    Example: autointeract history ingest ../shared/swe-together/tasks -o runs/h/sessions.jsonl
    """
    from autointeract.history.ingest import make_labeler, write_outputs

    if labeler not in ("rules", "llm"):
        raise ConfigError(f"unknown labeler '{labeler}' (rules | llm)", field="--labeler")
    lm = None
    if labeler == "llm":
        from autointeract.config import LLMConfig, ModelConfig
        from autointeract.llm import LLMClient
        from autointeract.llm.dspy_lm import make_dspy_lm

        lm = make_dspy_lm(LLMClient(LLMConfig()), ModelConfig(model=model, temperature=0.0),
                          stage="history")
    corpus = _load(src, fmt=fmt, max_sessions=max_sessions,
                   labeler=make_labeler(labeler, lm=lm))  # type: ignore[arg-type]
    paths, stats = write_outputs(corpus, out.parent, sessions_name=out.name)
    _report_issues(corpus)
    n_turns = stats.n_user_turns
    typer.echo(f"wrote {len(corpus.sessions)} sessions ({n_turns} user turns) to {paths['sessions_path']}; "
               f"stats in {paths['stats_path']}")


def _table(stats: Any, title: str) -> Any:
    from rich.table import Table

    t = Table(title=title, show_header=True)
    t.add_column("statistic")
    t.add_column("value", justify="right")
    for k, v in stats.key_stats().items():
        t.add_row(k, "-" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v))
    t.add_row("turns_per_session_median", f"{stats.turns_per_session_median:.1f}")
    t.add_row("typo_checked_words", str(stats.typo_checked_words))
    for act, share in stats.act_distribution.items():
        t.add_row(f"act: {act}", f"{share:.3f}")
    r = stats.reveal
    t.add_row("reveal (new_req+correction) by position",
              " ".join(f"{x:.2f}" for x in r.reveal_by_position))
    t.add_row("pushback by position", " ".join(f"{x:.2f}" for x in r.pushback_by_position))
    t.add_row("sessions with a new requirement", f"{r.sessions_with_new_requirement:.3f}")
    return t


@app.command("stats")
def stats_cmd(
    src: SrcArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    fmt: FormatOpt = "auto",
    max_sessions: MaxOpt = None,
) -> None:
    """Print user-behavior statistics of a session source.

    Example: autointeract history stats ../shared/swe-together/tasks --json
    """
    from rich.console import Console

    from autointeract.history.stats import corpus_stats

    t0 = time.perf_counter()
    corpus = _load(src, fmt=fmt, max_sessions=max_sessions)
    stats = corpus_stats(corpus.sessions)
    wall = time.perf_counter() - t0
    _report_issues(corpus)
    if as_json:
        typer.echo(json.dumps({"source": corpus.source, "format": corpus.format,
                               "skipped": corpus.skipped_files, "wall_s": round(wall, 2),
                               **stats.model_dump()}, indent=2))
        return
    Console().print(_table(stats, f"{corpus.source} ({corpus.format}, {wall:.1f}s)"))
