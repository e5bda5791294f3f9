"""verl's ``custom_reward_function``: the verifier plus the effort floor (no verl import).

Point verl at it with ``reward.custom_reward_function.path=<this file>`` and
``reward.custom_reward_function.name=compute_score``. With the autointeract agent loop,
``extra_info`` holds the episode summary (the loop's ``extra_fields``, merged in by verl's
reward manager): the final submission and the tool-call counts the effort floor needs. For
single-turn rollouts (no summary) the submission is parsed from ``solution_str``.
"""

from __future__ import annotations

from typing import Any

EPISODE_KEY = "autointeract_episode"


def _solution_from_text(text: str) -> str | None:
    from autointeract.rollout.actions import extract_code, parse_text_action

    calls = parse_text_action(text)
    if calls and calls[0].name == "submit":
        return str(calls[0].arguments.get("solution", ""))
    return extract_code(text)


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: dict[str, Any] | None = None, **_: Any) -> dict[str, float]:
    """Score one verl rollout.

    Args:
        data_source: the row's ``data_source`` (``autointeract/<family>``).
        solution_str: the decoded response (the whole multi-turn response for agent loops).
        ground_truth: the task's :class:`~autointeract.types.VerifierSpec` as JSON.
        extra_info: the row's ``extra_info`` plus the agent loop's episode summary under
            ``autointeract_episode`` (``solution``, ``n_tool_calls``, ``tools_used``,
            ``finish_reason``).

    Returns:
        ``{"score": reward, "grader": ..., "effort": ..., "gated": ..., "passed": ...,
        "verified": ...}`` — verl logs every key; ``score`` is the reward.
    """
    from autointeract.rl.reward import score_episode
    from autointeract.types import VerifierSpec

    spec = VerifierSpec.model_validate_json(ground_truth)
    ep = dict((extra_info or {}).get(EPISODE_KEY) or {})
    if ep:
        solution = ep.get("solution")
        n_calls = int(ep.get("n_tool_calls", 0))
        tools = list(ep.get("tools_used", []))
        finish = str(ep.get("finish_reason", ""))
    else:
        solution = _solution_from_text(solution_str)
        n_calls, tools, finish = (1, ["submit"], "submitted") if solution else (0, [], "")
    scored = score_episode(spec, solution=solution, n_tool_calls=n_calls,
                           finish_reason=finish, tools_used=tools)
    return scored.to_dict()


__all__ = ["compute_score"]
