"""Compare two evaluations of the same tasks and seeds: paired deltas with bootstrap
intervals, both sides' behavior metrics, and a plot.

    cmp = compare_dirs("runs/eval/base", "runs/eval/trained")
    cmp["metrics"]   # [{metric, tasks, a, b, delta, ci: [lo, hi], p_delta_le_0}, ...]
    cmp["behavior"]  # {"a": {...}, "b": {...}, "deltas": [...]}
    plot_compare(cmp, "compare.png")

Runs are paired on (task, seed): only pairs present on both sides count, and the result says
how many were left out on each side. Deltas are b − a.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autointeract.eval.behavior import behavior_summary, run_behavior
from autointeract.eval.metrics import METRICS, compare, paired_bootstrap
from autointeract.types import Trajectory

BEHAVIOR_METRICS = ("retrieval_calls", "repeated_share", "reference_files_touched",
                    "added_lines", "formal_test")


def _task_rows(d: Path) -> dict[str, dict[str, Any]]:
    p = d / "tasks.jsonl"
    if not p.is_file():
        return {}
    rows = [json.loads(ln) for ln in p.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return {r["task_id"]: r for r in rows}


def pair_runs(a: list[Trajectory], b: list[Trajectory]
              ) -> tuple[list[Trajectory], list[Trajectory], dict[str, int]]:
    """Keep the runs whose (task, seed) both sides have; counts of what was dropped."""
    ka = {(t.task_id, t.seed) for t in a}
    kb = {(t.task_id, t.seed) for t in b}
    both = ka & kb
    return ([t for t in a if (t.task_id, t.seed) in both],
            [t for t in b if (t.task_id, t.seed) in both],
            {"paired_runs": len(both), "only_a": len(ka - kb), "only_b": len(kb - ka)})


def behavior_per_task(trajs: list[Trajectory], refs: dict[str, Any]
                      ) -> dict[str, dict[str, float | None]]:
    """Per-task means of the per-run behavior quantities (for paired comparison)."""
    groups: dict[str, list[Any]] = {}
    for t in trajs:
        beh = run_behavior(t, reference_patch=refs.get(t.task_id))
        groups.setdefault(t.task_id, []).append(beh)
    out: dict[str, dict[str, float | None]] = {}
    for tid, runs in groups.items():
        def mean(vals: list[float | None]) -> float | None:
            v = [x for x in vals if x is not None]
            return sum(v) / len(v) if v else None
        out[tid] = {
            "retrieval_calls": mean([r.retrieval_calls for r in runs]),
            "repeated_share": mean([r.repeated_spans / r.retrieved_spans if r.retrieved_spans
                                    else None for r in runs]),
            "reference_files_touched": mean([r.reference_files_touched for r in runs]),
            "added_lines": mean([r.added_lines for r in runs]),
            "formal_test": mean([float(r.formal_test) for r in runs]),
        }
    return out


def compare_runs(a: list[Trajectory], b: list[Trajectory], *, refs: dict[str, Any] | None = None,
                 n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Paired comparison of two run sets. Pure.

    Returns:
        ``{"pairing", "metrics", "behavior": {"a", "b", "deltas"}}``.
    """
    refs = refs or {}
    a, b, pairing = pair_runs(a, b)
    ba, bb = behavior_per_task(a, refs), behavior_per_task(b, refs)
    return {
        "pairing": pairing,
        "metrics": compare(a, b, n_boot=n_boot, seed=seed),
        "behavior": {
            "a": behavior_summary(a, references=refs), "b": behavior_summary(b, references=refs),
            "deltas": [paired_bootstrap(ba, bb, metric=m, n_boot=n_boot, seed=seed)
                       for m in BEHAVIOR_METRICS]},
    }


