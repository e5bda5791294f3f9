"""Episodes on real task sets and one short episode with an embedded model."""

import asyncio
import importlib.util

import pytest

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.rollout.agent import LLMAgent
from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig
from autointeract.rollout.episode import run_episode
from autointeract.rollout.fakes import ScriptedAgent
from autointeract.rollout.mock_tasks import mock_tasks
from autointeract.rollout.prompted_user import PromptedUser
from autointeract.rollout.runner import run_episodes
from autointeract.rollout.tasks import TaskSourceConfig, load_rollout_tasks


def test_builtin_tasks_pass_with_their_reference_and_fail_without():
    tasks, origin = load_rollout_tasks(TaskSourceConfig(family="builtin", limit=2))
    assert tasks and origin in ("builtin",) or origin.startswith("mock")
    ref = ScriptedAgent([lambda msgs: "SUBMIT\n```python\n" + next(
        t.reference_solution for t in tasks if t.initial_message in msgs[0].content) + "```"],
        name="reference")
    res = run_episodes(tasks, ref, PromptedUserConfig(), seeds=[0], concurrency=2,
                       episode_cfg=EpisodeConfig(sandbox={"kind": "fake"}))
    assert not res.failed
    assert [t.reward for t in res.trajectories] == [1.0] * len(tasks)
    wrong = ScriptedAgent(["SUBMIT\n```python\nprint(0)\n```"], name="wrong")
    res = run_episodes(tasks[:1], wrong, PromptedUserConfig(max_user_turns=2), seeds=[0],
                       episode_cfg=EpisodeConfig(sandbox={"kind": "fake"}))
    t = res.trajectories[0]
    assert t.verifier.score < 0.5 and t.finish_reason == "user_stop"
    assert "correction" in t.user_acts or "new_requirement" in t.user_acts \
        or "failure_report" in t.user_acts


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                    reason="llama-cpp-python is not installed (pip install 'autointeract[local]')")
def test_short_episode_with_the_embedded_weak_model(tmp_path):
    client = LLMClient(LLMConfig(cache_dir=str(tmp_path / "cache"), local_n_threads=2))
    agent = LLMAgent(AgentConfig(model="local/smollm2-135m", max_turns=1, max_tokens=32,
                                 temperature=0.0), client)
    assert agent.mode == "text"  # embedded models have no native tool calling
    t = asyncio.run(run_episode(mock_tasks()[0], agent, PromptedUser(), seed=0,
                                config=EpisodeConfig(max_wall_s=240)))
    assert t.finish_reason in {"submitted", "user_stop", "user_satisfied", "max_turns"}
    assert t.tokens["completion"] > 0 and 0.0 <= t.reward <= 1.0
    assert [m.role for m in t.messages][:2] == ["user", "assistant"]
    assert client.usage.summary()["rollout.agent"]["calls"] >= 1
