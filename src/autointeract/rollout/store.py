"""Trajectory JSONL: append-only, one atomic record per line, resumable.

Each record is written with a single ``write`` on an ``O_APPEND`` descriptor and fsynced,
so concurrent appenders never interleave and a killed run leaves at most one partial last
line; opening the store cuts that partial line off, so a resumed run appends cleanly and
:meth:`TrajectoryStore.done_ids` lets it skip every episode already written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from autointeract.errors import DataError
from autointeract.types import Trajectory


class TrajectoryStore:
    """An append-only JSONL file of :class:`~autointeract.types.Trajectory` records.

    Args:
        path: the file (created with its folder on first append).
        repair: cut a partial last line (left by a killed writer) on open.
    """

    def __init__(self, path: str | Path, *, repair: bool = True):
        self.path = Path(path)
        if repair:
            self.repair()

    def repair(self) -> int:
        """Truncate a trailing partial record; returns the bytes removed."""
        if not self.path.exists():
            return 0
        with self.path.open("rb+") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            if size == 0:
                return 0
            pos = size
            while pos > 0:
                step = min(65536, pos)
                fh.seek(pos - step)
                chunk = fh.read(step)
                nl = chunk.rfind(b"\n")
                if nl >= 0:
                    keep = pos - step + nl + 1
                    break
                pos -= step
            else:
                keep = 0
            if keep < size:
                fh.truncate(keep)
            return size - keep

    def append(self, traj: Trajectory) -> None:
        """Write one record atomically (one ``write`` call, then fsync)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = (traj.model_dump_json() + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)

    def __iter__(self) -> Iterator[Trajectory]:
        if not self.path.exists():
            return
        with self.path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                if not line.endswith("\n"):
                    return  # a partial record being written right now
                try:
                    yield Trajectory.model_validate_json(line)
                except ValueError as exc:
                    raise DataError(f"line {lineno}: not a trajectory: {str(exc)[:120]}",
                                    file=str(self.path)) from None

    def load(self) -> list[Trajectory]:
        return list(self)

    def done_ids(self) -> set[str]:
        """Episode ids already written (read without validating whole records)."""
        out: set[str] = set()
        if not self.path.exists():
            return out
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                if line.endswith("\n") and line.strip():
                    try:
                        out.add(json.loads(line)["episode_id"])
                    except (ValueError, KeyError, TypeError):
                        continue
        return out
