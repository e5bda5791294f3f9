"""Paired comparison of two evaluation folders: deltas, intervals, behavior, the plot."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from autointeract.errors import DataError
from autointeract.eval.compare import compare_dirs, compare_runs, pair_runs, plot_compare
from autointeract.eval.config import EvalConfig
from autointeract.eval.runner import run_eval
from autointeract.rollout.fakes import ScriptedAgent

QUIET = {"progress": False, "log": lambda _: None}


def evaluate(out: Path, agent: ScriptedAgent, *, limit: int = 3, k: int = 2) -> Path:
    cfg = EvalConfig.model_validate({"benchmarks": [{"family": "builtin", "limit": limit}],
                                     "k": k, "agent": {"max_turns": 2}, "n_boot": 200,
                                     "user": {"prompted": {"max_user_turns": 2}}})
    run_eval(cfg, client=None, out_dir=out, agent=agent, **QUIET)
    return out


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, references: dict[str, str]
             ) -> tuple[Path, Path]:
    from autointeract.rollout.fakes import ScriptedAgent as SA

    root = tmp_path_factory.mktemp("cmp")

    def act(solve: Callable[[str], bool]) -> Callable:
        def f(messages):  # noqa: ANN001, ANN202
            o = messages[0].content
            code = references[o] if solve(o) else "def solve(*a):\n    return 42\n"
            return f"SUBMIT\n```python\n{code}\n```"
        return f
    bad = evaluate(root / "bad", SA([act(lambda _: False)], name="bad"))
    good = evaluate(root / "good", SA([act(lambda _: True)], name="good"))
    return bad, good


def test_deltas_with_intervals(two_runs: tuple[Path, Path]) -> None:
    bad, good = two_runs
    cmp = compare_dirs(bad, good, n_boot=300)
    rows = {r["metric"]: r for r in cmp["metrics"]}
    assert cmp["pairing"] == {"paired_runs": 6, "only_a": 0, "only_b": 0}
    assert rows["pass@1"]["a"] == 0.0 and rows["pass@1"]["b"] == 1.0
    assert rows["pass@1"]["delta"] == 1.0 and rows["pass@1"]["ci"] == [1.0, 1.0]
    assert rows["pass^k"]["delta"] == 1.0 and rows["pass@1"]["tasks"] == 3
    assert rows["turns"]["delta"] <= 0              # solving ends the conversation sooner
    beh = cmp["behavior"]
    assert beh["a"]["runs"] == beh["b"]["runs"] == 6
    assert {r["metric"] for r in beh["deltas"]} >= {"retrieval_calls", "formal_test"}
    assert cmp["labels"]["b"].startswith("good")
    # b − a is antisymmetric
    back = {r["metric"]: r for r in compare_dirs(good, bad, n_boot=300)["metrics"]}
    assert back["pass@1"]["delta"] == -1.0


def test_plot_is_a_png(two_runs: tuple[Path, Path], tmp_path: Path) -> None:
    cmp = compare_dirs(*two_runs, n_boot=200)
    png = plot_compare(cmp, tmp_path / "c.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000


def test_unpaired_runs_are_left_out(two_runs: tuple[Path, Path], tmp_path: Path,
                                    good_agent: ScriptedAgent) -> None:
    from autointeract.eval.runner import load_trajectories

    a = load_trajectories(two_runs[0])
    b = [t for t in load_trajectories(two_runs[1]) if t.seed == 0]
    pa, pb, info = pair_runs(a, b)
    assert info == {"paired_runs": 3, "only_a": 3, "only_b": 0} and len(pa) == len(pb) == 3
    assert compare_runs(a, b, n_boot=200)["pairing"]["only_a"] == 3
    other = evaluate(tmp_path / "other", good_agent, limit=1, k=1)
    far = tmp_path / "far"
    far.mkdir()
    (far / "trajectories.jsonl").write_text("")
    with pytest.raises(DataError, match="no \\(task, seed\\) pair"):
        compare_dirs(other, far)
    with pytest.raises(DataError, match="not an evaluation folder"):
        compare_dirs(other, tmp_path / "missing")
