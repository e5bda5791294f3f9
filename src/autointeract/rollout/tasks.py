"""Where a rollout's tasks come from: a scenario family, a TaskSpec JSONL, or the mock domain.

    tasks, origin = load_rollout_tasks(TaskSourceConfig(family="builtin", limit=3))
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.errors import DataError
from autointeract.types import TaskSpec


class TaskSourceConfig(StrictModel):
    """Which tasks to roll out.

    ``family``: ``mock`` (the rollout package's three mock tasks), ``taskspec`` (a JSONL of
    ``TaskSpec`` records at ``source``), or any scenario family (``builtin``,
    ``livecodebench``, ``swetogether`` …) loaded through ``autointeract.scenarios``.
    """

    family: str = "builtin"
    source: str | None = None
    ids: list[str] = Field(default_factory=list)
    limit: int | None = Field(default=None, ge=1)
    options: dict[str, Any] = Field(default_factory=dict)
    fallback_to_mock: bool = True


def read_taskspecs(path: str) -> list[TaskSpec]:
    """TaskSpec records of a JSONL file.

    Raises:
        DataError: a missing file or a line that is not a TaskSpec (file and line named).
    """
    from pathlib import Path

    p = Path(path)
    if not p.is_file():
        raise DataError("file not found", file=path)
    out = []
    for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(TaskSpec.model_validate_json(line))
            except ValueError as exc:
                raise DataError(f"not a TaskSpec: {str(exc)[:160]}", file=path,
                                field=f"line {i}") from None
    return out


def load_rollout_tasks(cfg: TaskSourceConfig) -> tuple[list[TaskSpec], str]:
    """The selected tasks and a note on where they came from.

    A scenario family whose module is not installed in this checkout falls back to the mock
    tasks when ``fallback_to_mock`` is set (the note says so).
    """
    from autointeract.rollout.mock_tasks import mock_tasks

    origin = cfg.family
    if cfg.family == "mock":
        tasks = mock_tasks()
    elif cfg.family == "taskspec":
        if not cfg.source:
            raise DataError("family 'taskspec' needs source: a TaskSpec JSONL", field="source")
        tasks, origin = read_taskspecs(cfg.source), f"taskspec:{cfg.source}"
    else:
        try:
            from autointeract.scenarios.base import load_tasks

            tasks = load_tasks(cfg.family, cfg.source, **cfg.options)
        except ModuleNotFoundError as exc:
            if not cfg.fallback_to_mock or not (exc.name or "").startswith("autointeract"):
                raise
            tasks, origin = mock_tasks(), f"mock (scenario '{cfg.family}' not available)"
    if cfg.ids:
        wanted = set(cfg.ids)
        tasks = [t for t in tasks if t.task_id in wanted]
    return (tasks[: cfg.limit] if cfg.limit else tasks), origin
