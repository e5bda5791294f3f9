"""The CLI end to end with the package's fake user model, including a kill -9 and a resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.profiles.commands import app, resolve_user_model
from autointeract.profiles.evolve import EvolveConfig
from autointeract.profiles.measure import ProbeSet
from autointeract.profiles.population import PopulationConfig, build_population
from autointeract.profiles.run import read_evaluations

from .conftest import SAMPLE_SESSIONS

ITERATIONS = 8
OVERRIDES = [f"evolve.iterations={ITERATIONS}", "evolve.batch_size=2", "evolve.n_seeds=4",
             "evolve.probes.n_probes=1"]


def _cli(out) -> list[str]:
    args = [sys.executable, "-m", "autointeract.cli", "profiles", "evolve", "-s",
            str(SAMPLE_SESSIONS), "--out", str(out), "--user-model", "fake", "--cache-dir", "",
            "--no-progress"]
    for o in OVERRIDES:
        args += ["-c", o]
    return args


def _iteration(out) -> int:
    try:
        return json.loads((out / "profiles_state.json").read_text())["iteration"]
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        return -1


def _elites(out) -> list[tuple]:
    rows = [json.loads(x) for x in (out / "profiles.jsonl").read_text().splitlines()]
    return [(r["uid"], r["cell"], r["realism"], tuple(r["descriptors"].values())) for r in rows]


@pytest.mark.slow
def test_evolve_resumes_after_kill_9(tmp_path) -> None:
    out = tmp_path / "pop"
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(_cli(out), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 240
    while _iteration(out) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = _iteration(out)
    assert 2 <= killed_at < ITERATIONS + 1

    done = subprocess.run(_cli(out), env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "resumed from checkpoint at iteration" in done.stdout
    assert _iteration(out) == ITERATIONS + 1
    uids = [json.loads(x)["uid"] for x in (out / "profiles_evaluations.jsonl").read_text().splitlines()]
    assert len(uids) == len(set(uids)) == 4 + 4 * ITERATIONS  # nothing simulated twice
    assert (out / "profiles_heatmap.png").is_file()

    # the killed-and-resumed run ends exactly where an uninterrupted run ends
    cfg = PopulationConfig(sessions=str(SAMPLE_SESSIONS), evolve=EvolveConfig(
        iterations=ITERATIONS, batch_size=2, n_seeds=4, probes=ProbeSet(n_probes=1)))
    ref = tmp_path / "ref"
    summary = build_population(cfg, client=LLMClient(LLMConfig(cache_dir=None)),
                               user_model=resolve_user_model("fake"), out_dir=ref, progress=False)
    assert _elites(out) == _elites(ref)
    assert summary["coverage"] > 0.03 and summary["qd_score"] > 1.0
    assert summary["real_users"]["inside_ranges"] == summary["real_users"]["n_real"]

    runner = CliRunner()
    shown = runner.invoke(app, ["show", str(out), "--json"])
    assert shown.exit_code == 0 and len(json.loads(shown.stdout)["history"]) == ITERATIONS + 1
    measured = runner.invoke(app, ["measure", str(out), "--n", "3", "--cache-dir", ""])
    assert measured.exit_code == 0, measured.stdout
    assert "3 agree" in measured.stdout


def test_resume_refuses_a_different_config(tmp_path) -> None:
    cfg = PopulationConfig(sessions=str(SAMPLE_SESSIONS), evolve=EvolveConfig(
        iterations=0, n_seeds=2, probes=ProbeSet(n_probes=1)))
    client = LLMClient(LLMConfig(cache_dir=None))
    build_population(cfg, client=client, user_model=resolve_user_model("fake"), out_dir=tmp_path,
                     progress=False)
    other = cfg.model_copy(update={"evolve": cfg.evolve.model_copy(update={"seed": 5})})
    from autointeract.errors import ConfigError

    with pytest.raises(ConfigError, match="different settings"):
        build_population(other, client=client, user_model=resolve_user_model("fake"),
                         out_dir=tmp_path, progress=False)
    more = cfg.model_copy(update={"evolve": cfg.evolve.model_copy(update={"iterations": 1})})
    s = build_population(more, client=client, user_model=resolve_user_model("fake"),
                         out_dir=tmp_path, progress=False)  # extending a run is allowed
    assert s["resumed_at_iteration"] == 1 and s["iterations"] == 2
    assert len(read_evaluations(tmp_path / "profiles_evaluations.jsonl")) == 2 + 8
