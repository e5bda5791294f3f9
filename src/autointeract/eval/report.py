"""The evaluation report: metrics overall and per benchmark/difficulty/category, behavior
metrics, per-task rows -- as JSON (``report.json``) and as rich tables.

:func:`build_report` is pure (trajectories and task rows in, a dict out); :func:`save_report`
writes it atomically next to the trajectories.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autointeract.eval.behavior import behavior_summary, per_run_dicts
from autointeract.eval.metrics import per_task, summarize
from autointeract.types import Trajectory

BREAKDOWNS = ("benchmark", "difficulty", "category")
SHOWN = ("pass@1", "pass@k", "pass^k", "score", "user_correction", "turns", "tokens", "wall_s")
HEADERS = {"unverified": "unverif.", "user_correction": "user corr.", "wall_s": "wall s"}


def _by(rows: dict[str, dict[str, Any]], key: str) -> Callable[[Trajectory], str]:
    def cat(t: Trajectory) -> str:
        return str(rows.get(t.task_id, {}).get(key) or "-")
    return cat


def build_report(trajs: list[Trajectory], task_rows: list[dict[str, Any]], *,
                 meta: dict[str, Any] | None = None, n_boot: int = 2000,
                 seed: int = 0) -> dict[str, Any]:
    """The report of one evaluation. Pure.

    Args:
        trajs: the runs (k per task).
        task_rows: rows of ``tasks.jsonl`` (task id, benchmark, difficulty, category, ...).
        meta: run facts to carry (name, agent, user, seeds, notes).
        n_boot: bootstrap resamples for the pass@1 interval.
        seed: bootstrap seed.

    Returns:
        ``{"meta", "overall", "by_benchmark", "by_difficulty", "by_category", "behavior",
        "behavior_by_benchmark", "per_task"}``.
    """
    rows = {r["task_id"]: r for r in task_rows}
    refs = {tid: r.get("reference_patch") for tid, r in rows.items() if r.get("reference_patch")}
    report: dict[str, Any] = {"meta": dict(meta or {})}
    report["overall"] = summarize(trajs, ci=True, n_boot=n_boot, seed=seed)
    for key in BREAKDOWNS:
        report[f"by_{key}"] = summarize(trajs, category=_by(rows, key))["by_category"]
    report["behavior"] = behavior_summary(trajs, references=refs)
    cat = _by(rows, "benchmark")
    groups: dict[str, list[Trajectory]] = {}
    for t in trajs:
        groups.setdefault(cat(t), []).append(t)
    report["behavior_by_benchmark"] = {b: behavior_summary(ts, references=refs)
                                       for b, ts in sorted(groups.items())}
    report["per_task"] = {tid: {**v, "benchmark": rows.get(tid, {}).get("benchmark")}
                          for tid, v in sorted(per_task(trajs).items())}
    report["finish_reasons"] = _count(t.finish_reason for t in trajs)
    return report


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x or "-"] = out.get(x or "-", 0) + 1
    return dict(sorted(out.items()))


def save_report(out_dir: str | Path, report: dict[str, Any], trajs: list[Trajectory],
                task_rows: list[dict[str, Any]]) -> Path:
    """Write ``report.json`` and ``behavior_runs.jsonl`` atomically; returns the report path."""
    out = Path(out_dir)
    refs = {r["task_id"]: r.get("reference_patch") for r in task_rows if r.get("reference_patch")}
    beh = out / "behavior_runs.jsonl"
    tmp = beh.with_name(".behavior_runs.jsonl.tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in per_run_dicts(trajs, references=refs)),
                   encoding="utf-8")
    tmp.replace(beh)
    path = out / "report.json"
    tmp = path.with_name(".report.json.tmp")
    tmp.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    tmp.replace(path)
    return path


def load_report(out_dir: str | Path) -> dict[str, Any]:
    """``report.json`` of an evaluation folder.

    Raises:
        DataError: no report, or not JSON.
    """
    from autointeract.errors import DataError

    path = Path(out_dir) / "report.json"
    if not path.is_file():
        raise DataError("no report.json (run 'autointeract eval run' first)", file=str(out_dir))
    try:
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", file=str(path)) from None


def fmt(value: Any, metric: str = "") -> str:
    """A metric value for a table cell."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if metric in ("tokens", "wall_s"):
            return f"{value:.0f}"
        if metric.endswith("share") or metric in ("pass@1", "pass@k", "pass^k", "score"):
            return f"{value:.3f}"
        return f"{value:.2f}"
    return str(value)


def report_tables(report: dict[str, Any]) -> list[Any]:
    """Rich tables: overall + breakdown by benchmark, and the behavior metrics."""
    from rich.table import Table

    meta = report.get("meta", {})
    title = (f"eval {meta.get('name', '')}: agent {meta.get('agent', '?')}, user "
             f"{meta.get('user', '?')}, k={meta.get('k', '?')}")
    t = Table(title=title)
    t.add_column("benchmark", no_wrap=True)
    for col in ("tasks", "runs", "unverified", *SHOWN):
        t.add_column(HEADERS.get(col, col), justify="right", no_wrap=True)
    rows = [("all", report["overall"]), *report.get("by_benchmark", {}).items()]
    for name, m in rows:
        t.add_row(name, str(m.get("tasks")), str(m.get("runs")), str(m.get("unverified_runs")),
                  *(fmt(m.get(c), c) for c in SHOWN))
    ci = report["overall"].get("pass@1_ci")
    if ci:
        t.caption = f"pass@1 95% bootstrap interval over tasks: [{ci[0]:.3f}, {ci[1]:.3f}]"
    b = behavior_table([("all", report.get("behavior", {})),
                        *report.get("behavior_by_benchmark", {}).items()])
    return [t, b]


BEHAVIOR_COLUMNS = ("mean_retrieval_calls", "repeated_retrieved_share",
                    "mean_reference_files_touched", "mean_added_lines", "formal_test_share")


def behavior_table(rows: list[tuple[str, dict[str, Any]]], *,
                   title: str = "behavior (Table 4)") -> Any:
    """A rich table of behavior summaries, one row per (label, summary)."""
    from rich.table import Table

    b = Table(title=title)
    b.add_column("")
    for col in BEHAVIOR_COLUMNS:
        b.add_column(col.replace("mean_", "").replace("_", " "), justify="right")
    for name, m in rows:
        b.add_row(name, *(fmt(m.get(c), c) for c in BEHAVIOR_COLUMNS))
    return b
