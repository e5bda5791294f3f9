"""Executors: local asyncio and Ray (on a local one-CPU instance) give the same episodes."""

import asyncio

import pytest

from autointeract.calibrate.config import SolverConfig, UserConfig
from autointeract.calibrate.evaluator import job_id
from autointeract.calibrate.executor import EpisodeJob, LocalExecutor, Participants
from autointeract.calibrate.fakes import SkillAgent, pass_probability, task_hardness
from autointeract.calibrate.knobs import ladder_knobs
from autointeract.rollout.mock_tasks import mock_tasks


def _parts():
    return Participants(solvers={"weak": SolverConfig(kind="skill", skill=0.2),
                                 "strong": SolverConfig(kind="skill", skill=0.9)},
                        user=UserConfig(), verify="reference")


def _jobs(n=3):
    task = mock_tasks()[0]
    task.knobs = ladder_knobs(3).model_dump()
    return [EpisodeJob(job_id(task.task_id, r, s), task, r, s) for r in ("weak", "strong")
            for s in range(n)]


def test_skill_agent_pass_rate_follows_its_probability():
    task = mock_tasks()[0]
    task.knobs = ladder_knobs(2).model_dump()
    agent = SkillAgent(skill=0.5)
    p = pass_probability(0.5, task_hardness(task))
    hits = sum(agent.init_state(task, seed=s).passes for s in range(400))
    assert abs(hits / 400 - p) < 0.08


def test_local_executor_runs_jobs_in_order():
    jobs = _jobs()
    res = asyncio.run(LocalExecutor(_parts(), client=None, concurrency=3).run(jobs))
    assert [t.episode_id for t in res] == [j.episode_id for j in jobs]
    assert all(t.meta["role"] == j.role for t, j in zip(res, jobs, strict=True))


def test_broken_episode_is_returned_as_an_exception():
    parts = _parts()
    parts.solvers["weak"] = SolverConfig(kind="llm", model="weak")  # no client: cannot build
    res = asyncio.run(LocalExecutor(parts, client=None).run(_jobs(1)))
    assert isinstance(res[0], BaseException) and not isinstance(res[1], BaseException)


@pytest.mark.slow
def test_ray_executor_matches_local():
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install autointeract[ray])")
    from autointeract.calibrate.executor import RayExecutor

    jobs = _jobs(2)
    local = asyncio.run(LocalExecutor(_parts(), client=None).run(jobs))
    try:
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
        remote = asyncio.run(RayExecutor(_parts(), concurrency=2).run(jobs))
    finally:
        ray.shutdown()
    assert [t.episode_id for t in remote] == [t.episode_id for t in local]
    assert [t.reward for t in remote] == [t.reward for t in local]


def test_submit_on_code_turns_a_whole_solution_into_a_submission():
    from autointeract.calibrate.solvers import SubmitOnCode, is_whole_solution
    from autointeract.rollout.fakes import ScriptedAgent

    task = mock_tasks()[0]
    code = "```python\ndef sum_even(nums):\n    return sum(x for x in nums if x % 2 == 0)\n```"
    agent = SubmitOnCode(ScriptedAgent(["```python\nprint(1)\n```", code]))
    st = agent.init_state(task, seed=0)
    step, st = asyncio.run(agent.step([], st))
    assert not step.submitted and step.message.tool_calls[0].name == "run_python"
    step, st = asyncio.run(agent.step([], st))
    assert step.submitted and step.solution.startswith("def sum_even")
    assert step.message.meta["inferred_submit"]
    assert is_whole_solution(mock_tasks()[2], "import sys\nprint(len(sys.stdin.read().split()))")
    assert not is_whole_solution(mock_tasks()[2], "print(3)")
