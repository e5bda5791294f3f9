"""Append-only JSONL records keyed by id: one atomic write per record, resumable.

A record is written with one ``write`` on an ``O_APPEND`` descriptor and fsynced, so a
killed run leaves at most one partial last line, which opening the store cuts off. A run that
resumes reads the ids already written and skips them, so nothing is lost or written twice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from autointeract.errors import DataError
from autointeract.rollout.store import TrajectoryStore


class RecordStore:
    """JSONL records, each a JSON object holding ``key`` (default ``id``).

    Args:
        path: the file (created with its folder on first append).
        key: the field that identifies a record.
    """

    def __init__(self, path: str | Path, *, key: str = "id"):
        self.path, self.key = Path(path), key
        TrajectoryStore(self.path, repair=True)  # same partial-line repair

    def append(self, record: dict[str, Any]) -> None:
        """Write one record atomically (one ``write`` call, then fsync)."""
        if self.key not in record:
            raise ValueError(f"record has no '{self.key}'")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip() or not line.endswith("\n"):
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"line {n}: invalid JSON ({exc.msg})",
                                    file=str(self.path)) from None

    def load(self) -> dict[str, dict[str, Any]]:
        """Records by id (the first record of an id wins)."""
        out: dict[str, dict[str, Any]] = {}
        for rec in self:
            out.setdefault(str(rec[self.key]), rec)
        return out


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write a file through a temp file renamed into place."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(p)
    return p


__all__ = ["RecordStore", "atomic_write_text"]
