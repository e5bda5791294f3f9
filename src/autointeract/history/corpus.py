"""One entry point for every session source, and the JSONL format of normalized sessions.

``load_corpus(src)`` recognises:

- a ``.jsonl`` file of normalized sessions (as written by ``history ingest``);
- a SWE-Together task folder, or a folder of them;
- a folder of SWE-chat parquet tables (``conversations.parquet``, ``sessions.parquet``, ...);
- ``hf:<owner>/<name>`` (e.g. ``hf:SALT-NLP/SWE-chat``): the hub dataset (token from
  ``HF_TOKEN``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from autointeract.history.issues import IssueLog, LoadIssue
from autointeract.history.swe_chat import SweChatColumns, load_swe_chat
from autointeract.history.swe_together import SESSION_FILE, iter_swe_together
from autointeract.history.tables import HubTables, LocalParquet
from autointeract.history.text import DEFAULT_MAX_CHARS
from autointeract.types import Session

Format = Literal["auto", "swe-together", "swe-chat", "jsonl"]


class Corpus(BaseModel):
    """Loaded sessions plus the issues met while loading them."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: str
    format: str
    sessions: list[Session] = Field(default_factory=list)
    issues: list[LoadIssue] = Field(default_factory=list)

    @property
    def skipped_files(self) -> list[str]:
        """Files (or table entries) whose session was dropped."""
        return list(dict.fromkeys(i.file if i.field == "<file>" else f"{i.file} [{i.field}]"
                                  for i in self.issues if i.skipped))


def detect_format(src: str | Path) -> str:
    """Guess the format of ``src`` (see the module docstring).

    Raises:
        FileNotFoundError: When ``src`` is neither a path nor an ``hf:`` reference.
        ValueError: When a folder holds nothing recognisable.
    """
    s = str(src)
    if s.startswith("hf:"):
        return "swe-chat"
    p = Path(s)
    if not p.exists():
        raise FileNotFoundError(s)
    if p.is_file():
        if p.suffix in (".jsonl", ".json") or p.name.endswith(".jsonl.gz"):
            return "jsonl"
        raise ValueError(f"{s}: not a .jsonl file")
    if (p / SESSION_FILE).exists() or any((c / SESSION_FILE).exists() for c in p.iterdir() if c.is_dir()):
        return "swe-together"
    if LocalParquet(p).has("conversations"):
        return "swe-chat"
    raise ValueError(f"{s}: no SWE-Together task folders or SWE-chat parquet tables found")


def read_sessions_jsonl(path: str | Path, *, issues: IssueLog | None = None) -> list[Session]:
    """Read normalized sessions, one JSON object a line; a bad line is recorded and skipped."""
    issues = IssueLog() if issues is None else issues
    out: list[Session] = []
    with open(path, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append(Session.model_validate_json(line.replace("\x00", "")))
            except (ValidationError, ValueError) as exc:
                issues.add(str(path), f"line {n}", str(exc).splitlines()[0][:200], skipped=True)
    return out


def write_sessions_jsonl(sessions: Iterable[Session], path: str | Path) -> int:
    """Write sessions one JSON object a line (parent folders created); returns the count."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(p, "w", encoding="utf-8") as fh:
        for s in sessions:
            fh.write(s.model_dump_json() + "\n")
            n += 1
    return n


def load_corpus(src: str | Path, *, format: Format = "auto", max_sessions: int | None = None,
                max_chars: int = DEFAULT_MAX_CHARS, columns: SweChatColumns | None = None,
                token: str | None = None, on_item: Callable[[str], None] | None = None) -> Corpus:
    """Load, normalize and redact sessions from any supported source.

    Bad files and fields never abort the load: they are in ``Corpus.issues`` (and logged).

    Args:
        src: A path or ``hf:<repo>`` (see the module docstring).
        format: Force a format instead of detecting it.
        max_sessions: Keep at most this many sessions.
        max_chars: Size limit of each stored text.
        columns: SWE-chat column mapping.
        token: Hub token for ``hf:`` sources (else ``HF_TOKEN``).
        on_item: Progress callback, called once per item processed.

    Returns:
        The corpus.
    """
    fmt = detect_format(src) if format == "auto" else format
    issues = IssueLog()
    s = str(src)
    if fmt == "jsonl":
        sessions = read_sessions_jsonl(s, issues=issues)
    elif fmt == "swe-together":
        sessions = []
        for sess in iter_swe_together(s, issues=issues, max_chars=max_chars, on_item=on_item):
            sessions.append(sess)
            if max_sessions is not None and len(sessions) >= max_sessions:
                break
    elif fmt == "swe-chat":
        source = HubTables(s[3:], token=token) if s.startswith("hf:") else LocalParquet(s)
        sessions = load_swe_chat(source, columns=columns, issues=issues, max_sessions=max_sessions,
                                 max_chars=max_chars, on_item=on_item)
    else:
        raise ValueError(f"unknown format {fmt!r}")
    if max_sessions is not None:
        sessions = sessions[:max_sessions]
    return Corpus(source=s, format=fmt, sessions=sessions, issues=list(issues))
