"""``autointeract profiles``: evolve a population, show it, re-measure its elites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from autointeract.config import ModelConfig

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

FAKE_MODEL = "scripted/profiles-fake"


def resolve_user_model(name: str) -> ModelConfig | str:
    """``fake`` -> the package's style-following fake (registered now); else the model string."""
    if name in ("fake", FAKE_MODEL):
        from autointeract.profiles.fakes import style_following_model

        return style_following_model(name=FAKE_MODEL.split("/", 1)[1]).model
    return ModelConfig(model=name, max_tokens=64)


def _client(cache_dir: str | None, *, concurrency: int = 4, model: str = "") -> Any:
    """The LLM client; one request at a time for embedded models (they run serially anyway,
    and queued requests would only run into timeouts)."""
    from autointeract.config import LLMConfig
    from autointeract.llm import LLMClient

    conc = 1 if model.startswith("local/") else concurrency
    return LLMClient(LLMConfig(cache_dir=cache_dir or None, max_concurrency=conc))


@app.command("evolve")
def evolve(
    sessions: Annotated[str, typer.Option("--sessions", "-s", help="Real sessions: SWE-Together folder or sessions JSONL.")],
    name: Annotated[str, typer.Option("--name", help="Population name: writes user_models/<name>/profiles*.")] = "default",
    out: Annotated[Path | None, typer.Option("--out", help="Output folder (overrides --name).")] = None,
    config: Annotated[Path | None, typer.Option("--config", help="YAML of PopulationConfig params.")] = None,
    override: Annotated[list[str] | None, typer.Option("-c", help="Dotted override, e.g. -c evolve.iterations=5.")] = None,
    user_model: Annotated[str, typer.Option("--user-model", help="litellm model string, or 'fake'.")] = "local/smollm2-135m",
    cache_dir: Annotated[str, typer.Option("--cache-dir", help="LLM cache folder ('' = none).")] = ".cache/llm",
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore an existing checkpoint.")] = False,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Concurrent LLM requests (1 for local/ models).")] = 4,
    progress: Annotated[bool, typer.Option("--progress/--no-progress")] = True,
) -> None:
    """Evolve a MAP-Elites archive of user profiles (resumes from its checkpoint).

    Examples:

      autointeract profiles evolve -s data/sessions --name demo --user-model fake

      autointeract profiles evolve -s ../shared/swe-together/tasks --name swet
      -c evolve.iterations=3 -c evolve.batch_size=2 -c evolve.probes.n_probes=1
    """
    from autointeract.config import load_config, write_provenance
    from autointeract.profiles.population import PopulationConfig, build_population

    cfg = load_config(PopulationConfig, config, [*(override or []), f"sessions={sessions}"])
    if fresh:
        cfg = cfg.model_copy(update={"fresh": True})
    out_dir = out or Path("user_models") / name
    summary = build_population(cfg, client=_client(cache_dir, concurrency=concurrency, model=user_model),
                               user_model=resolve_user_model(user_model),
                               out_dir=out_dir, progress=progress, log=typer.echo)
    write_provenance(out_dir, cfg, seed=cfg.evolve.seed, stage="profiles",
                     extra={"user_model": user_model})
    _print_summary(summary)


def _print_summary(summary: dict[str, Any]) -> None:
    ru = summary["real_users"]
    typer.echo(f"elites {summary['n_elites']}/{summary['cells']} cells, coverage "
               f"{summary['coverage']:.1%}, QD score {summary['qd_score']:.3f}, "
               f"evaluated {summary['evaluated']} profiles")
    typer.echo(f"real users: {ru['inside_ranges']}/{ru['n_real']} inside the descriptor ranges; "
               f"{ru['covered_cells']}/{ru['real_cells']} of their cells hold an elite "
               f"({ru['covered_users']} users covered)")
    typer.echo(f"wrote {summary['profiles']}, {summary['heatmap']}, {summary['archive']}")


@app.command("show")
def show(
    path: Annotated[Path, typer.Argument(help="Population folder (user_models/<name>).")],
    top: Annotated[int, typer.Option("--top", help="Show this many elites (by realism).")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print the state as JSON.")] = False,
) -> None:
    """Show a population: per-iteration coverage and QD score, and its most realistic elites.

    Example: autointeract profiles show user_models/demo --top 5
    """
    from rich.console import Console
    from rich.table import Table

    from autointeract.errors import DataError
    from autointeract.profiles.archive_io import ProfileSampler
    from autointeract.profiles.run import ProfilePaths

    paths = ProfilePaths(path)
    if not paths.state.is_file():
        raise DataError("no profiles state found", file=str(paths.state))
    state = json.loads(paths.state.read_text(encoding="utf-8"))
    sampler = ProfileSampler(paths.profiles)
    if as_json:
        typer.echo(json.dumps({"history": state["history"], "n_elites": len(sampler)}, indent=2))
        return
    con = Console()
    hist = Table(title=f"{path}: {len(sampler)} elites")
    for col in ("iteration", "evaluated", "elites", "coverage", "QD score", "best"):
        hist.add_column(col, justify="right")
    for h in state["history"]:
        hist.add_row(str(h["iteration"]), str(h["evaluated"]), str(h["num_elites"]),
                     f"{h['coverage']:.1%}", f"{h['qd_score']:.3f}", f"{h['obj_max'] or 0:.3f}")
    con.print(hist)
    el = Table(title="most realistic elites")
    for col in ("cell", "realism", "descriptors", "persona"):
        el.add_column(col)
    for r in sorted(sampler.rows, key=lambda r: -r["realism"])[:top]:
        desc = ", ".join(f"{k}={v:.2f}" for k, v in r["descriptors"].items())
        el.add_row(str(r["grid"]), f"{r['realism']:.3f}", desc, r["profile"].get("persona", "")[:90])
    con.print(el)


@app.command("measure")
def measure(
    path: Annotated[Path, typer.Argument(help="Population folder (user_models/<name>).")],
    n: Annotated[int, typer.Option("--n", help="Re-measure this many elites (most realistic first; 0 = all).")] = 0,
    tolerance: Annotated[float, typer.Option("--tolerance", help="Allowed move per descriptor, in cell widths.")] = 1.0,
    cache: Annotated[bool, typer.Option("--cache/--no-cache", help="Allow cached replies (default: fresh samples).")] = False,
    cache_dir: Annotated[str, typer.Option("--cache-dir")] = ".cache/llm",
) -> None:
    """Re-measure saved elites and compare with their stored descriptors.

    Exits 1 when fewer than all re-measured elites agree within the tolerance.

    Example: autointeract profiles measure user_models/demo --n 5 --tolerance 1.0
    """
    from autointeract.profiles.remeasure import remeasure_population

    rep = remeasure_population(path, client=_client(cache_dir, concurrency=1), n=n, tolerance=tolerance,
                               use_cache=cache)
    typer.echo(f"re-measured {rep['n']} elites: {rep['agree']} agree within {tolerance} cell "
               f"width(s) {rep['tolerance_abs']}; same cell {rep['same_cell_rate']:.0%}; "
               f"max |diff| {rep['max_abs_diff']}; failed {rep['failed']}")
    if rep["agree"] < rep["n"]:
        raise typer.Exit(1)
