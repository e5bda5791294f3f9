"""The loop end to end on simulated solvers: outputs, resume, evaluator, recheck, stage."""

import json

from autointeract.calibrate.evaluator import Evaluator
from autointeract.calibrate.executor import LocalExecutor, Participants
from autointeract.calibrate.knobs import ladder_knobs
from autointeract.calibrate.loop import CANDIDATES, INTERACTIONS, run_calibration
from autointeract.calibrate.recheck import recheck_run
from autointeract.calibrate.store import RecordStore
from autointeract.rollout.store import TrajectoryStore
from autointeract.scenarios import load_tasks


def test_loop_accepts_tasks_with_evidence(tmp_path, quick):
    cfg = quick(controller={"max_candidates": 12})
    s = run_calibration(cfg, run_dir=tmp_path, client=None, seed=0)
    assert s["accepted"] >= 2 and s["candidates"] <= 12
    recs = list(RecordStore(tmp_path / CANDIDATES, key="candidate_id"))
    assert len(recs) == s["candidates"] == len({r["candidate_id"] for r in recs})
    acc = [r for r in recs if r["outcome"]["status"] == "accepted"]
    for r in acc:
        ev = r["evidence"]
        assert ev["p_weak_in"] >= 0.8 and ev["p_strong_in"] >= 0.8
        assert r["task"]["meta"]["calibration"]["status"] == "accepted"
    trajs = TrajectoryStore(tmp_path / INTERACTIONS).load()
    assert len(trajs) == s["episodes"] == len({t.episode_id for t in trajs})
    assert {t.meta["role"] for t in trajs} == {"weak", "strong"}
    assert json.loads((tmp_path / "calibrate_summary.json").read_text())["accepted"] == s["accepted"]


def test_rerun_is_a_noop_and_reproducible(tmp_path, quick):
    cfg = quick(controller={"max_candidates": 5})
    a = run_calibration(cfg, run_dir=tmp_path / "a", client=None, seed=4)
    again = run_calibration(cfg, run_dir=tmp_path / "a", client=None, seed=4)
    run_calibration(cfg, run_dir=tmp_path / "b", client=None, seed=4)
    assert again["candidates"] == a["candidates"] and again["episodes"] == a["episodes"]
    def outcomes(d):
        return sorted((r["candidate_id"], r["outcome"]["status"], r["outcome"]["task_id"],
                       r["outcome"]["episodes"]) for r in RecordStore(d / CANDIDATES))

    assert outcomes(tmp_path / "a") == outcomes(tmp_path / "b")


def test_sequential_rule_stops_early_on_easy_tasks(tmp_path, quick):
    cfg = quick(weak={"skill": 0.95}, strong={"skill": 0.95})
    parts = Participants(solvers={"weak": cfg.weak, "strong": cfg.strong}, user=cfg.user,
                         verify="reference")
    ev = Evaluator(cfg.band, LocalExecutor(parts, client=None, concurrency=4))
    task = load_tasks("builtin", ids=["count-vowels"])[0]
    task.knobs = ladder_knobs(0).model_dump()
    import asyncio

    evidence, trajs = asyncio.run(ev.evaluate(task, None, seed=1))
    assert evidence.status == "too_easy"
    assert evidence.episodes < 2 * cfg.band.max_n  # not a fixed N
    assert evidence.weak.n >= cfg.band.min_n


def test_recheck_reports_share_still_in_band(tmp_path, quick):
    from autointeract.calibrate.config import GenerateConfig

    cfg = quick()
    run_calibration(cfg, run_dir=tmp_path, client=None, seed=0)
    full = GenerateConfig.model_validate({**cfg.model_dump(), "name": "t"})
    rep = recheck_run(tmp_path, cfg=full, offset=500)
    assert rep["tasks"] >= 1 and 0.0 <= rep["still_in_band"] <= 1.0
    assert (tmp_path / "recheck.jsonl").exists()
    again = recheck_run(tmp_path, cfg=full, offset=500)  # resumes: nothing rerun
    assert again["rows"] == rep["rows"]


def test_firewalled_benchmark_never_becomes_a_task(tmp_path, quick):
    from autointeract.calibrate.run import generate_tasks

    fw = {"benchmarks": [{"name": "heldout-bench", "family": "builtin",
                          "options": {"ids": ["count-vowels"]}}]}
    cfg = quick(firewall=fw, controller={"max_candidates": 4})
    s = generate_tasks(cfg, run_dir=tmp_path, client=None, models={}, seed=0, log=lambda m: None)
    seeds = {r["proposal"]["seed_id"] for r in RecordStore(tmp_path / CANDIDATES)}
    assert "count-vowels" not in seeds and seeds
    card = (tmp_path / "dataset" / "README.md").read_text()
    assert "heldout-bench" in card and "Refused: 1 seed problems" in card
    prov = json.loads((tmp_path / "dataset" / "provenance.json").read_text())
    assert prov["firewall"]["refused_seeds"] == ["count-vowels"]
    assert s["dataset"]["counts"]["interactions"] == s["episodes"]
