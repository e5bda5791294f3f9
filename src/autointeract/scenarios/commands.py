"""``autointeract scenarios``: list families, show and export tasks, check references."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False)

_Family = Annotated[str, typer.Argument(help="builtin, livecodebench, lcbpro, swetogether, swebench.")]
_Source = Annotated[str | None, typer.Argument(help="File, folder or hub id (default: the family's own).")]
_Opts = Annotated[list[str] | None, typer.Option("-o", "--option",
                  help="Scenario option key=value, e.g. -o limit=3 -o seed=1.")]


def _opts(items: list[str] | None) -> dict[str, object]:
    from autointeract.config import parse_overrides

    return dict(parse_overrides(items))


@app.command("list")
def list_cmd() -> None:
    """List the registered scenario families.

    Example: autointeract scenarios list
    """
    from autointeract.scenarios.base import SCENARIOS

    for name, target in SCENARIOS.items():
        typer.echo(f"{name:14s} {target}")


@app.command("show")
def show(family: _Family, source: _Source = None, option: _Opts = None,
         full: Annotated[bool, typer.Option("--full", help="Print every requirement.")] = False) -> None:
    """Show the tasks of a family: opening message and held-back requirements.

    Examples:

      autointeract scenarios show builtin

      autointeract scenarios show lcbpro scenarios/lcbpro_sample --full

      autointeract scenarios show swetogether ../shared/swe-together/tasks -o limit=3
    """
    from autointeract.scenarios.base import load_tasks

    for t in load_tasks(family, source, **_opts(option)):
        typer.echo(f"{t.task_id}  [{t.verifier.kind}, {len(t.verifier.tests)} tests, "
                   f"{len(t.requirements)} requirements, {t.difficulty or '-'}]")
        typer.echo(f"  user: {t.initial_message[:160]!r}")
        for r in t.requirements if full else t.requirements[:2]:
            typer.echo(f"  - ({r.trigger or 'turn'} {r.reveal_after_turn}, tests {r.tests}) "
                       f"{r.text[:120]!r}")


@app.command("export")
def export(family: _Family, out: Annotated[Path, typer.Argument(help="Output JSONL.")],
           source: Annotated[str | None, typer.Option("--source", help="File, folder or hub id.")] = None,
           option: _Opts = None) -> None:
    """Write a family's TaskSpecs as JSONL (one task per line), with provenance.

    Example: autointeract scenarios export builtin runs/tasks.jsonl -o seed=2
    """
    from autointeract.config import write_provenance
    from autointeract.scenarios.base import get_scenario
    from autointeract.scenarios.stage import write_tasks

    sc = get_scenario(family, **_opts(option))
    tasks = sc.load(source)
    path = write_tasks(tasks, out)
    write_provenance(path.parent, sc.config, seed=sc.config.seed, stage=f"scenarios_{family}",
                     extra={"source": source, "n_tasks": len(tasks)})
    typer.echo(f"wrote {len(tasks)} tasks to {path}")


@app.command("check")
def check(family: _Family, source: _Source = None, option: _Opts = None) -> None:
    """Judge every reference solution of a family's stdin/functional tasks; exit 1 on a failure.

    Example: autointeract scenarios check builtin
    """
    from autointeract.scenarios.base import load_tasks
    from autointeract.scenarios.stage import failing_references

    tasks = load_tasks(family, source, **_opts(option))
    bad = failing_references(tasks)
    n = sum(1 for t in tasks if t.reference_solution and t.verifier.kind in ("stdin", "functional"))
    for tid, verdicts in bad.items():
        typer.echo(f"FAIL {tid}: {verdicts}")
    typer.echo(f"{n - len(bad)}/{n} reference solutions pass")
    if bad:
        raise typer.Exit(1)
