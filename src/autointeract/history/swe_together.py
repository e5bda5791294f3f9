"""SWE-Together task folders -> ``Session``.

A task folder holds ``original_session.json`` (``{session_id, messages: [...]}``, each message
``{role, content, thinking?, tool_uses?, timestamp}`` where ``content`` is a string, ``None``
or a list of blocks ``text | thinking | tool_use | tool_result | image``), and optionally
``instruction.md``, ``task.toml`` and ``oracle_intents.json``, which go into ``Session.meta``.

Tool results carried in user-role messages become ``tool`` messages; harness-injected texts
become ``system`` messages (see :mod:`autointeract.history.text`). Problems are recorded as
:class:`~autointeract.history.issues.LoadIssue` and never raised.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from autointeract.history.convert import block_text, parse_timestamp, tool_call, user_message
from autointeract.history.issues import IssueLog
from autointeract.history.text import DEFAULT_MAX_CHARS, clean_text
from autointeract.types import Message, Session

SESSION_FILE = "original_session.json"
_SESSION_META = ("model", "project", "git_branch", "start_time", "end_time", "source", "_source")


def read_json_file(path: Path, issues: IssueLog) -> Any:
    """Read JSON leniently: NUL bytes and bad UTF-8 are repaired (and recorded).

    Args:
        path: The file.
        issues: Where problems are recorded.

    Returns:
        The parsed value.

    Raises:
        ValueError: When the file is not JSON even after repair (the caller records it).
        OSError: When the file cannot be read.
    """
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    if "\ufffd" in text and b"\xef\xbf\xbd" not in raw:
        issues.add(str(path), "<file>", "invalid UTF-8 bytes replaced")
    if "\x00" in text:
        issues.add(str(path), "<file>", f"{text.count(chr(0))} NUL bytes removed")
        text = text.replace("\x00", "")
    return json.loads(text, strict=False)


def _assistant(raw: dict[str, Any], ts: float | None, max_chars: int) -> Message:
    content, thinking, calls = raw.get("content"), [], []
    parts: list[str] = []
    if isinstance(content, list):
        for b in content:
            if not isinstance(b, dict):
                parts.append(block_text(b))
            elif b.get("type") == "thinking":
                thinking.append(block_text(b.get("thinking")))
            elif b.get("type") == "tool_use":
                calls.append(tool_call(b, max_chars=max_chars))
            else:
                parts.append(block_text(b))
    elif content is not None:
        parts.append(block_text(content))
    if isinstance(raw.get("thinking"), str):
        thinking.append(raw["thinking"])
    if not calls and isinstance(raw.get("tool_uses"), list):
        calls = [tool_call(t, max_chars=max_chars) for t in raw["tool_uses"] if isinstance(t, dict)]
    meta = {"thinking": clean_text("\n".join(thinking), max_chars=max_chars)} if thinking else {}
    return Message(role="assistant", content=clean_text("\n".join(p for p in parts if p),
                   max_chars=max_chars), tool_calls=calls, timestamp=ts, meta=meta)


def convert_message(raw: object, *, max_chars: int = DEFAULT_MAX_CHARS) -> list[Message]:
    """Convert one raw message into zero or more normalized messages.

    Args:
        raw: One element of ``messages``.
        max_chars: Size limit of each stored text.

    Returns:
        The messages (a user message with tool results yields one ``tool`` message each, then
        its own text, if any).

    Raises:
        ValueError: When the message has no usable role or an unreadable timestamp.
    """
    if not isinstance(raw, dict):
        raise ValueError(f"message is a {type(raw).__name__}, not an object")
    role = raw.get("role")
    ts = parse_timestamp(raw.get("timestamp"))
    if role == "assistant":
        return [_assistant(raw, ts, max_chars)]
    if role in ("system", "tool"):
        return [Message(role=role, content=clean_text(block_text(raw.get("content")),
                        max_chars=max_chars), timestamp=ts)]
    if role != "user":
        raise ValueError(f"unknown role {role!r}")
    content = raw.get("content")
    blocks = content if isinstance(content, list) else [content]
    out: list[Message] = []
    texts: list[str] = []
    for b in blocks:
        if isinstance(b, dict) and b.get("type") == "tool_result":
            out.append(Message(role="tool", content=clean_text(block_text(b.get("content")),
                               max_chars=max_chars), tool_call_id=str(b.get("tool_use_id") or ""),
                               timestamp=ts, meta={"tool_result": True, "kind": "tool_result",
                                                   "is_error": bool(b.get("is_error"))}))
        elif b is not None:
            texts.append(block_text(b))
    text = "\n".join(t for t in texts if t)
    if text.strip() or not out:
        out.append(user_message(text, timestamp=ts, max_chars=max_chars))
    return out


def _mark_command_expansions(messages: list[Message]) -> None:
    """A user text right after a slash command (no agent turn between) is its expansion."""
    for prev, cur in zip(messages, messages[1:], strict=False):
        if (prev.meta.get("kind") in ("slash_command", "command") and cur.role == "user"
                and cur.meta.get("kind") == "genuine"
                and (prev.timestamp is None or cur.timestamp is None
                     or abs(cur.timestamp - prev.timestamp) < 5.0)):
            cur.role = "system"
            cur.meta.update(kind="command_expansion", injected="command_expansion",
                            orig_role="user")


def _task_meta(folder: Path, issues: IssueLog, max_chars: int) -> dict[str, Any]:
    meta: dict[str, Any] = {"task_id": folder.name}
    inst = folder / "instruction.md"
    if inst.is_file():
        meta["instruction"] = clean_text(inst.read_text("utf-8", "replace"), max_chars=max_chars)
    toml = folder / "task.toml"
    if toml.is_file():
        try:
            data = tomllib.loads(toml.read_text("utf-8", "replace").replace("\x00", ""))
            md = data.get("metadata", {})
            meta["task"] = {k: md[k] for k in ("difficulty", "category", "tags",
                            "expert_time_estimate_min", "junior_time_estimate_min") if k in md}
        except (tomllib.TOMLDecodeError, AttributeError) as exc:
            issues.add(str(toml), "<file>", f"invalid TOML: {exc}")
    oracle = folder / "oracle_intents.json"
    if oracle.is_file():
        try:
            intents = read_json_file(oracle, issues).get("intents", [])
            meta["oracle_intents"] = [
                {"kind": str(i.get("intent_kind", "")), "text": clean_text(i.get("text"), max_chars=2000),
                 "source_turn": i.get("source_turn")} for i in intents if isinstance(i, dict)]
        except (ValueError, AttributeError, OSError) as exc:
            issues.add(str(oracle), "<file>", f"unreadable oracle intents: {exc}")
    return meta


def load_task_dir(folder: str | Path, *, issues: IssueLog | None = None,
                  max_chars: int = DEFAULT_MAX_CHARS) -> Session | None:
    """Load one SWE-Together task folder.

    Args:
        folder: The task folder (holding ``original_session.json``).
        issues: Where problems are recorded (a new log when omitted).
        max_chars: Size limit of each stored text.

    Returns:
        The session, or ``None`` when the folder's session file is unusable (recorded).
    """
    issues = IssueLog() if issues is None else issues
    folder = Path(folder)
    path = folder / SESSION_FILE
    fname = str(path)
    try:
        data = read_json_file(path, issues)
    except (OSError, ValueError) as exc:
        issues.add(fname, "<file>", f"unreadable: {str(exc)[:200]}", skipped=True)
        return None
    if not isinstance(data, dict):
        issues.add(fname, "<file>", f"top level is a {type(data).__name__}, not an object", skipped=True)
        return None
    raw_msgs = data.get("messages")
    if not isinstance(raw_msgs, list):
        issues.add(fname, "messages", "missing or not a list", skipped=True)
        return None
    messages: list[Message] = []
    for i, raw in enumerate(raw_msgs):
        try:
            messages.extend(convert_message(raw, max_chars=max_chars))
        except (ValueError, TypeError, AttributeError) as exc:
            issues.add(fname, f"messages.{i}", f"{str(exc)[:200]}; message dropped")
    _mark_command_expansions(messages)
    if not any(m.role == "user" and not m.meta.get("tool_result") for m in messages):
        issues.add(fname, "messages", "no genuine user turn", skipped=True)
        return None
    meta = _task_meta(folder, issues, max_chars)
    meta.update({k.lstrip("_"): data[k] for k in _SESSION_META if isinstance(data.get(k), str)})
    repo = next((data[k] for k in ("_github_repo", "_hf_repo") if isinstance(data.get(k), str)), None)
    sid = data.get("session_id")
    return Session(id=str(sid) if isinstance(sid, (str, int)) and sid != "" else folder.name,
                   source="swe-together", messages=messages, repo=repo, meta=meta)


def iter_swe_together(root: str | Path, *, issues: IssueLog | None = None,
                      max_chars: int = DEFAULT_MAX_CHARS,
                      on_item: Callable[[str], None] | None = None) -> Iterator[Session]:
    """Load every task folder under ``root`` (sorted by name), skipping bad ones.

    Args:
        root: A folder of task folders, or a single task folder.
        issues: Where problems are recorded.
        max_chars: Size limit of each stored text.
        on_item: Called with each folder name after it is processed (for progress bars).

    Yields:
        One session per usable task folder.
    """
    issues = IssueLog() if issues is None else issues
    root = Path(root)
    folders = [root] if (root / SESSION_FILE).exists() else sorted(
        p for p in root.iterdir() if p.is_dir() and (p / SESSION_FILE).exists())
    for folder in folders:
        try:
            session = load_task_dir(folder, issues=issues, max_chars=max_chars)
        except Exception as exc:  # noqa: BLE001 - one bad file must never abort a corpus
            issues.add(str(folder / SESSION_FILE), "<file>", f"unexpected {type(exc).__name__}: "
                       f"{str(exc)[:200]}", skipped=True)
            session = None
        if on_item:
            on_item(folder.name)
        if session is not None:
            yield session
