"""verl's dataset rows, written from :class:`~autointeract.dataset.rows.RLRow` (no verl import).

verl's ``RLHFDataset`` reads parquet with these columns:

* ``prompt`` — the chat messages (``role``/``content``) the agent loop starts from;
* ``data_source`` — routes the reward (``autointeract/<family>``);
* ``agent_name`` — ``autointeract_user_loop``, the loop registered in
  :mod:`autointeract.rl.verl_loop`;
* ``reward_model`` — ``{"style": "rule", "ground_truth": <VerifierSpec JSON>}``;
* ``extra_info`` — ``index``, ``split``, ``task_id`` and the whole row as JSON
  (``autointeract_row``), which the agent loop rebuilds the task and the user from.

    write_verl_parquet(rows, "data/rl/train.parquet")
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from autointeract.dataset.rows import RLRow
from autointeract.errors import DataError

AGENT_NAME = "autointeract_user_loop"
AGENT_LOOP_TARGET = "autointeract.rl.verl_loop.AutointeractUserLoop"
EPISODE_KEY = "autointeract_episode"
ROW_KEY = "autointeract_row"
VERL_COLUMNS = ("data_source", "agent_name", "prompt", "reward_model", "extra_info")


def verl_record(row: RLRow, *, index: int) -> dict[str, Any]:
    """One parquet record of ``row`` (prompt messages keep only role and content)."""
    return {
        "data_source": row.data_source,
        "agent_name": AGENT_NAME,
        "prompt": [{"role": m.role, "content": m.content} for m in row.prompt],
        "reward_model": {"style": "rule", "ground_truth": row.verifier.model_dump_json()},
        "extra_info": {"index": index, "split": row.split, "task_id": row.id,
                       ROW_KEY: json.dumps(row.to_record(), ensure_ascii=False)},
    }


def write_verl_parquet(rows: Iterable[RLRow], path: str | Path) -> Path:
    """Write ``rows`` as a verl parquet file (atomically: a temp file renamed into place).

    Raises:
        DataError: no rows.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = [verl_record(r, index=i) for i, r in enumerate(rows)]
    p = Path(path)
    if not records:
        raise DataError("no RL rows to write", file=str(p))
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(p.name + ".tmp")
    pq.write_table(pa.Table.from_pylist(records), tmp)
    tmp.replace(p)
    return p


def check_verl_parquet(path: str | Path) -> int:
    """Validate a verl parquet file written here; returns its row count.

    Raises:
        DataError: a missing file, a missing column, or a row that does not rebuild.
    """
    import pyarrow.parquet as pq

    p = Path(path)
    if not p.is_file():
        raise DataError("file not found", file=str(p))
    table = pq.read_table(p)
    missing = [c for c in VERL_COLUMNS if c not in table.column_names]
    if missing:
        raise DataError(f"missing columns {missing}", file=str(p))
    for i, extra in enumerate(table.column("extra_info").to_pylist()):
        try:
            row_from_extra_info(extra)
        except (KeyError, ValueError) as exc:
            raise DataError(f"row {i}: {exc}", file=str(p), field="extra_info") from None
    return table.num_rows


def row_from_extra_info(extra: dict[str, Any] | None) -> RLRow:
    """The :class:`RLRow` a verl item carries in ``extra_info``.

    Raises:
        KeyError: the item was not written by :func:`write_verl_parquet`.
    """
    raw = (extra or {}).get(ROW_KEY)
    if raw is None:
        raise KeyError(f"extra_info has no '{ROW_KEY}' (not written by write_verl_parquet?)")
    return RLRow.from_record(json.loads(raw) if isinstance(raw, str) else raw)


def agent_loop_yaml() -> str:
    """The YAML for verl's ``actor_rollout_ref.rollout.agent.agent_loop_config_path``."""
    return f"- name: {AGENT_NAME}\n  _target_: {AGENT_LOOP_TARGET}\n"


__all__ = ["AGENT_LOOP_TARGET", "AGENT_NAME", "EPISODE_KEY", "ROW_KEY", "VERL_COLUMNS",
           "agent_loop_yaml", "check_verl_parquet", "row_from_extra_info", "verl_record",
           "write_verl_parquet"]
