"""Evaluation metrics over trajectories, and paired comparison with bootstrap intervals.

Pure functions. Trajectories are grouped by task; with k runs per task, pass@1 is the mean
over tasks of (passed runs / k) — the unbiased pass@1 estimator — and pass^k is the share
of tasks whose k runs all pass. A run "passes" when its verifier passed every criterion;
unverified runs (no docker engine for a docker-bound task) are reported apart, never as
failures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from autointeract.types import Trajectory

METRICS = ("pass@1", "pass^k", "score", "user_correction", "turns", "tokens", "wall_s", "reward")


def _verified(t: Trajectory) -> bool:
    return t.verifier is not None and t.verifier.verified


def _turns(t: Trajectory) -> int:
    return sum(1 for m in t.messages if m.role == "assistant")


def per_task(trajs: Iterable[Trajectory]) -> dict[str, dict[str, float]]:
    """Per-task means of every metric (pass^k as all-runs-passed)."""
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajs:
        if _verified(t):
            groups[t.task_id].append(t)
    out = {}
    for task_id, ts in groups.items():
        passed = [bool(t.verifier and t.verifier.passed) for t in ts]
        out[task_id] = {
            "pass@1": float(np.mean(passed)),
            "pass^k": float(all(passed)),
            "score": float(np.mean([t.verifier.score for t in ts if t.verifier])),
            "user_correction": float(np.mean([t.user_correction for t in ts])),
            "turns": float(np.mean([_turns(t) for t in ts])),
            "tokens": float(np.mean([sum(t.tokens.values()) for t in ts])),
            "wall_s": float(np.mean([t.wall_s for t in ts])),
            "reward": float(np.mean([t.reward for t in ts])),
            "k": float(len(ts)),
        }
    return out


def summarize(trajs: list[Trajectory], *, category: Callable[[Trajectory], str] | None = None
              ) -> dict[str, Any]:
    """Overall metrics, plus per-category breakdowns when ``category`` is given."""
    tasks = per_task(trajs)
    out: dict[str, Any] = {"tasks": len(tasks), "runs": len(trajs),
                           "unverified_runs": sum(not _verified(t) for t in trajs)}
    for m in METRICS:
        out[m] = float(np.mean([v[m] for v in tasks.values()])) if tasks else None
    if category is not None:
        cats: dict[str, list[Trajectory]] = defaultdict(list)
        for t in trajs:
            cats[category(t)].append(t)
        out["by_category"] = {c: summarize(ts) for c, ts in sorted(cats.items())}
    return out


def paired_bootstrap(a: dict[str, dict[str, float]], b: dict[str, dict[str, float]], *,
                     metric: str, n_boot: int = 2000, seed: int = 0, alpha: float = 0.05
                     ) -> dict[str, Any]:
    """Delta (b − a) of ``metric`` over the tasks both runs share, with a paired bootstrap CI.

    Tasks are resampled with replacement; each resample keeps a task's two values together.
    """
    common = sorted(set(a) & set(b))
    if not common:
        return {"metric": metric, "tasks": 0, "delta": None, "ci": None}
    x = np.array([a[t][metric] for t in common], dtype=float)
    y = np.array([b[t][metric] for t in common], dtype=float)
    d = y - x
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(d), size=(n_boot, len(d)))
    boots = d[idx].mean(axis=1)
    lo, hi = np.quantile(boots, [alpha / 2, 1 - alpha / 2])
    return {"metric": metric, "tasks": len(common), "a": float(x.mean()), "b": float(y.mean()),
            "delta": float(d.mean()), "ci": [float(lo), float(hi)],
            "p_delta_le_0": float((boots <= 0).mean())}


def compare(a: list[Trajectory], b: list[Trajectory], *, n_boot: int = 2000, seed: int = 0
            ) -> list[dict[str, Any]]:
    """Per-metric paired deltas with intervals for two runs on the same tasks and seeds."""
    ta, tb = per_task(a), per_task(b)
    return [paired_bootstrap(ta, tb, metric=m, n_boot=n_boot, seed=seed) for m in METRICS]
