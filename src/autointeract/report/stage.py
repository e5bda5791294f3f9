"""The pipeline's ``report`` stage: ``<run_dir>/report.html``."""

from __future__ import annotations

from typing import Any

from autointeract.config import StrictModel


class ReportStageConfig(StrictModel):
    """Params of the report stage."""

    out: str | None = None


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Write the HTML report of the run so far; returns its path."""
    from autointeract.report.html import write_report

    cfg = ctx.stage_params(ReportStageConfig, params)
    if ctx._llm is not None:  # the usage so far, for the report's LLM table
        import json

        (ctx.run_dir / "llm_usage.json").write_text(json.dumps(ctx.llm.usage.summary(), indent=2))
    path = write_report(ctx.run_dir, cfg.out)
    return {"path": str(path)}
