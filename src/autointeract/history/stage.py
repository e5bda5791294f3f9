"""The ``history`` pipeline stage: ingest a session source into the run directory.

Writes ``<run_dir>/history/sessions.jsonl`` (normalized, redacted, labeled), ``stats.json``
(:class:`~autointeract.history.stats.BehaviorStats`) and ``issues.jsonl``.
"""

from __future__ import annotations

from typing import Any, Literal

from autointeract.config import StrictModel
from autointeract.history.corpus import Format
from autointeract.history.ingest import ingest, make_labeler, write_outputs
from autointeract.history.text import DEFAULT_MAX_CHARS


class HistoryStageConfig(StrictModel):
    """Params of the ``history`` stage.

    Attributes:
        source: A SWE-Together tasks folder, a SWE-chat parquet folder, a sessions JSONL, or
            ``hf:SALT-NLP/SWE-chat``.
        format: Force the source format (detected by default).
        labeler: ``rules`` or ``llm`` (the dspy labeler; falls back to rules per turn).
        model: The pipeline model used by the ``llm`` labeler.
        max_sessions: Keep at most this many sessions.
        max_chars: Size limit of each stored text.
    """

    source: str
    format: Format = "auto"
    labeler: Literal["rules", "llm"] = "rules"
    model: str | None = None
    max_sessions: int | None = None
    max_chars: int = DEFAULT_MAX_CHARS


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Run the stage.

    Args:
        ctx: The pipeline's ``StageContext``.
        params: The stage params (validated as :class:`HistoryStageConfig`).

    Returns:
        A summary: output paths, session/issue counts, skipped files and key statistics.
    """
    cfg = ctx.stage_params(HistoryStageConfig, params)
    lm = None
    if cfg.labeler == "llm":
        from autointeract.llm.dspy_lm import make_dspy_lm

        lm = make_dspy_lm(ctx.llm, ctx.model(cfg.model or "default"), stage="history")
    corpus = ingest(cfg.source, labeler=make_labeler(cfg.labeler, lm=lm), format=cfg.format,
                    max_sessions=cfg.max_sessions, max_chars=cfg.max_chars)
    paths, stats = write_outputs(corpus, ctx.run_dir / "history")
    return {**paths, "format": corpus.format, "n_sessions": len(corpus.sessions),
            "n_issues": len(corpus.issues), "skipped": corpus.skipped_files,
            "stats": stats.key_stats()}
