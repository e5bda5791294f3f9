"""Rows from the Hugging Face hub, or from local files, with one clear error when neither works.

``source`` is a local file (``.jsonl``/``.json``/``.parquet``), a local folder of such files,
or a hub dataset id (``livecodebench/code_generation_lite``). Hub loading goes through
``datasets.load_dataset`` (imported only then); with ``HF_HUB_OFFLINE=1`` or no network it
uses the local hub cache, and when the dataset is not there either it raises ``DataError``
saying how to point ``source`` at a local copy instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from autointeract.errors import DataError
from autointeract.scenarios.base import iter_rows

ROW_SUFFIXES = (".jsonl", ".ndjson", ".json", ".parquet")


def is_local(source: str | Path) -> bool:
    """True when ``source`` names an existing path or looks like a file name."""
    p = Path(source)
    return p.exists() or p.suffix.lower() in ROW_SUFFIXES or str(source).startswith((".", "/"))


def local_rows(source: str | Path) -> Iterator[tuple[str, int, Any]]:
    """``(file, row number, row)`` of a file or of every row file in a folder (sorted).

    Raises:
        DataError: the path does not exist or a folder holds no row files.
    """
    p = Path(source)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.suffix.lower() in ROW_SUFFIXES)
        if not files:
            raise DataError(f"no {'/'.join(ROW_SUFFIXES)} files in the folder", file=str(p))
    elif p.is_file():
        files = [p]
    else:
        raise DataError("file not found", file=str(p))
    for f in files:
        for i, row in iter_rows(f):
            yield str(f), i, row


def hub_rows(dataset: str, *, split: str = "test", name: str | None = None,
             revision: str | None = None, data_files: str | list[str] | None = None,
             **kwargs: Any) -> Iterator[tuple[str, int, Any]]:
    """``(dataset:split, row number, row)`` of a hub dataset, via ``datasets.load_dataset``.

    Args:
        dataset: hub id, e.g. ``livecodebench/code_generation_lite``.
        split: the split to read.
        name: the dataset config (e.g. a release tag), if any.
        revision: a git revision of the dataset repo.
        data_files: restrict to these files of the repo (e.g. ``test6.jsonl``).
        **kwargs: passed to ``load_dataset``.

    Raises:
        DataError: the dataset cannot be loaded (offline and not cached, unknown id, ...).
    """
    try:
        import datasets
    except ImportError:  # pragma: no cover - a declared dependency
        raise DataError("the 'datasets' package is not installed", file=dataset) from None
    label = f"{dataset}:{split}"
    try:
        ds = datasets.load_dataset(dataset, name, split=split, revision=revision,
                                   data_files=data_files, **kwargs)
    except Exception as exc:  # noqa: BLE001 - hub errors come in many types
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise DataError(
            f"cannot load from the hub ({type(exc).__name__}: {reason}); offline or not cached? "
            f"download it where the hub is reachable, or pass a local .jsonl/.parquet file "
            f"or folder as source", file=label) from None
    for i, row in enumerate(ds, start=1):
        yield label, i, dict(row)


def rows(source: str | Path, **hub_opts: Any) -> Iterator[tuple[str, int, Any]]:
    """Local rows when ``source`` is a path, else hub rows (see :func:`hub_rows`)."""
    if is_local(source):
        yield from local_rows(source)
    else:
        yield from hub_rows(str(source), **hub_opts)
