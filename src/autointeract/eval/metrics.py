"""Evaluation metrics over trajectories, and paired comparison with bootstrap intervals.

Pure functions. Trajectories are grouped by task; with k runs per task, pass@1 is the mean
over tasks of (passed runs / k) — the unbiased pass@1 estimator — pass@k the share of
tasks with at least one passing run, and pass^k the share of tasks whose k runs all pass.
A run "passes" when its verifier passed every criterion;
unverified runs (no docker engine for a docker-bound task) are reported apart, never as
failures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from autointeract.types import Trajectory

METRICS = ("pass@1", "pass@k", "pass^k", "score", "user_correction", "turns", "tokens",
           "wall_s", "reward")


def _verified(t: Trajectory) -> bool:
    return t.verifier is not None and t.verifier.verified


def _turns(t: Trajectory) -> int:
    return sum(1 for m in t.messages if m.role == "assistant")


PASS_METRICS = ("pass@1", "pass@k", "pass^k", "score", "reward")


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimator: 1 − C(n−c, k)/C(n, k) for c passes in n runs."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"need 0 <= c <= n and k >= 1 (got n={n}, c={c}, k={k})")
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} runs (got {n})")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def per_task(trajs: Iterable[Trajectory]) -> dict[str, dict[str, float | None]]:
    """Per-task means of every metric: pass@k is "some run passed", pass^k "every run
    passed" (k = the task's verified runs).

    Pass metrics (pass@1, pass@k, pass^k, score, reward) use verified runs only and are None for a
    task none of whose runs could be verified; conversation metrics (user correction, turns,
    tokens, wall time) use every run. ``k`` counts verified runs, ``runs`` all of them.
    """
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajs:
        groups[t.task_id].append(t)
    out: dict[str, dict[str, float | None]] = {}
    for task_id, runs in groups.items():
        ts = [t for t in runs if _verified(t)]
        passed = [bool(t.verifier and t.verifier.passed) for t in ts]
        row: dict[str, float | None] = {
            "pass@1": float(np.mean(passed)) if ts else None,
            "pass@k": float(any(passed)) if ts else None,
            "pass^k": float(all(passed)) if ts else None,
            "score": float(np.mean([t.verifier.score for t in ts if t.verifier])) if ts else None,
            "user_correction": float(np.mean([t.user_correction for t in runs])),
            "turns": float(np.mean([_turns(t) for t in runs])),
            "tokens": float(np.mean([sum(_tokens(t)) for t in runs])),
            "wall_s": float(np.mean([t.wall_s for t in runs])),
            "reward": float(np.mean([t.reward for t in ts])) if ts else None,
            "k": float(len(ts)),
            "runs": float(len(runs)),
        }
        out[task_id] = row
    return out


def _tokens(t: Trajectory) -> list[int]:
    """Prompt + completion tokens (a ``total`` entry is not counted twice)."""
    if "total" in t.tokens:
        return [t.tokens["total"]]
    return list(t.tokens.values())


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return float(np.mean(vals)) if vals else None


def mean_ci(values: Iterable[float | None], *, n_boot: int = 2000, seed: int = 0,
            alpha: float = 0.05) -> list[float] | None:
    """A bootstrap confidence interval of the mean over tasks (None values left out)."""
    x = np.array([v for v in values if v is not None], dtype=float)
    if len(x) == 0:
        return None
    rng = np.random.default_rng(seed)
    boots = x[rng.integers(0, len(x), size=(n_boot, len(x)))].mean(axis=1)
    lo, hi = np.quantile(boots, [alpha / 2, 1 - alpha / 2])
    return [float(lo), float(hi)]


def summarize(trajs: list[Trajectory], *, category: Callable[[Trajectory], str] | None = None,
              ci: bool = False, n_boot: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Overall metrics (means over tasks), plus per-category breakdowns when ``category``
    is given and a bootstrap interval of pass@1 over tasks when ``ci``."""
    tasks = per_task(trajs)
    out: dict[str, Any] = {"tasks": len(tasks),
                           "verified_tasks": sum(v["pass@1"] is not None for v in tasks.values()),
                           "runs": len(trajs),
                           "unverified_runs": sum(not _verified(t) for t in trajs)}
    for m in METRICS:
        out[m] = _mean(v[m] for v in tasks.values())
    if ci:
        out["pass@1_ci"] = mean_ci((v["pass@1"] for v in tasks.values()), n_boot=n_boot,
                                   seed=seed)
    if category is not None:
        cats: dict[str, list[Trajectory]] = defaultdict(list)
        for t in trajs:
            cats[category(t)].append(t)
        out["by_category"] = {c: summarize(ts) for c, ts in sorted(cats.items())}
    return out


def paired_bootstrap(a: dict[str, dict[str, float | None]],
                     b: dict[str, dict[str, float | None]], *,
                     metric: str, n_boot: int = 2000, seed: int = 0, alpha: float = 0.05
                     ) -> dict[str, Any]:
    """Delta (b − a) of ``metric`` over the tasks both runs share, with a paired bootstrap CI.

    Tasks are resampled with replacement; each resample keeps a task's two values together.
    Tasks where either side has no value (e.g. no verified run) are left out.
    """
    common = sorted(t for t in set(a) & set(b)
                    if a[t].get(metric) is not None and b[t].get(metric) is not None)
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
