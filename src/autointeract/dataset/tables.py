"""The dataset tables of a calibration run, as plain rows. Pure (reads nothing, writes nothing).

* ``tasks`` — accepted tasks with their calibration evidence;
* ``interactions`` — every episode of every evaluated candidate;
* ``sft`` — :class:`~autointeract.dataset.rows.SFTRow` of episodes with reward above the
  threshold (rejection sampling);
* ``rl`` — :class:`~autointeract.dataset.rows.RLRow` of accepted tasks.

Nested values whose shape varies between rows are JSON strings, so every table has one
Arrow schema. A firewall (``check(text) -> match | None``) refuses matching tasks together
with their episodes, and matching SFT conversations.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from autointeract.dataset.rows import DEFAULT_SYSTEM_PROMPT, ChatMessage, RLRow, SFTRow, UserModelRef
from autointeract.types import Message, TaskSpec, Trajectory, UserProfile

SPLITS = ("tasks", "interactions", "sft", "rl")


@dataclass
class Tables:
    """The four tables, and what the firewall refused."""

    tasks: list[dict[str, Any]] = field(default_factory=list)
    interactions: list[dict[str, Any]] = field(default_factory=list)
    sft: list[dict[str, Any]] = field(default_factory=list)
    rl: list[dict[str, Any]] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=lambda: {"tasks": 0, "sft": 0})
    refused_matches: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {s: len(getattr(self, s)) for s in SPLITS}


def task_row(rec: dict[str, Any], task: TaskSpec) -> dict[str, Any]:
    """One ``tasks`` row: the task and its calibration evidence."""
    ev, prop = rec["evidence"], rec["proposal"]
    return {
        "task_id": task.task_id, "candidate_id": rec["candidate_id"],
        "seed_id": prop["seed_id"], "family": task.family, "level": prop["level"],
        "knobs": json.dumps(task.knobs), "profile_id": (rec.get("profile") or {}).get("id"),
        "profile_cell": prop.get("profile_cell"),
        "initial_message": task.initial_message, "hidden_goal": task.hidden_goal,
        "requirements": json.dumps([r.model_dump() for r in task.requirements]),
        "verifier": task.verifier.model_dump_json(), "task_json": task.model_dump_json(),
        "weak_passes": ev["weak"]["passes"], "weak_n": ev["weak"]["n"],
        "weak_rate": round(ev["weak"]["passes"] / max(1, ev["weak"]["n"]), 4),
        "strong_passes": ev["strong"]["passes"], "strong_n": ev["strong"]["n"],
        "strong_rate": round(ev["strong"]["passes"] / max(1, ev["strong"]["n"]), 4),
        "p_weak_in": ev["p_weak_in"], "p_strong_in": ev["p_strong_in"],
        "confidence": ev["confidence"], "weak_max": ev["band"]["weak_max"],
        "strong_min": ev["band"]["strong_min"], "episodes": ev["episodes"],
        "generator": rec["generation"]["source"],
    }


def interaction_row(t: Trajectory, *, accepted: bool) -> dict[str, Any]:
    """One ``interactions`` row: the whole episode (messages with tool calls as JSON)."""
    return {
        "episode_id": t.episode_id, "task_id": t.task_id,
        "candidate_id": t.meta.get("candidate_id"), "seed_id": t.meta.get("seed_id"),
        "role": t.meta.get("role"), "solver": t.solver, "user_model": t.user_model,
        "profile_id": t.profile_id, "profile_cell": t.meta.get("profile_cell"), "seed": t.seed,
        "messages": json.dumps([m.model_dump(mode="json") for m in t.messages]),
        "n_messages": len(t.messages), "n_tool_calls": t.n_tool_calls,
        "tools_used": list(t.tools_used), "user_acts": list(t.user_acts),
        "finish_reason": t.finish_reason, "passed": bool(t.verifier and t.verifier.passed),
        "grader_score": t.verifier.score if t.verifier else 0.0, "reward": t.reward,
        "user_correction": t.user_correction, "tokens": int(t.tokens.get("total", 0)),
        "wall_s": t.wall_s, "accepted_task": accepted,
    }


def chat_messages(task: TaskSpec, messages: Iterable[Message]) -> list[ChatMessage]:
    """An episode as the policy saw it: a system prompt, then turns in OpenAI's shape."""
    from autointeract.rollout.agent import task_brief

    out = [ChatMessage(role="system", content=f"{DEFAULT_SYSTEM_PROMPT}\n\n{task_brief(task)}")]
    for m in messages:
        calls = [{"id": c.id, "type": "function", "function": {
            "name": c.name, "arguments": json.dumps(c.arguments)}} for c in m.tool_calls]
        out.append(ChatMessage(role=m.role, content=m.content, tool_calls=calls or None,
                               tool_call_id=m.tool_call_id, name=m.name))
    return out


