"""The training rows: engine-neutral schemas every trainer adapter reads.

* :class:`SFTRow` — one conversation to imitate (``messages`` in OpenAI chat format).
* :class:`RLRow` — one RL prompt: the opening ``prompt`` messages, the ``verifier`` spec that
  scores a rollout, a reference to the simulated user that answers the policy
  (:class:`UserModelRef`), and the full task (``task_json``, a :class:`~autointeract.types.TaskSpec`
  serialised as JSON so the row survives any columnar format unchanged).

Both are pydantic models with ``to_record``/``from_record`` for JSONL and Arrow (nested values
that vary in shape between rows are JSON strings, so a parquet schema never has to unify them).
The verl and TRL adapters (:mod:`autointeract.rl`) convert these rows; nothing here imports an
engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from autointeract.errors import DataError
from autointeract.types import TaskSpec, UserProfile, VerifierSpec

ROW_SCHEMA_VERSION = 1

DEFAULT_SYSTEM_PROMPT = (
    "You are a coding assistant working with a user on a programming task. The user may not "
    "state every requirement up front: ask when something is unclear. To run Python, reply with "
    "a ```python block; to run a shell command, reply with a ```bash block. When you are done, "
    "write a line SUBMIT followed by a ```python block with the complete solution.")


class ChatMessage(BaseModel):
    """One chat message as trainers see it (tool calls flattened to OpenAI's shape)."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    name: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class UserModelRef(BaseModel):
    """Which simulated user answers the policy during RL, and how to rebuild it.

    Attributes:
        kind: a registry name of :data:`autointeract.rl.user_turn.USER_KINDS` (``prompted``,
            ``learned``, ``scripted``).
        name: a label (a fitted prompt's id, ``prompted-template``).
        path: where a fitted user model lives (``user_models/...``), for ``learned``.
        model: the litellm model string that phrases the user's turns, when it uses one.
        profile: the user profile the task was calibrated with.
        config: options of the user's own config (e.g. ``{"mode": "template"}``).
    """

    kind: str = "prompted"
    name: str = "prompted-template"
    path: str | None = None
    model: str | None = None
    profile: UserProfile | None = None
    config: dict[str, Any] = Field(default_factory=dict)


class SFTRow(BaseModel):
    """One supervised conversation (e.g. a rejection-sampled rollout scoring above 0.9)."""

    id: str
    messages: list[ChatMessage]
    task_id: str | None = None
    source: str = ""
    reward: float | None = None
    schema_version: int = ROW_SCHEMA_VERSION
    meta: dict[str, Any] = Field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        """A flat dict for JSONL/Arrow (``messages`` as dicts, ``meta`` as a JSON string)."""
        return {"id": self.id, "messages": [m.to_dict() for m in self.messages],
                "task_id": self.task_id, "source": self.source, "reward": self.reward,
                "schema_version": self.schema_version, "meta": json.dumps(self.meta)}

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> SFTRow:
        rec = dict(rec)
        if isinstance(rec.get("meta"), str):
            rec["meta"] = json.loads(rec["meta"] or "{}")
        return cls.model_validate(rec)


class RLRow(BaseModel):
    """One RL prompt with everything needed to roll it out and score it."""

    id: str
    prompt: list[ChatMessage]
    verifier: VerifierSpec
    user_model: UserModelRef = Field(default_factory=UserModelRef)
    task_json: str
    data_source: str = "autointeract"
    split: str = "train"
    max_user_turns: int = 4
    schema_version: int = ROW_SCHEMA_VERSION
    meta: dict[str, Any] = Field(default_factory=dict)

    def task(self) -> TaskSpec:
        """The full task (hidden goal and requirements included) the user simulator needs."""
        return TaskSpec.model_validate_json(self.task_json)

    @classmethod
    def from_task(cls, task: TaskSpec, *, user_model: UserModelRef | None = None,
                  system_prompt: str = DEFAULT_SYSTEM_PROMPT, split: str = "train",
                  data_source: str | None = None, max_user_turns: int = 4,
                  meta: dict[str, Any] | None = None) -> RLRow:
        """Build a row from a task: the prompt is the system prompt plus the opening message.

        Args:
            task: the calibrated task.
            user_model: the simulator that answers the policy (default: prompted, templates).
            system_prompt: the policy's system prompt.
            split: ``train`` or ``val``.
            data_source: verl's ``data_source`` (default ``autointeract/<family>``).
            max_user_turns: user replies before the episode ends.
            meta: anything else to carry (calibration stats, pass rates).
        """
        prompt = [ChatMessage(role="system", content=system_prompt),
                  ChatMessage(role="user", content=task.initial_message)]
        return cls(id=task.task_id, prompt=prompt, verifier=task.verifier,
                   user_model=user_model or UserModelRef(), task_json=task.model_dump_json(),
                   data_source=data_source or f"autointeract/{task.family}", split=split,
                   max_user_turns=max_user_turns, meta=meta or {})

    def to_record(self) -> dict[str, Any]:
        """A flat dict for JSONL/Arrow (spec, user model and meta as JSON strings)."""
        return {"id": self.id, "prompt": [m.to_dict() for m in self.prompt],
                "verifier": self.verifier.model_dump_json(),
                "user_model": self.user_model.model_dump_json(), "task_json": self.task_json,
                "data_source": self.data_source, "split": self.split,
                "max_user_turns": self.max_user_turns, "schema_version": self.schema_version,
                "meta": json.dumps(self.meta)}

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> RLRow:
        rec = dict(rec)
        for key in ("verifier", "user_model", "meta"):
            if isinstance(rec.get(key), str):
                rec[key] = json.loads(rec[key] or "{}")
        return cls.model_validate(rec)


def _read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    if not path.is_file():
        raise DataError("file not found", file=str(path))
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"line {n}: invalid JSON ({exc.msg})", file=str(path)) from None
            if not isinstance(rec, dict):
                raise DataError(f"line {n}: expected an object", file=str(path))
            yield n, rec


def read_rows(path: str | Path, kind: Literal["rl", "sft"]) -> list[Any]:
    """Read RL or SFT rows from a JSONL file; a bad row names the line and the field.

    Raises:
        DataError: missing file, bad JSON, or a row that does not fit the schema.
    """
    cls: type[RLRow] | type[SFTRow] = RLRow if kind == "rl" else SFTRow
    rows = []
    for n, rec in _read_jsonl(Path(path)):
        try:
            rows.append(cls.from_record(rec))
        except (ValidationError, json.JSONDecodeError) as exc:
            field = ""
            if isinstance(exc, ValidationError):
                field = ".".join(str(x) for x in exc.errors()[0]["loc"])
            raise DataError(f"line {n}: not a {kind} row ({str(exc).splitlines()[0]})",
                            file=str(path), field=field or None) from None
    return rows


def write_rows(path: str | Path, rows: Iterable[RLRow | SFTRow]) -> Path:
    """Write rows as JSONL atomically (a temp file renamed into place)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row.to_record(), ensure_ascii=False) + "\n")
    tmp.replace(p)
    return p


__all__ = ["DEFAULT_SYSTEM_PROMPT", "ChatMessage", "RLRow", "SFTRow", "UserModelRef",
           "read_rows", "write_rows"]
