"""``autointeract models ...``: check and list models."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(no_args_is_help=True, help="Embedded and remote models.")


@app.command("check")
def check(
    model: Annotated[list[str] | None, typer.Option("--model", "-m",
                     help="litellm model string; repeatable. Default: both embedded models.")] = None,
    cache_dir: Annotated[str, typer.Option(help="Response cache folder.")] = ".cache/llm",
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the response cache.")] = False,
    threads: Annotated[int | None, typer.Option(help="llama.cpp threads for local models.")] = None,
) -> None:
    """Print one reply and tokens/s for each model.

    Examples:

      autointeract models check

      autointeract models check -m openai/gpt-4o-mini --no-cache
    """
    from rich.console import Console
    from rich.table import Table

    from autointeract.config import LLMConfig, ModelConfig
    from autointeract.llm.check import DEFAULT_MODELS, check_models
    from autointeract.llm.client import LLMClient

    client = LLMClient(LLMConfig(cache_dir=cache_dir, local_n_threads=threads))
    results = check_models(client, [ModelConfig(model=m) for m in (model or DEFAULT_MODELS)],
                           use_cache=not no_cache)
    table = Table(title="models check")
    for col in ("model", "reply", "tokens", "tokens/s", "source"):
        table.add_column(col)
    for r in results:
        source = "error: " + r.error if r.error else ("cache (tokens/s as generated)" if r.cached
                                                     else "generated")
        one_line = " ".join(ln.strip() for ln in r.reply.splitlines() if ln.strip("` \t"))
        table.add_row(r.model, one_line[:60],
                      str(r.completion_tokens), f"{r.tokens_per_s:.1f}", source)
    Console().print(table)
    n_cached = sum(r.cached for r in results)
    typer.echo(f"{n_cached}/{len(results)} replies served from the cache")
    if any(r.error for r in results):
        raise typer.Exit(1)


@app.command("list")
def list_models() -> None:
    """List the embedded models and whether their files are present."""
    from autointeract.errors import ModelFileError
    from autointeract.llm.local import SPECS, model_path

    for name in SPECS:
        try:
            path = model_path(name)
            typer.echo(f"local/{name}\t{path}")
        except ModelFileError as exc:
            typer.echo(f"local/{name}\tunavailable: {exc}")
