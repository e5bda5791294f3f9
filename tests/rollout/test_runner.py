"""Many episodes: JSONL writing, resume without duplicates, crash repair, concurrency."""

import json
import time

import pytest

from autointeract.errors import DataError
from autointeract.llm import ScriptedModel
from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig
from autointeract.rollout.fakes import ScriptedAgent
from autointeract.rollout.mock_tasks import SUM_EVEN_REF, mock_tasks
from autointeract.rollout.runner import run_episodes, summarize
from autointeract.rollout.store import TrajectoryStore
from autointeract.rollout.verify import reference_verifier

FAKE_SB = EpisodeConfig(sandbox={"kind": "fake"})


def _solver(task_code: dict[str, str], name: str):
    def act(messages):
        task_msg = messages[0].content
        code = next(c for k, c in task_code.items() if k in task_msg)
        return f"SUBMIT\n```python\n{code}```"
    return ScriptedAgent([act], name=name)


@pytest.fixture
def tasks():
    return mock_tasks()


def test_resume_skips_written_episodes(tmp_path, tasks):
    out = tmp_path / "t.jsonl"
    good = _solver({"sum_even": SUM_EVEN_REF, "dedupe": "x = 1\n", "words": "y = 2\n"}, "good")
    kw = dict(seeds=[0, 1], concurrency=4, out_path=out, episode_cfg=FAKE_SB,
              verifier=reference_verifier)
    first = run_episodes(tasks[:2], good, PromptedUserConfig(max_user_turns=2), **kw)
    assert len(first.trajectories) == 4 and not first.skipped and not first.failed
    again = run_episodes(tasks, good, PromptedUserConfig(max_user_turns=2), **kw)
    assert len(again.skipped) == 4 and len(again.trajectories) == 2
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    ids = [r["episode_id"] for r in rows]
    assert len(ids) == len(set(ids)) == 6
    summary = summarize(TrajectoryStore(out).load())["good"]
    assert summary["episodes"] == 6 and summary["pass_rate"] == pytest.approx(2 / 6, abs=1e-3)


def test_partial_last_line_is_cut_on_resume(tmp_path, tasks):
    out = tmp_path / "t.jsonl"
    agent = _solver({"": SUM_EVEN_REF}, "a")
    kw = dict(seeds=[0], out_path=out, episode_cfg=FAKE_SB, verifier=reference_verifier)
    run_episodes(tasks[:1], agent, PromptedUserConfig(), **kw)
    with out.open("a") as fh:  # a writer killed mid-record
        fh.write('{"episode_id": "mock-dedupe|a|prompted-template|s0", "task_')
    res = run_episodes(tasks[:2], agent, PromptedUserConfig(), **kw)
    assert len(res.trajectories) == 1 and res.skipped == ["mock-sum-even|a|prompted-template|s0"]
    loaded = TrajectoryStore(out).load()
    assert [t.task_id for t in loaded] == ["mock-sum-even", "mock-dedupe"]


def test_corrupt_complete_line_is_a_data_error(tmp_path):
    out = tmp_path / "t.jsonl"
    out.write_text('{"not": "a trajectory"}\n')
    with pytest.raises(DataError, match="line 1"):
        TrajectoryStore(out).load()


def test_episodes_run_concurrently(client, tasks):
    model = ScriptedModel([f"SUBMIT\n```python\n{SUM_EVEN_REF}```"], cycle=True, latency_s=0.2)
    agent = AgentConfig(model=model.model, tool_mode="text")
    client.complete(model.model, [{"role": "user", "content": "warm up litellm"}])
    t0 = time.perf_counter()
    res = run_episodes(tasks[:1], agent, PromptedUserConfig(), seeds=list(range(12)),
                       concurrency=12, client=client, episode_cfg=FAKE_SB,
                       verifier=reference_verifier)
    wall = time.perf_counter() - t0
    assert len(res.trajectories) == 12 and all(t.reward == 1.0 for t in res.trajectories)
    assert wall < 12 * 0.2 / 2, f"no concurrency: {wall:.2f}s for 12 x 0.2s"


def test_a_crashing_episode_is_reported_not_written(tmp_path, tasks):
    def boom(messages):
        raise RuntimeError("agent bug")
    out = tmp_path / "t.jsonl"
    res = run_episodes(tasks[:1], ScriptedAgent([boom], name="bad"), PromptedUserConfig(),
                       seeds=[0], out_path=out, episode_cfg=FAKE_SB)
    assert res.failed and "agent bug" in res.failed[0][1] and not out.exists()
