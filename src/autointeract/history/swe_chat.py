"""SWE-chat tables -> ``Session``.

SWE-chat (``SALT-NLP/SWE-chat``, gated) ships one table per config: ``sessions`` (one row per
session, key ``session_id``), ``conversations`` (every transcript entry, key ``turn_id``,
kind in ``turn_type``), ``session_logs``, ``checkpoints``, ``commits`` and ``repositories``
(key ``repo_id``). Column names beyond those are not public, so every column is looked up
through :class:`SweChatColumns`: a list of candidate names per field, first present wins,
all overridable from config. ``turn_type`` values map to roles through ``type_map`` with a
substring fallback (``*result*`` -> tool, ``*user*`` -> user, ...).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.history.convert import block_text, parse_timestamp, tool_call, user_message
from autointeract.history.issues import IssueLog
from autointeract.history.tables import TableSource
from autointeract.history.text import DEFAULT_MAX_CHARS, clean_text
from autointeract.types import Message, Session

_KINDS = ("user", "assistant", "thinking", "tool_call", "tool", "system", "skip")


class SweChatColumns(StrictModel):
    """Candidate column names per field (first present wins) and the ``turn_type`` mapping."""

    session_id: list[str] = Field(default_factory=lambda: ["session_id", "session"])
    order: list[str] = Field(default_factory=lambda: [
        "turn_index", "turn_idx", "turn_number", "entry_index", "seq", "sequence", "position",
        "timestamp", "turn_id"])
    turn_type: list[str] = Field(default_factory=lambda: ["turn_type", "type", "role", "kind"])
    content: list[str] = Field(default_factory=lambda: [
        "content", "text", "message", "content_text", "body", "prompt"])
    timestamp: list[str] = Field(default_factory=lambda: ["timestamp", "created_at", "ts", "time"])
    tool_name: list[str] = Field(default_factory=lambda: ["tool_name", "name"])
    tool_input: list[str] = Field(default_factory=lambda: ["tool_input", "input", "arguments"])
    tool_id: list[str] = Field(default_factory=lambda: ["tool_use_id", "tool_call_id", "tool_id"])
    repo: list[str] = Field(default_factory=lambda: [
        "repo_id", "repo", "repository", "repo_name", "repo_full_name"])
    repo_name: list[str] = Field(default_factory=lambda: ["full_name", "repo_name", "name", "url"])
    outcome: list[str] = Field(default_factory=lambda: ["outcome", "status", "result", "end_reason"])
    type_map: dict[str, str] = Field(default_factory=lambda: {
        "user": "user", "user_prompt": "user", "human": "user", "prompt": "user",
        "assistant": "assistant", "assistant_text": "assistant", "response": "assistant",
        "thinking": "thinking", "reasoning": "thinking", "tool_call": "tool_call",
        "tool_use": "tool_call", "tool_result": "tool", "tool_output": "tool",
        "system": "system", "summary": "system", "metadata": "skip", "meta": "skip"})


def _pick(names: list[str], candidates: list[str]) -> str | None:
    present = set(names)
    return next((c for c in candidates if c in present), None)


def map_turn_type(value: object, type_map: dict[str, str]) -> str:
    """Map a ``turn_type`` value to one of user/assistant/thinking/tool_call/tool/system/skip."""
    v = str(value or "").strip().lower()
    if v in type_map:
        return type_map[v]
    for needle, kind in (("result", "tool"), ("output", "tool"), ("tool", "tool_call"),
                         ("think", "thinking"), ("reason", "thinking"), ("user", "user"),
                         ("human", "user"), ("prompt", "user"), ("assistant", "assistant"),
                         ("agent", "assistant"), ("model", "assistant"), ("system", "system")):
        if needle in v:
            return kind
    return "skip"


def _text(value: object) -> str:
    if isinstance(value, str) and value[:2] in ("[{", '{"'):
        try:
            return block_text(json.loads(value))
        except ValueError:
            return value
    return block_text(value)


def rows_to_messages(rows: list[dict[str, Any]], cols: dict[str, str | None],
                     type_map: dict[str, str], *, max_chars: int = DEFAULT_MAX_CHARS) -> list[Message]:
    """Convert one session's conversation rows (already in order) into messages.

    Args:
        rows: The rows, as dicts.
        cols: The resolved column name per field (``None`` when absent).
        type_map: ``turn_type`` value -> kind.
        max_chars: Size limit of each stored text.

    Returns:
        The messages: thinking and tool calls join the preceding assistant message.
    """
    out: list[Message] = []

    def get(row: dict[str, Any], field: str) -> Any:
        c = cols.get(field)
        return row.get(c) if c else None

    for row in rows:
        kind = map_turn_type(get(row, "turn_type"), type_map)
        ts = parse_timestamp(get(row, "timestamp"))
        text = _text(get(row, "content"))
        last = out[-1] if out and out[-1].role == "assistant" else None
        if kind == "user":
            out.append(user_message(text, timestamp=ts, max_chars=max_chars))
        elif kind == "assistant":
            out.append(Message(role="assistant", content=clean_text(text, max_chars=max_chars),
                               timestamp=ts))
        elif kind in ("thinking", "tool_call"):
            if last is None:
                last = Message(role="assistant", timestamp=ts)
                out.append(last)
            if kind == "thinking":
                prev = last.meta.get("thinking", "")
                last.meta["thinking"] = clean_text((prev + "\n" + text).strip(), max_chars=max_chars)
            else:
                raw = {"name": get(row, "tool_name"), "id": get(row, "tool_id"),
                       "input": get(row, "tool_input") if cols.get("tool_input") else text}
                last.tool_calls.append(tool_call(raw, max_chars=max_chars))
        elif kind == "tool":
            out.append(Message(role="tool", content=clean_text(text, max_chars=max_chars),
                               tool_call_id=str(get(row, "tool_id") or "") or None, timestamp=ts,
                               meta={"tool_result": True, "kind": "tool_result"}))
        elif kind == "system":
            out.append(Message(role="system", content=clean_text(text, max_chars=max_chars),
                               timestamp=ts, meta={"injected": "system", "kind": "system"}))
    return out


def _scalar_meta(row: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, bool | int | float) or v is None:
            meta[k] = v
        elif isinstance(v, str):
            meta[k] = clean_text(v, max_chars=500)
    return meta


def _order_key(value: object) -> tuple[int, float, str]:
    if value is None:
        return (2, 0.0, "")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, float(value), "")
    if hasattr(value, "timestamp"):
        return (0, float(value.timestamp()), "")  # type: ignore[union-attr]
    return (1, 0.0, str(value))


def _table_rows(source: TableSource, table: str, *, id_col: str | None,
                ids: set[str] | None = None, columns: list[str] | None = None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for batch in source.batches(table, columns=columns, id_column=id_col, ids=ids):
        rows.extend(batch.to_pylist())
    return rows


def load_swe_chat(source: TableSource, *, columns: SweChatColumns | None = None,
                  issues: IssueLog | None = None, max_sessions: int | None = None,
                  max_chars: int = DEFAULT_MAX_CHARS,
                  on_item: Callable[[str], None] | None = None) -> list[Session]:
    """Load SWE-chat sessions from a table source.

    Args:
        source: :class:`~autointeract.history.tables.LocalParquet` or ``HubTables``.
        columns: The column mapping; defaults when omitted.
        issues: Where problems are recorded.
        max_sessions: Keep only the first N session ids (sorted) when set.
        max_chars: Size limit of each stored text.
        on_item: Called with each session id after it is processed.

    Returns:
        The sessions that have at least one genuine user turn.
    """
    cm = columns or SweChatColumns()
    issues = IssueLog() if issues is None else issues
    conv_t = f"{source.name}:conversations"
    if not source.has("conversations"):
        issues.add(conv_t, "<file>", "no conversations table", skipped=True)
        return []
    names = source.schema_names("conversations")
    cols = {f: _pick(names, getattr(cm, f)) for f in ("session_id", "order", "turn_type", "content",
                                                       "timestamp", "tool_name", "tool_input", "tool_id")}
    for f in ("session_id", "turn_type", "content"):
        if cols[f] is None:
            issues.add(conv_t, f, f"no column among {getattr(cm, f)} (have {names})", skipped=True)
            return []
    meta_rows: dict[str, dict[str, Any]] = {}
    ids: set[str] | None = None
    if source.has("sessions"):
        s_id = _pick(source.schema_names("sessions"), cm.session_id)
        meta_rows = {str(r[s_id]): r for r in _table_rows(source, "sessions", id_col=s_id)} if s_id else {}
    if max_sessions is not None:
        pool = sorted(meta_rows) if meta_rows else sorted({
            str(v) for b in source.batches("conversations", columns=[cols["session_id"]])
            for v in b.column(0).to_pylist()})
        ids = set(pool[:max_sessions])
    repos: dict[str, dict[str, Any]] = {}
    if source.has("repositories"):
        r_id = _pick(source.schema_names("repositories"), cm.repo)
        repos = {str(r[r_id]): r for r in _table_rows(source, "repositories", id_col=r_id)} if r_id else {}
    grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
    wanted = [c for c in cols.values() if c]
    for row in _table_rows(source, "conversations", id_col=cols["session_id"], ids=ids, columns=wanted):
        grouped[str(row[cols["session_id"]])].append(row)
    sessions: list[Session] = []
    for sid in sorted(grouped):
        try:
            rows = grouped[sid]
            if cols["order"]:
                rows.sort(key=lambda r: _order_key(r.get(cols["order"])))
            msgs = rows_to_messages(rows, cols, cm.type_map, max_chars=max_chars)
            if not any(m.role == "user" for m in msgs):
                issues.add(conv_t, f"session {sid}", "no genuine user turn", skipped=True)
                continue
            row = meta_rows.get(sid, {})
            repo_key = next((str(row[c]) for c in cm.repo if row.get(c) is not None), None)
            repo_row = repos.get(repo_key or "", {})
            repo = next((str(repo_row[c]) for c in cm.repo_name if repo_row.get(c)), repo_key)
            outcome = next((str(row[c]) for c in cm.outcome if row.get(c) is not None), None)
            sessions.append(Session(id=sid, source="swe-chat", messages=msgs, repo=repo,
                                    outcome=outcome, meta=_scalar_meta(row)))
        except Exception as exc:  # noqa: BLE001 - one bad session must never abort a corpus
            issues.add(conv_t, f"session {sid}", f"{type(exc).__name__}: {str(exc)[:200]}",
                       skipped=True)
        if on_item:
            on_item(sid)
    return sessions
