"""Trajectory reward: verifier score with the reference paper's low-score effort floor.

r_g is the fraction of verifier criteria passed. For r_g < 0.5 the reward is
max(r_g, e) with e = min(0.30, 0.05·min(n_calls, 6)) + 0.05·[normal finish]
+ 0.05·[≥3 distinct tools]; for r_g ≥ 0.5 it is r_g. The floor is a lower bound (at most
0.40), never a bonus on top of grader reward. An anti-effort gate gives 0 to empty or stub
submissions, so that tool calls alone cannot farm the floor on a non-attempt.

User Correction (SWE-Together): #correction + 0.2·#nudge over the user's turns.
All functions here are pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

NORMAL_FINISHES = frozenset({"submitted", "user_stop", "user_satisfied"})
_STUB_LINES = re.compile(r"^\s*(pass|\.\.\.|#.*|return None|raise NotImplementedError.*)?\s*$")


@dataclass(frozen=True)
class RewardBreakdown:
    reward: float
    grader: float
    effort: float
    gated: bool
    reason: str = ""


def effort_floor(n_tool_calls: int, *, normal_finish: bool, distinct_tools: int) -> float:
    """e = min(0.30, 0.05·min(n, 6)) + 0.05·[normal finish] + 0.05·[≥3 distinct tools]."""
    e = min(0.30, 0.05 * min(max(n_tool_calls, 0), 6))
    e += 0.05 if normal_finish else 0.0
    e += 0.05 if distinct_tools >= 3 else 0.0
    return round(e, 10)


def is_stub(solution: str | None) -> bool:
    """True for a missing, empty or placeholder-only submission (pass, ..., comments)."""
    if solution is None:
        return True
    body = [ln for ln in solution.splitlines() if ln.strip()]
    if not body:
        return True
    meaningful = [ln for ln in body if not _STUB_LINES.match(ln)
                  and not re.match(r"^\s*(def|class)\s+\w+.*:\s*$", ln)
                  and not re.match(r"^\s*(import|from)\s", ln)]
    return not meaningful


def trajectory_reward(grader_score: float, *, n_tool_calls: int, finish_reason: str,
                      tools_used: Iterable[str], solution: str | None,
                      require_solution: bool = True) -> RewardBreakdown:
    """The shaped reward of one full trajectory (assigned once, never per prefix).

    Args:
        grader_score: r_g in [0, 1].
        n_tool_calls: tool calls the agent made.
        finish_reason: how the episode ended (normal: submitted, user_stop, user_satisfied).
        tools_used: names of the tools called (distinct ones are counted).
        solution: the final submission; a stub or empty one is gated to 0.
        require_solution: gate on the submission (False for repo tasks judged on state).
    """
    if not 0.0 <= grader_score <= 1.0:
        raise ValueError(f"grader score {grader_score} outside [0, 1]")
    if require_solution and is_stub(solution):
        return RewardBreakdown(0.0, grader_score, 0.0, True, "empty or stub submission")
    if grader_score >= 0.5:
        return RewardBreakdown(grader_score, grader_score, 0.0, False)
    e = effort_floor(n_tool_calls, normal_finish=finish_reason in NORMAL_FINISHES,
                     distinct_tools=len(set(tools_used)))
    return RewardBreakdown(max(grader_score, e), grader_score, e, False)


def user_correction(acts: Iterable[str]) -> float:
    """SWE-Together User Correction: #correction + 0.2·#nudge (failure reports, interruptions
    and re-stated requirements count as nudges)."""
    corr = nudge = 0
    for a in acts:
        if a == "correction":
            corr += 1
        elif a in ("failure_report", "interruption", "nudge"):
            nudge += 1
    return corr + 0.2 * nudge
