"""``autointeract report RUN_DIR``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def report(
    run_dir: Annotated[Path, typer.Argument(help="A pipeline run folder or a `generate` folder.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file "
                                             "(default: RUN_DIR/report.html).")] = None,
) -> None:
    """Write the run's HTML report: calibration scatter, funnel, cost and time, rewards.

    Examples:

      autointeract report runs/demo

      autointeract report runs/generate -o /tmp/report.html
    """
    from autointeract.report.html import write_report

    typer.echo(f"report: {write_report(run_dir, out)}")


__all__ = ["report"]
