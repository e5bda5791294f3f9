"""A run killed with SIGKILL at random moments and started again loses and duplicates nothing."""

import os
import random
import signal
import subprocess
import sys
import time

import pytest
import yaml

from autointeract.calibrate.loop import CANDIDATES, INTERACTIONS, run_calibration
from autointeract.calibrate.store import RecordStore
from autointeract.rollout.store import TrajectoryStore



def _launch(cfg_path, run_dir):
    code = ("import sys; from autointeract.cli import main; "
            f"main(['generate', {str(cfg_path)!r}, '--run-dir', {str(run_dir)!r}, '--no-progress'])")
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OMP_NUM_THREADS": "1"}
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def _size(path):
    return path.stat().st_size if path.exists() else 0


@pytest.mark.slow
def test_kill9_and_resume(tmp_path, quick):
    cfg = quick(weak={"latency_s": 0.02}, strong={"latency_s": 0.02},
                controller={"max_candidates": 10})
    ref = run_calibration(cfg, run_dir=tmp_path / "ref", client=None, seed=0)
    cfg_path = tmp_path / "gen.yaml"
    cfg_path.write_text(yaml.safe_dump({**cfg.model_dump(mode="json"), "name": "k", "seed": 0,
                                        "llm": {"cache_dir": None}}))
    run_dir = tmp_path / "killed"
    rng = random.Random(11)
    kills = 0
    for _ in range(4):
        before = _size(run_dir / INTERACTIONS)
        p = _launch(cfg_path, run_dir)
        deadline = time.time() + 120
        while p.poll() is None and _size(run_dir / INTERACTIONS) <= before and time.time() < deadline:
            time.sleep(0.05)  # wait until this run is writing episodes ...
        time.sleep(rng.uniform(0.0, 1.0))  # ... then kill it at a random moment
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            kills += 1
        p.wait()
    p = _launch(cfg_path, run_dir)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0, err.decode()[-2000:]
    assert kills >= 1

    def lines(path):
        return [ln for ln in path.read_text().splitlines() if ln.strip()]

    cands = lines(run_dir / CANDIDATES)
    ids = [r["candidate_id"] for r in RecordStore(run_dir / CANDIDATES)]
    assert len(cands) == len(ids) == len(set(ids)) == ref["candidates"]
    want = {r["candidate_id"]: r["outcome"]["status"] for r in RecordStore(tmp_path / "ref" / CANDIDATES)}
    got = {r["candidate_id"]: r["outcome"]["status"] for r in RecordStore(run_dir / CANDIDATES)}
    assert got == want
    eps = [t.episode_id for t in TrajectoryStore(run_dir / INTERACTIONS)]
    ref_eps = {t.episode_id for t in TrajectoryStore(tmp_path / "ref" / INTERACTIONS)}
    assert len(eps) == len(set(eps))  # nothing written twice
    assert ref_eps <= set(eps)  # nothing lost
    assert (run_dir / "dataset" / "tasks.jsonl").exists()
