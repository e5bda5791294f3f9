"""The rollout engine: agents, the prompted user, the episode loop, trajectories, reward.

    from autointeract.rollout import (AgentConfig, PromptedUserConfig, EpisodeConfig,
                                      run_episodes, summarize)
    res = run_episodes(tasks, AgentConfig(model="local/smollm2-135m"), PromptedUserConfig(),
                       seeds=[0], concurrency=4, out_path="traj.jsonl", client=client)

Participants follow :mod:`~autointeract.rollout.protocols` (explicit state), so a learned
user simulator or another agent plugs in by implementing ``UserSimulator``/``Agent``.
"""

from __future__ import annotations

from autointeract.rollout.agent import LLMAgent
from autointeract.rollout.config import (
    AgentConfig,
    EpisodeConfig,
    PromptedUserConfig,
    RolloutConfig,
)
from autointeract.rollout.episode import EpisodeState, episode_id, run_episode
from autointeract.rollout.fakes import ScriptedAgent
from autointeract.rollout.mock_tasks import mock_tasks
from autointeract.rollout.prompted_user import PromptedUser, PromptedUserState, plan_reply
from autointeract.rollout.protocols import Agent, AgentStep, UserObservation, UserSimulator, UserTurn
from autointeract.rollout.reward import RewardBreakdown, trajectory_reward, user_correction
from autointeract.rollout.runner import (
    RolloutResult,
    arun_episodes,
    make_agent,
    make_user,
    run_episodes,
    summarize,
)
from autointeract.rollout.store import TrajectoryStore
from autointeract.rollout.tasks import TaskSourceConfig, load_rollout_tasks
from autointeract.rollout.verify import reference_verifier, sandbox_verifier

__all__ = [
    "Agent", "AgentConfig", "AgentStep", "EpisodeConfig", "EpisodeState", "LLMAgent",
    "PromptedUser", "PromptedUserConfig", "PromptedUserState", "RewardBreakdown",
    "RolloutConfig", "RolloutResult", "ScriptedAgent", "TaskSourceConfig", "TrajectoryStore",
    "UserObservation", "UserSimulator", "UserTurn", "arun_episodes", "episode_id",
    "load_rollout_tasks", "make_agent", "make_user", "mock_tasks", "plan_reply",
    "reference_verifier", "run_episode", "run_episodes", "sandbox_verifier", "summarize",
    "trajectory_reward", "user_correction",
]
