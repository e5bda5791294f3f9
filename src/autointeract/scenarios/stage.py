"""The ``scenarios`` pipeline stage: load task families and write ``tasks.jsonl``.

    - stage: scenarios
      params:
        sources:
          - {family: builtin}
          - {family: livecodebench, source: data/problems/lcb_sample.jsonl, options: {limit: 3}}
        check_references: true     # judge each reference solution; drop tasks whose fails
    # or: params: {sources_file: scenarios/demo.yaml}   (a YAML file holding ``sources:``)

Later stages read ``<run_dir>/tasks.jsonl`` (one ``TaskSpec`` per line) or
``ctx.outputs["scenarios"]["path"]``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.types import TaskSpec


class SourceEntry(StrictModel):
    """One family to load: ``load_tasks(family, source, **options)``."""

    family: str
    source: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class ScenariosStageConfig(StrictModel):
    """Params of the ``scenarios`` stage.

    Attributes:
        sources: the families to load, in order (task ids must be unique across them).
        sources_file: a YAML file with a ``sources:`` list (replaces ``sources``), e.g. the
            shipped ``scenarios/demo.yaml``.
        out: file name of the tasks, inside the run directory.
        check_references: judge reference solutions of stdin/functional tasks and drop the
            tasks whose reference fails (reported in the summary).
    """

    sources: list[SourceEntry] = Field(default_factory=lambda: [SourceEntry(family="builtin")])
    sources_file: str | None = None
    out: str = "tasks.jsonl"
    check_references: bool = False


def write_tasks(tasks: list[TaskSpec], path: str | Path) -> Path:
    """Write tasks as JSONL atomically (a temp file renamed into place)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp-{os.getpid()}")
    with tmp.open("w", encoding="utf-8") as fh:
        for t in tasks:
            fh.write(t.model_dump_json() + "\n")
    os.replace(tmp, p)
    return p


def read_tasks(path: str | Path) -> list[TaskSpec]:
    """Read a tasks JSONL written by :func:`write_tasks`."""
    with Path(path).open(encoding="utf-8") as fh:
        return [TaskSpec.model_validate(json.loads(line)) for line in fh if line.strip()]


def failing_references(tasks: list[TaskSpec]) -> dict[str, str]:
    """Task id -> verdicts, for judge tasks whose reference solution does not pass."""
    from rich.progress import track

    from autointeract.verifiers.judge import judge

    bad = {}
    checkable = [t for t in tasks if t.reference_solution and t.verifier.kind in ("stdin", "functional")]
    for t in track(checkable, description="checking reference solutions", transient=True):
        res = judge(t.verifier, t.reference_solution or "")
        if not res.passed:
            bad[t.task_id] = " ".join(c.verdict for c in res.criteria)
    return bad


def run(ctx: Any, params: dict[str, Any]) -> dict[str, Any]:
    """Load every source (seeded with the run's seed unless an entry sets its own)."""
    from autointeract.errors import ConfigError
    from autointeract.scenarios.base import load_tasks

    cfg = ctx.stage_params(ScenariosStageConfig, params)
    if cfg.sources_file:
        from autointeract.config import read_yaml, validate

        data = read_yaml(cfg.sources_file)
        cfg.sources = validate(ScenariosStageConfig, {"sources": data.get("sources", [])},
                               file=cfg.sources_file).sources
    tasks: list[TaskSpec] = []
    per_family: dict[str, int] = {}
    for entry in cfg.sources:
        opts = {"seed": ctx.seed, **entry.options}
        got = load_tasks(entry.family, entry.source, **opts)
        per_family[entry.family] = per_family.get(entry.family, 0) + len(got)
        tasks += got
    seen: set[str] = set()
    for t in tasks:
        if t.task_id in seen:
            raise ConfigError(f"duplicate task id '{t.task_id}' across sources",
                              file=ctx.config_file, field=f"stages.{ctx.stage_index}.params.sources")
        seen.add(t.task_id)
    dropped = failing_references(tasks) if cfg.check_references else {}
    tasks = [t for t in tasks if t.task_id not in dropped]
    path = write_tasks(tasks, Path(ctx.run_dir) / cfg.out)
    return {"path": str(path), "n_tasks": len(tasks), "per_family": per_family,
            "dropped": dropped}
