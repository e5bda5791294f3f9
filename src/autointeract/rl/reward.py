"""The RL reward: the task's verifier, shaped by the reference paper's effort floor and the
anti-effort gate (:func:`autointeract.rollout.reward.trajectory_reward`).

Assigned once per full trajectory (the paper abandoned per-prefix rewards after the policy
optimised rewarded prefixes). Running the verifier is the only side effect; shaping is pure:

    scored = score_episode(row.verifier, solution=code, n_tool_calls=3,
                           finish_reason="user_satisfied", tools_used=["run_python", "submit"])
    scored.reward, scored.verifier.passed
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from autointeract.rollout.reward import RewardBreakdown, trajectory_reward
from autointeract.types import VerifierResult, VerifierSpec


@dataclass
class ScoredEpisode:
    """The reward of one trajectory and where it came from."""

    reward: float
    grader: float
    effort: float
    gated: bool
    reason: str = ""
    verifier: VerifierResult | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """verl's ``reward_extra_info`` shape: ``score`` first, then scalars only."""
        v = self.verifier
        return {"score": self.reward, "grader": self.grader, "effort": self.effort,
                "gated": float(self.gated), "passed": float(bool(v and v.passed)),
                "verified": float(bool(v and v.verified))}


def shape(result: VerifierResult | None, *, solution: str | None, n_tool_calls: int,
          finish_reason: str, tools_used: Iterable[str],
          require_solution: bool = True) -> ScoredEpisode:
    """Shape a verdict into the reward. Pure.

    A missing or unverifiable verdict counts as grader score 0 (the floor and the gate still
    apply), so an episode that could not be checked never earns grader reward.
    """
    grader = result.score if result is not None and result.verified else 0.0
    b: RewardBreakdown = trajectory_reward(grader, n_tool_calls=n_tool_calls,
                                           finish_reason=finish_reason, tools_used=tools_used,
                                           solution=solution, require_solution=require_solution)
    return ScoredEpisode(b.reward, b.grader, b.effort, b.gated, b.reason, result)


def run_verifier(spec: VerifierSpec, solution: str | None) -> VerifierResult | None:
    """Run the task's verifier on a solution (side effects: a sandboxed process per test).

    Returns None when there is nothing to check (no solution for a judge spec); a verifier
    that cannot run here yields ``verified=False`` instead of raising.
    """
    from autointeract.errors import AutointeractError
    from autointeract.verifiers import verify

    if solution is None and spec.kind in ("stdin", "functional"):
        return None
    try:
        return verify(spec, solution=solution)
    except AutointeractError as exc:
        return VerifierResult(criteria=[], verified=False, error=str(exc))


def score_episode(spec: VerifierSpec, *, solution: str | None, n_tool_calls: int,
                  finish_reason: str, tools_used: Iterable[str],
                  check: VerifierResult | None = None) -> ScoredEpisode:
    """Verify (unless ``check`` already holds the verdict on ``solution``) and shape.

    Args:
        spec: the task's verifier spec.
        solution: the final submission (None when the policy never submitted).
        n_tool_calls: tool calls the policy made (code runs and submissions).
        finish_reason: ``user_satisfied``, ``user_stop``, ``submitted``, ``max_turns``, ...
        tools_used: names of the tools called.
        check: a verdict already computed on exactly this solution (skips re-running).
    """
    result = check if check is not None else run_verifier(spec, solution)
    return shape(result, solution=solution, n_tool_calls=n_tool_calls,
                 finish_reason=finish_reason, tools_used=list(tools_used),
                 require_solution=spec.kind in ("stdin", "functional"))


__all__ = ["ScoredEpisode", "run_verifier", "score_episode", "shape"]
