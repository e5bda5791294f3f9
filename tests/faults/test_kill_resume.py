"""kill -9 at random moments of long stages, then resume: nothing lost, nothing duplicated,
and the final outputs equal (timings aside) those of an uninterrupted run with the same seeds.

Calibrate (``tests/calibrate/test_resume_kill.py``) and profiles
(``tests/profiles/test_commands.py``) have their own kill tests; this file covers the rollout
runner, the eval runner and the users fit, each through its CLI in a child process
(``child.py``) with scripted models that answer after a short latency.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from .helpers import REPO, child_env, read_jsonl, toy_sessions

CHILD = Path(__file__).with_name("child.py")
# timings, and the sandbox's throwaway uid (drawn per run) differ between any two runs
VOLATILE = {"wall_s", "timings", "latency_s", "time_s", "timestamp", "created_at", "elapsed_s",
            "isolation"}


def launch(args: list[str], *, latency: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(CHILD), str(latency), *args], cwd=REPO,
                            env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def finish(args: list[str], *, latency: float = 0.0) -> None:
    p = launch(args, latency=latency)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0, err.decode()[-3000:]


def kill_at_random(args: list[str], progress: Callable[[], int], *, latency: float,
                   rounds: int = 2, seed: int = 0) -> int:
    """Start the run ``rounds`` times; each time wait for new output, then SIGKILL it at a
    random moment. Returns how many runs were killed (not finished first)."""
    rng, kills = random.Random(seed), 0
    for _ in range(rounds):
        before = progress()
        p = launch(args, latency=latency)
        deadline = time.time() + 120
        while p.poll() is None and progress() <= before and time.time() < deadline:
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 4 * latency))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            kills += 1
        p.wait()
    return kills


def lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


def scrub(x: Any) -> Any:
    """``x`` without timing fields (they differ between any two runs)."""
    if isinstance(x, dict):
        return {k: scrub(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [scrub(v) for v in x]
    return x


def by_id(path: Path, key: str = "episode_id") -> dict[str, Any]:
    rows = read_jsonl(path)
    ids = [r[key] for r in rows]
    assert len(ids) == len(set(ids)), "a record was written twice"
    return {r[key]: scrub(r) for r in rows}


def write_yaml(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data))
    return path


# -- rollout: run_episodes through `autointeract rollout` ---------------------------------

@pytest.mark.slow
def test_rollout_killed_and_resumed(tmp_path: Path) -> None:
    cfg = write_yaml(tmp_path / "rollout.yaml", {
        "seeds": list(range(6)), "tasks": {"family": "mock", "limit": 3}, "concurrency": 3,
        "llm": {"cache_dir": None}, "agents": [{"model": "scripted/solver", "tool_mode": "text",
                                               "max_turns": 2}],
        "episode": {"sandbox": {"kind": "fake"}}})

    def args(out: Path) -> list[str]:
        return ["rollout", str(cfg), "--out", str(out), "--no-progress"]

    ref, out = tmp_path / "ref" / "traj.jsonl", tmp_path / "killed" / "traj.jsonl"
    finish(args(ref))
    kills = kill_at_random(args(out), lambda: lines(out), latency=0.1)
    finish(args(out), latency=0.1)
    assert kills >= 1
    want, got = by_id(ref), by_id(out)
    assert len(want) == 18 and got == want


# -- eval: run_eval through `autointeract eval` -------------------------------------------

@pytest.mark.slow
def test_eval_killed_and_resumed(tmp_path: Path) -> None:
    def cfg(name: str) -> Path:
        return write_yaml(tmp_path / f"{name}.yaml", {
            "name": name, "out_dir": str(tmp_path / "{name}"), "k": 3, "concurrency": 3,
            "llm": {"cache_dir": None}, "benchmarks": [{"family": "builtin", "limit": 4}],
            "agent": {"model": "scripted/solver", "tool_mode": "text", "max_turns": 2},
            "user": {"prompted": {"max_user_turns": 2}}, "n_boot": 200})

    finish(["eval", "run", str(cfg("ref")), "--no-progress"])
    traj = tmp_path / "killed" / "trajectories.jsonl"
    args = ["eval", "run", str(cfg("killed")), "--no-progress"]
    kills = kill_at_random(args, lambda: lines(traj), latency=0.15, seed=1)
    finish(args, latency=0.15)
    assert kills >= 1
    want, got = by_id(tmp_path / "ref" / "trajectories.jsonl"), by_id(traj)
    assert len(want) == 12 and got == want
    rep = {k: scrub(json.loads((tmp_path / k / "report.json").read_text()))
           for k in ("ref", "killed")}
    rep["ref"]["meta"].pop("name"), rep["killed"]["meta"].pop("name")
    assert rep["killed"] == rep["ref"]


# -- users fit: GEPA with its state folder -------------------------------------------------

@pytest.mark.slow
def test_users_fit_killed_and_resumed(tmp_path: Path) -> None:
    src = toy_sessions(tmp_path / "sessions.jsonl")

    def args(where: str) -> list[str]:
        return ["users", "fit", "-s", str(src), "-n", "toy", "-m", "scripted/sim",
                "--reflection-model", "scripted/refl", "--budget", "40", "--max-examples", "12",
                "--out", str(tmp_path / where / "um"), "--run-dir", str(tmp_path / where / "gepa"),
                "--cache-dir", ""]

    def state() -> int:
        return sum(p.stat().st_size for p in (tmp_path / "killed" / "gepa").rglob("*")
                   if p.is_file())

    finish(args("ref"))
    kills = kill_at_random(args("killed"), state, latency=0.05, seed=2)
    finish(args("killed"), latency=0.05)
    assert kills >= 1
    ref, got = tmp_path / "ref" / "um" / "toy", tmp_path / "killed" / "um" / "toy"
    assert (got / "behavior_prompt.md").read_text() == (ref / "behavior_prompt.md").read_text()
    want, have = (scrub(json.loads((d / "scores.json").read_text())) for d in (ref, got))
    # reflection_calls counts the calls of the last process only (a resumed run made fewer);
    # everything the fit produced -- candidates, scores, lineage, best prompt -- is the same
    assert have.pop("reflection_calls") <= want.pop("reflection_calls")
    assert have == want
