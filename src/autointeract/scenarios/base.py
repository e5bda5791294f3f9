"""The Scenario protocol, its registry, and row readers shared by the loaders.

A scenario turns source items (a problem file, a task folder, a hub dataset) into
:class:`~autointeract.types.TaskSpec`. Each one is a small class with a pydantic config next
to it, picked by a short registry name mapped to an import path, so loading ``builtin``
never imports ``swebench`` or ``datasets``:

    tasks = load_tasks("builtin")
    tasks = load_tasks("livecodebench", "data/problems/lcb_sample.jsonl", seed=3)
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar, Protocol

from autointeract.config import StrictModel, validate
from autointeract.errors import ConfigError, DataError
from autointeract.types import TaskSpec

# short name -> "module:Class"
SCENARIOS: dict[str, str] = {
    "builtin": "autointeract.scenarios.builtin:BuiltinScenario",
    "livecodebench": "autointeract.scenarios.lcb:LiveCodeBenchScenario",
    "lcbpro": "autointeract.scenarios.lcbpro:LCBProScenario",
    "swetogether": "autointeract.scenarios.swetogether:SWETogetherScenario",
    "swebench": "autointeract.scenarios.swebench_format:SWEBenchScenario",
}


class ScenarioConfig(StrictModel):
    """Options every scenario shares.

    Attributes:
        seed: Makes every derived text (opening message wording, requirement order) the
            same for the same seed.
        limit: Keep at most this many tasks (after ``ids``), in source order.
        ids: Keep only these task ids (empty: all).
    """

    seed: int = 0
    limit: int | None = None
    ids: list[str] = []


class Scenario(Protocol):
    """A task family. ``load`` is the whole contract.

    ``load(source)`` returns the TaskSpecs of ``source`` (a path, a hub dataset id, or None
    for the scenario's shipped default), in a deterministic order, filtered by the config's
    ``ids``/``limit``. It raises ``DataError`` naming the file, the row and the field for a
    malformed item, and never returns a task whose verifier spec is unusable.
    """

    name: ClassVar[str]
    config_cls: ClassVar[type[ScenarioConfig]]
    config: ScenarioConfig

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        ...


def get_scenario(family: str, **opts: Any) -> Scenario:
    """Make the scenario registered as ``family`` with config options ``opts``.

    Raises:
        ConfigError: unknown family or a bad option (names the field).
    """
    if family not in SCENARIOS:
        raise ConfigError(f"unknown scenario '{family}' (known: {', '.join(sorted(SCENARIOS))})",
                          field="family")
    mod, cls_name = SCENARIOS[family].split(":")
    cls = getattr(importlib.import_module(mod), cls_name)
    cfg = validate(cls.config_cls, opts, file=f"<scenario {family}>")
    return cls(cfg)  # type: ignore[no-any-return]


def load_tasks(family: str, source: str | Path | None = None, **opts: Any) -> list[TaskSpec]:
    """Load the tasks of one family.

    Args:
        family: a registry name: ``builtin``, ``livecodebench``, ``lcbpro``, ``swetogether``,
            ``swebench``.
        source: a local file/folder or a hub dataset id; None for the family's default.
        **opts: fields of the family's config (e.g. ``seed=3``, ``limit=5``).

    Returns:
        The TaskSpecs, in source order.

    Raises:
        ConfigError: unknown family or option.
        DataError: a malformed source item (file, row and field named).
    """
    return get_scenario(family, **opts).load(source)


def select(tasks: list[TaskSpec], cfg: ScenarioConfig) -> list[TaskSpec]:
    """Apply ``ids`` and ``limit`` (in source order)."""
    if cfg.ids:
        wanted = set(cfg.ids)
        tasks = [t for t in tasks if t.task_id in wanted]
    return tasks[: cfg.limit] if cfg.limit is not None else tasks


def iter_rows(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Rows of a JSONL (1-based line numbers), JSON list or parquet file (1-based rows).

    Raises:
        DataError: missing file, unknown extension or a line that is not JSON.
    """
    p = Path(path)
    if not p.is_file():
        raise DataError("file not found", file=str(p))
    suffix = p.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(p)
        except Exception as exc:  # noqa: BLE001 - pyarrow raises many types
            raise DataError(f"unreadable parquet: {exc}", file=str(p)) from None
        for i, row in enumerate(table.to_pylist(), start=1):
            yield i, row
        return
    if suffix == ".json":
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid JSON: {exc.msg} (line {exc.lineno})", file=str(p)) from None
        if not isinstance(data, list):
            raise DataError("a .json problem file must hold a list of rows", file=str(p))
        yield from enumerate(data, start=1)
        return
    if suffix not in (".jsonl", ".ndjson"):
        raise DataError(f"unsupported file type '{suffix}' (use .jsonl, .json or .parquet)",
                        file=str(p))
    with p.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield i, json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", file=str(p), field=f"row {i}") from None


def require(row: Any, names: tuple[str, ...], *, file: str, where: str) -> dict[str, Any]:
    """Check ``row`` is an object holding ``names`` (non-empty); return it.

    Raises:
        DataError: names ``file`` and ``<where>.<field>``.
    """
    if not isinstance(row, dict):
        raise DataError(f"expected an object, got {type(row).__name__}", file=file, field=where)
    for name in names:
        if row.get(name) in (None, ""):
            raise DataError("missing or empty field", file=file, field=f"{where}.{name}")
    return row