def compare_dirs(dir_a: str | Path, dir_b: str | Path, *, n_boot: int = 2000,
                 seed: int = 0) -> dict[str, Any]:
    """Compare two evaluation folders (see :func:`compare_runs`).

    Raises:
        DataError: a folder without trajectories, or no (task, seed) pair in common.
    """
    from autointeract.errors import DataError
    from autointeract.eval.runner import load_trajectories

    da, db = Path(dir_a), Path(dir_b)
    ta, tb = load_trajectories(da), load_trajectories(db)
    refs = {tid: r.get("reference_patch") for d in (da, db)
            for tid, r in _task_rows(d).items() if r.get("reference_patch")}
    out = compare_runs(ta, tb, refs=refs, n_boot=n_boot, seed=seed)
    if not out["pairing"]["paired_runs"]:
        raise DataError(f"no (task, seed) pair in common with {db}: compare evaluations of "
                        "the same tasks and seeds", file=str(da))
    out["a"], out["b"] = str(da), str(db)
    out["labels"] = {"a": _label(da, ta), "b": _label(db, tb)}
    return out


def _label(d: Path, trajs: list[Trajectory]) -> str:
    solvers = sorted({t.solver for t in trajs})
    return f"{d.name} ({', '.join(solvers)})" if solvers else d.name


def plot_compare(cmp: dict[str, Any], path: str | Path) -> Path:
    """A PNG with one panel per metric: its delta (b − a) and 95% interval on its own scale
    (blue where the interval excludes 0)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in cmp["metrics"] + cmp["behavior"]["deltas"] if r.get("delta") is not None]
    ncols = 4
    nrows = max(1, -(-len(rows) // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 1.5 * nrows + 0.8),
                             squeeze=False)
    for ax, r in zip(axes.flat, rows, strict=False):
        lo, hi = r["ci"]
        sig = lo > 0 or hi < 0
        ax.barh([0], [r["delta"]], xerr=[[r["delta"] - lo], [hi - r["delta"]]], capsize=4,
                color="tab:blue" if sig else "tab:gray", height=0.5)
        ax.axvline(0, color="black", lw=0.8)
        span = max(abs(lo), abs(hi), abs(r["delta"])) * 1.3 or 1.0
        ax.set_xlim(-span, span)
        ax.set_yticks([])
        ax.set_title(f"{r['metric']}: {r['delta']:+.3g}", fontsize=9)
        ax.tick_params(axis="x", labelsize=7)
    for ax in list(axes.flat)[len(rows):]:
        ax.set_axis_off()
    labels = cmp.get("labels", {})
    fig.suptitle(f"{labels.get('b', 'b')} − {labels.get('a', 'a')}: "
                 f"{cmp['pairing']['paired_runs']} paired runs, 95% paired bootstrap over tasks",
                 fontsize=10)
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def compare_tables(cmp: dict[str, Any]) -> list[Any]:
    """Rich tables of the metric deltas and the behavior metrics of both sides."""
    from rich.table import Table

    from autointeract.eval.report import fmt

    labels = cmp.get("labels", {"a": "a", "b": "b"})
    t = Table(title=f"{labels['b']} − {labels['a']} (paired on {cmp['pairing']['paired_runs']} "
                    "runs)")
    for col in ("metric", "tasks", "a", "b", "delta", "95% CI", "P(delta<=0)"):
        t.add_column(col, justify="left" if col == "metric" else "right",
                     no_wrap=col in ("metric", "95% CI"))
    for r in cmp["metrics"] + cmp["behavior"]["deltas"]:
        ci = r.get("ci")
        t.add_row(r["metric"], str(r["tasks"]), fmt(r.get("a"), r["metric"]),
                  fmt(r.get("b"), r["metric"]),
                  "-" if r.get("delta") is None else f"{r['delta']:+.3f}",
                  "-" if not ci else f"[{ci[0]:+.3g}, {ci[1]:+.3g}]",
                  fmt(r.get("p_delta_le_0"), "share"))
    return [t]


__all__ = ["BEHAVIOR_METRICS", "METRICS", "compare_dirs", "compare_runs", "compare_tables",
           "pair_runs", "plot_compare"]