def _refuse(firewall: Any, item: Any, tables: Tables, kind: str) -> bool:
    if firewall is None:
        return False
    hit = firewall.check(item)
    if hit is None:
        return False
    tables.refused[kind] += 1
    tables.refused_matches.append(str(hit)[:200])
    return True


def build_tables(candidates: Iterable[dict[str, Any]], trajectories: Iterable[Trajectory], *,
                 sft_threshold: float = 0.9, sft_tasks: str = "all",
                 user_model: UserModelRef | None = None, firewall: Any = None,
                 max_user_turns: int = 4) -> Tables:
    """The tables of a run from its candidate records and trajectories.

    Args:
        candidates: records of ``candidates.jsonl``.
        trajectories: episodes of ``interactions.jsonl``.
        sft_threshold: keep SFT conversations with reward strictly above this.
        sft_tasks: ``all`` evaluated tasks or only ``accepted`` ones feed the SFT split.
        user_model: the simulator RL rows name (the profile is filled in per task).
        firewall: refuses matching tasks and conversations.
        max_user_turns: carried into RL rows.
    """
    tables = Tables()
    tasks: dict[str, TaskSpec] = {}
    accepted: set[str] = set()
    for rec in candidates:
        if rec.get("task") is None or rec.get("evidence") is None:
            continue
        task = TaskSpec.model_validate(rec["task"])
        if _refuse(firewall, task, tables, "tasks"):
            continue
        tasks[task.task_id] = task
        if rec["outcome"]["status"] != "accepted":
            continue
        accepted.add(task.task_id)
        tables.tasks.append(task_row(rec, task))
        ref = (user_model or UserModelRef()).model_copy(deep=True)
        if rec.get("profile"):
            ref.profile = UserProfile.model_validate(rec["profile"])
        row = RLRow.from_task(task, user_model=ref, max_user_turns=max_user_turns,
                              meta={"calibration": task.meta.get("calibration", {}),
                                    "candidate_id": rec["candidate_id"]})
        tables.rl.append(row.to_record())
    for t in trajectories:
        task = tasks.get(t.task_id)
        if task is None:
            continue  # a refused task, or an orphan of a killed generation
        tables.interactions.append(interaction_row(t, accepted=t.task_id in accepted))
        if t.reward <= sft_threshold or (sft_tasks == "accepted" and t.task_id not in accepted):
            continue
        msgs = chat_messages(task, t.messages)
        if _refuse(firewall, "\n".join(m.content for m in msgs), tables, "sft"):
            continue
        tables.sft.append(SFTRow(id=t.episode_id, messages=msgs, task_id=t.task_id,
                                 source=f"autointeract/{task.family}", reward=t.reward,
                                 meta={"solver": t.solver, "role": t.meta.get("role"),
                                       "seed": t.seed, "profile_id": t.profile_id}).to_record())
    return tables


__all__ = ["SPLITS", "Tables", "build_tables", "chat_messages", "interaction_row", "task_row"]
