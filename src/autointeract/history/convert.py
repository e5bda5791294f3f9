"""Turning raw transcript pieces (timestamps, content blocks) into normalized ``Message``s.

Shared by the SWE-Together and SWE-chat loaders. Every text goes through
:func:`~autointeract.history.text.clean_text` (NUL bytes, secrets, size) on the way in.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from autointeract.history.text import DEFAULT_MAX_CHARS, classify_user_text, clean_text
from autointeract.types import Message, ToolCall


def parse_timestamp(value: object) -> float | None:
    """Read a timestamp as float epoch seconds.

    Args:
        value: An ISO-8601 string (``Z`` allowed), epoch seconds or milliseconds, a
            ``datetime``, or ``None``.

    Returns:
        Epoch seconds, or ``None`` when absent.

    Raises:
        ValueError: When the value is present but unreadable.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a timestamp: {value!r}")
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        return dt.timestamp()
    if isinstance(value, (int, float)):
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError(f"not a timestamp: {value!r}")
        return v / 1e9 if v > 1e17 else v / 1e3 if v > 1e11 else v
    if isinstance(value, str):
        s = value.strip()
        try:
            return parse_timestamp(float(s))
        except ValueError:
            pass
        dt = datetime.fromisoformat(s.replace("Z", "+00:00"))
        dt = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
        return dt.timestamp()
    if hasattr(value, "timestamp"):  # pandas / numpy datetime-likes
        return float(value.timestamp())
    raise ValueError(f"not a timestamp: {type(value).__name__}")


def block_text(value: object) -> str:
    """Flatten a tool-result payload (a string, a list of blocks, a dict) into text."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(t for t in (block_text(v) for v in value) if t)
    if isinstance(value, dict):
        kind = value.get("type")
        if isinstance(value.get("text"), str):
            return value["text"]
        if kind == "tool_reference":
            return f"[tool loaded: {value.get('tool_name', '?')}]"
        if kind == "image":
            return "[image]"
        if "content" in value:
            return block_text(value["content"])
        return f"[{kind}]" if isinstance(kind, str) else json.dumps(value, default=str)[:200]
    return str(value)


def tool_call(raw: dict[str, Any], *, max_chars: int = DEFAULT_MAX_CHARS) -> ToolCall:
    """A :class:`ToolCall` from a ``tool_use`` block or a ``{tool, input}`` record."""
    name = raw.get("name") or raw.get("tool") or raw.get("tool_name") or "unknown"
    args = raw.get("input", raw.get("arguments", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            args = {"input": args}
    if not isinstance(args, dict):
        args = {"input": args}
    # arguments can hold file contents with secrets; store them as cleaned JSON text.
    blob = clean_text(json.dumps(args, default=str, ensure_ascii=False), max_chars=max_chars)
    try:
        safe = json.loads(blob)
    except ValueError:
        safe = {"input": blob}
    return ToolCall(id=str(raw.get("id") or ""), name=clean_text(name, max_chars=200),
                    arguments=safe if isinstance(safe, dict) else {"input": safe})


def user_message(text: str, *, timestamp: float | None, max_chars: int = DEFAULT_MAX_CHARS,
                 meta: dict[str, Any] | None = None) -> Message:
    """A user-role text as a ``Message``: genuine turns stay ``user``; tool results become
    ``tool`` (``meta.tool_result``); other injected texts become ``system`` (``meta.injected``).

    Args:
        text: The raw text.
        timestamp: Epoch seconds, or ``None``.
        max_chars: Size limit of the stored content.
        meta: Extra metadata to attach.

    Returns:
        The normalized message; its ``meta.kind`` says how it was classified.
    """
    verdict = classify_user_text((text or "").replace("\x00", ""))
    info: dict[str, Any] = {**(meta or {}), "kind": verdict.kind}
    content = clean_text(verdict.text, max_chars=max_chars)
    if verdict.genuine:
        if verdict.kind == "interruption":
            info["interruption"] = True
        return Message(role="user", content=content, timestamp=timestamp, meta=info)
    if verdict.kind == "tool_result":
        info["tool_result"] = True
        return Message(role="tool", content=content, timestamp=timestamp, meta=info)
    info.update(injected=verdict.kind, orig_role="user")
    return Message(role="system", content=content, timestamp=timestamp, meta=info)
