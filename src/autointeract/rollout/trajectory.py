"""From a finished episode's state to the saved :class:`~autointeract.types.Trajectory`.

The reward is computed here, once per full trajectory (never per prefix), with
:func:`~autointeract.rollout.reward.trajectory_reward`; User Correction from the user's acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autointeract.rollout.reward import trajectory_reward, user_correction
from autointeract.types import Trajectory, VerifierResult

if TYPE_CHECKING:
    from autointeract.rollout.episode import EpisodeState
    from autointeract.rollout.protocols import UserSimulator


def episode_id(task_id: str, solver: str, user: str, seed: int) -> str:
    """A readable, unique id of one (task, solver, user, seed) episode."""
    return f"{task_id}|{solver}|{user}|s{seed}"


def build_trajectory(st: EpisodeState, *, agent_name: str, user: UserSimulator,
                     final: VerifierResult, repo: bool, episode: str | None = None,
                     meta: dict[str, Any] | None = None, wall_s: float = 0.0) -> Trajectory:
    """The scored trajectory of a finished episode.

    Args:
        st: the loop's final state.
        agent_name: the solver's name.
        user: the simulator (its ``name`` and optional ``profile`` are recorded).
        final: the verdict on the final solution (hidden tests).
        repo: a repository task (reward judged on the working copy, not a submission).
        episode: the id (default from task, solver, user and seed).
        meta: extra fields for ``Trajectory.meta``.
        wall_s: the episode's wall time.
    """
    solution = st.solution or st.candidate
    rb = trajectory_reward(final.score, n_tool_calls=st.tool_calls,
                           finish_reason=st.finish_reason, tools_used=st.tools_used,
                           solution=solution, require_solution=not repo)
    profile = getattr(user, "profile", None)
    return Trajectory(
        episode_id=episode or episode_id(st.task.task_id, agent_name, user.name, st.seed),
        task_id=st.task.task_id, solver=agent_name, user_model=user.name,
        profile_id=getattr(profile, "id", None) or None, seed=st.seed,
        messages=st.messages, finish_reason=st.finish_reason, n_tool_calls=st.tool_calls,
        tools_used=sorted(set(st.tools_used)), user_acts=st.user_acts, verifier=final,
        reward=rb.reward, user_correction=user_correction(st.user_acts),
        tokens={"prompt": st.prompt_tokens, "completion": st.completion_tokens,
                "total": st.tokens},
        wall_s=round(wall_s, 4),
        meta={"family": st.task.family, "turns": st.turns, "submitted": st.submitted,
              "solution": solution, "n_checks": st.n_checks, "error": st.error,
              "reward": {"grader": rb.grader, "effort": rb.effort, "gated": rb.gated,
                         "reason": rb.reason},
              "timings": {k: round(v, 4) for k, v in st.timings.items()}, **(meta or {})})
