"""pass@1, pass^k, unverified runs, paired bootstrap: known answers."""

from __future__ import annotations

import math

import pytest

from autointeract.eval.metrics import (
    compare,
    mean_ci,
    paired_bootstrap,
    pass_at_k,
    per_task,
    summarize,
)
from autointeract.types import CriterionResult, Message, Trajectory, VerifierResult


def run(task: str, seed: int, passed: bool | None, *, turns: int = 1, uc: float = 0.0,
        tokens: int = 100) -> Trajectory:
    """A run; ``passed=None`` is an unverified run (no docker engine)."""
    if passed is None:
        ver = VerifierResult(verified=False, error="no docker")
    else:
        ver = VerifierResult(criteria=[CriterionResult(name="t0", passed=passed),
                                       CriterionResult(name="t1", passed=True)])
    msgs = [Message(role="user", content="x")] + [Message(role="assistant", content="y")] * turns
    return Trajectory(episode_id=f"{task}|s{seed}", task_id=task, seed=seed, messages=msgs,
                      verifier=ver, user_correction=uc, reward=1.0 if passed else 0.2,
                      tokens={"prompt": tokens - 10, "completion": 10, "total": tokens})


def test_pass_at_1_and_pass_hat_k() -> None:
    runs = [run("a", 0, True), run("a", 1, True),       # 2/2
            run("b", 0, True), run("b", 1, False),      # 1/2
            run("c", 0, False), run("c", 1, False)]     # 0/2
    s = summarize(runs)
    assert s["pass@1"] == pytest.approx(0.5)            # mean of 1, .5, 0
    assert s["pass^k"] == pytest.approx(1 / 3)          # only task a passes every run
    assert s["pass@k"] == pytest.approx(2 / 3)          # a and b pass at least once
    assert s["score"] == pytest.approx((1 + 0.75 + 0.5) / 3)
    assert s["tasks"] == 3 and s["runs"] == 6 and s["unverified_runs"] == 0


def test_tokens_not_double_counted_and_turns() -> None:
    t = per_task([run("a", 0, True, turns=3, tokens=250)])["a"]
    assert t["tokens"] == 250 and t["turns"] == 3


def test_unverified_runs_are_not_failures() -> None:
    runs = [run("a", 0, True), run("a", 1, None),       # one verified pass, one unverified
            run("d", 0, None, uc=1.0), run("d", 1, None, uc=0.0)]
    pt = per_task(runs)
    assert pt["a"]["pass@1"] == 1.0 and pt["a"]["k"] == 1 and pt["a"]["runs"] == 2
    assert pt["d"]["pass@1"] is None and pt["d"]["pass^k"] is None
    assert pt["d"]["user_correction"] == 0.5            # conversation metrics still count
    s = summarize(runs)
    assert s["pass@1"] == 1.0                          # d is left out, not counted as 0
    assert s["unverified_runs"] == 3 and s["verified_tasks"] == 1 and s["tasks"] == 2


def test_breakdown_by_category() -> None:
    runs = [run("a", 0, True), run("b", 0, False)]
    s = summarize(runs, category=lambda t: "easy" if t.task_id == "a" else "hard")
    assert s["by_category"]["easy"]["pass@1"] == 1.0
    assert s["by_category"]["hard"]["pass@1"] == 0.0


@pytest.mark.parametrize(("n", "c", "k", "expected"), [
    (10, 0, 1, 0.0), (10, 10, 5, 1.0), (10, 3, 1, 0.3),
    (5, 2, 2, 1 - math.comb(3, 2) / math.comb(5, 2)), (4, 1, 4, 1.0)])
def test_pass_at_k_estimator(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_rejects_bad_counts() -> None:
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 5)


def test_paired_bootstrap_constant_delta_has_a_tight_interval() -> None:
    a = {f"t{i}": {"m": float(i)} for i in range(20)}
    b = {f"t{i}": {"m": float(i) + 0.25} for i in range(20)}
    r = paired_bootstrap(a, b, metric="m", n_boot=500, seed=1)
    assert r["delta"] == pytest.approx(0.25)
    assert r["ci"] == pytest.approx([0.25, 0.25])       # pairing removes task variance
    assert r["p_delta_le_0"] == 0.0 and r["tasks"] == 20


def test_paired_bootstrap_noisy_delta_covers_truth_and_is_reproducible() -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    a = {f"t{i}": {"m": float(rng.normal())} for i in range(60)}
    b = {t: {"m": v["m"] + 0.5 + float(rng.normal(scale=0.3))} for t, v in a.items()}
    r1 = paired_bootstrap(a, b, metric="m", n_boot=1000, seed=3)
    r2 = paired_bootstrap(a, b, metric="m", n_boot=1000, seed=3)
    assert r1 == r2
    assert r1["ci"][0] < 0.5 < r1["ci"][1] and r1["ci"][0] > 0.3


def test_paired_bootstrap_skips_missing_values_and_no_overlap() -> None:
    a = {"x": {"m": 1.0}, "y": {"m": None}}
    b = {"x": {"m": 0.0}, "y": {"m": 1.0}, "z": {"m": 1.0}}
    r = paired_bootstrap(a, b, metric="m", n_boot=200)
    assert r["tasks"] == 1 and r["delta"] == -1.0
    assert paired_bootstrap({"x": {"m": 1.0}}, {"q": {"m": 1.0}}, metric="m")["delta"] is None


def test_compare_orders_metrics_and_signs() -> None:
    a = [run("a", 0, False), run("b", 0, False)]
    b = [run("a", 0, True), run("b", 0, True)]
    rows = {r["metric"]: r for r in compare(a, b, n_boot=200)}
    assert rows["pass@1"]["delta"] == 1.0 and rows["pass@1"]["ci"] == [1.0, 1.0]
    assert rows["turns"]["delta"] == 0.0


def test_mean_ci() -> None:
    assert mean_ci([None, None]) is None
    lo, hi = mean_ci([0.0, 1.0] * 20, n_boot=500)
    assert lo < 0.5 < hi
