"""Where SWE-chat tables come from: a local folder of parquet files, or the HF hub.

Both sources yield ``pyarrow`` record batches of one table, optionally only some columns
and only the rows of some sessions, so a loader never holds more than it needs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

TABLES = ("sessions", "conversations", "session_logs", "checkpoints", "commits", "repositories")


class TableSource(Protocol):
    """A provider of SWE-chat tables."""

    name: str

    def has(self, table: str) -> bool:
        """Whether ``table`` exists in this source."""
        ...

    def schema_names(self, table: str) -> list[str]:
        """The column names of ``table``."""
        ...

    def batches(self, table: str, *, columns: list[str] | None = None, id_column: str | None = None,
                ids: set[str] | None = None) -> Iterator[Any]:
        """Record batches of ``table`` (only ``columns``; only rows whose ``id_column`` is in
        ``ids`` when both are given)."""
        ...


def _filter(batch: Any, id_column: str | None, ids: set[str] | None) -> Any:
    if not ids or not id_column:
        return batch
    import pyarrow as pa
    import pyarrow.compute as pc

    col = pc.cast(batch.column(id_column), pa.string())
    return batch.filter(pc.is_in(col, value_set=pa.array(sorted(ids), pa.string())))


class LocalParquet:
    """Tables as ``DIR/<table>.parquet``, ``DIR/<table>/*.parquet`` or ``DIR/data/<table>*.parquet``.

    Args:
        root: The folder.
        batch_size: Rows per batch.
    """

    def __init__(self, root: str | Path, *, batch_size: int = 65_536) -> None:
        self.root = Path(root)
        self.name = str(self.root)
        self.batch_size = batch_size

    def files(self, table: str) -> list[Path]:
        """The parquet files holding ``table`` (empty when absent)."""
        r = self.root
        found = [r / f"{table}.parquet"] if (r / f"{table}.parquet").is_file() else []
        found += sorted((r / table).glob("*.parquet")) if (r / table).is_dir() else []
        found += sorted((r / "data").glob(f"{table}*.parquet")) if (r / "data").is_dir() else []
        return found

    def has(self, table: str) -> bool:
        return bool(self.files(table))

    def _dataset(self, table: str) -> Any:
        import pyarrow.dataset as ds

        return ds.dataset([str(p) for p in self.files(table)], format="parquet")

    def schema_names(self, table: str) -> list[str]:
        return list(self._dataset(table).schema.names)

    def batches(self, table: str, *, columns: list[str] | None = None, id_column: str | None = None,
                ids: set[str] | None = None) -> Iterator[Any]:
        for batch in self._dataset(table).to_batches(columns=columns, batch_size=self.batch_size):
            yield _filter(batch, id_column, ids)


class HubTables:
    """Tables of a hub dataset whose configs are the table names (``SALT-NLP/SWE-chat``).

    ``datasets.load_dataset(repo, <table>, split=..., token=...)`` is called once per table;
    ``repo`` may also be a local folder laid out like the hub repository (a README with
    ``configs``), which is how this path is tested offline.

    Args:
        repo: The dataset repository (or a local copy).
        token: A hub token; read from ``token_env`` when omitted. The dataset is gated.
        token_env: The environment variable holding the token.
        revision: A commit or branch.
        split: The split to read.
        batch_size: Rows per batch.
        cache_dir: Where ``datasets`` caches downloads (its default when omitted).
    """

    def __init__(self, repo: str = "SALT-NLP/SWE-chat", *, token: str | None = None,
                 token_env: str = "HF_TOKEN", revision: str | None = None, split: str = "train",
                 batch_size: int = 65_536, cache_dir: str | None = None) -> None:
        self.cache_dir = cache_dir
        self.repo, self.name = repo, f"hf:{repo}"
        self.token = token or os.environ.get(token_env) or None
        self.revision, self.split, self.batch_size = revision, split, batch_size
        self._cache: dict[str, Any] = {}

    def _load(self, table: str) -> Any:
        if table not in self._cache:
            import datasets

            try:
                self._cache[table] = datasets.load_dataset(
                    self.repo, table, split=self.split, token=self.token, revision=self.revision,
                    cache_dir=self.cache_dir)
            except ValueError as exc:  # unknown config: the table is not in this repository
                if "BuilderConfig" in str(exc) or "config" in str(exc).lower():
                    self._cache[table] = None
                else:
                    raise
        return self._cache[table]

    def has(self, table: str) -> bool:
        return self._load(table) is not None

    def schema_names(self, table: str) -> list[str]:
        return list(self._load(table).column_names)

    def batches(self, table: str, *, columns: list[str] | None = None, id_column: str | None = None,
                ids: set[str] | None = None) -> Iterator[Any]:
        ds = self._load(table)
        if columns:
            ds = ds.select_columns([c for c in columns if c in ds.column_names])
        for batch in ds.with_format("arrow").iter(batch_size=self.batch_size):
            yield _filter(batch, id_column, ids)
