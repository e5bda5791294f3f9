"""A persistent on-disk response cache keyed by the canonical request.

litellm has no disk cache of its own, so this is a thin one over sqlite (WAL mode, safe for
threads and for several processes). The key is the sha256 of the request serialized as
canonical JSON (sorted keys, no whitespace), so two identical requests always hit.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

# request fields that change the reply; anything else (timeouts, retries) does not
KEY_FIELDS = ("model", "messages", "temperature", "max_tokens", "top_p", "stop", "seed",
              "tools", "tool_choice", "response_format", "n", "api_base", "extra")


def canonical_request(request: dict[str, Any]) -> str:
    """Canonical JSON of the fields of ``request`` that determine the reply."""
    picked = {k: request[k] for k in KEY_FIELDS if request.get(k) is not None}
    return json.dumps(picked, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)


def request_key(request: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_request(request).encode("utf-8")).hexdigest()


class ResponseCache:
    """sqlite-backed map from request key to a JSON reply.

    Args:
        path: the database file (its folder is created).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._conn() as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, "
                         "model TEXT, request TEXT, response TEXT, created REAL)")

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._conn().execute("SELECT response FROM responses WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, request: dict[str, Any], response: dict[str, Any]) -> None:
        self._conn().execute(
            "INSERT OR REPLACE INTO responses VALUES (?,?,?,?,?)",
            (key, str(request.get("model")), canonical_request(request), json.dumps(response),
             time.time()))

    def __len__(self) -> int:
        return int(self._conn().execute("SELECT COUNT(*) FROM responses").fetchone()[0])
