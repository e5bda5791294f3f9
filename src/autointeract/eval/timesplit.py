"""The time-segmented split: items dated before a cut-off may seed training; items on or
after it are for evaluation only (LiveCodeBench-style contamination control).

    before, after = split_by_date(load_tasks("livecodebench", path), "2025-01-01")
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from autointeract.errors import DataError
from autointeract.types import TaskSpec


def as_date(value: Any) -> date | None:
    """A date from an ISO string (``2025-01-04``, ``2025-01-04T00:00:00Z``), a date or None.

    Raises:
        DataError: a value that is not an ISO date.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).date()
    except ValueError:
        raise DataError(f"not an ISO date: {value!r:.40}", field="contest_date") from None


def split_by_date(tasks: Iterable[TaskSpec], cutoff: str) -> tuple[list[TaskSpec], list[TaskSpec]]:
    """Time-segmented split: (before the cut-off: seeds/training, on or after: evaluation).

    Tasks without a ``contest_date`` go to neither side and are dropped: an undated item
    cannot be proven to precede the cut-off.
    """
    cut = as_date(cutoff)
    before, after = [], []
    for t in tasks:
        d = as_date(t.meta.get("contest_date"))
        if d is None:
            continue
        (before if d < cut else after).append(t)  # type: ignore[operator]
    return before, after
