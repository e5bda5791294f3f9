from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autointeract.history.corpus import load_corpus
from autointeract.history.issues import IssueLog
from autointeract.history.swe_together import convert_message, load_task_dir
from autointeract.types import Session


def test_sample_loads_cleanly(sample_dir: Path) -> None:
    corpus = load_corpus(sample_dir)
    assert corpus.format == "swe-together"
    assert len(corpus.sessions) == 12 and corpus.issues == []
    for s in corpus.sessions:
        assert s.user_turns(), s.id
        assert all(m.timestamp is not None and m.timestamp > 1.7e9 for m in s.messages)
        assert s.meta["task"]["difficulty"] in ("easy", "medium", "hard")
        assert s.meta["instruction"]


def test_sample_tool_results_and_injected_text_are_not_user_turns(sample_dir: Path) -> None:
    s = load_task_dir(sample_dir / "injected-and-commands")
    assert s is not None
    turns = [m.content for m in s.user_turns()]
    assert turns[0].startswith("split parse_line()")  # caveat and /clear are not turns
    kinds = {m.meta.get("injected") for m in s.messages if m.role == "system"}
    assert {"caveat", "command"} <= kinds
    tools = [m for m in s.messages if m.role == "tool"]
    assert tools and all(m.meta["tool_result"] and m.tool_call_id for m in tools)
    assert any(m.meta.get("thinking") for m in s.messages if m.role == "assistant")
    calls = [c for m in s.messages for c in m.tool_calls]
    assert calls and calls[0].name == "Read" and calls[0].arguments["file_path"]


def test_sample_secret_is_redacted(sample_dir: Path) -> None:
    s = load_task_dir(sample_dir / "secret-in-paste")
    assert s is not None
    blob = s.model_dump_json()
    assert "AKIAZZZZEXAMPLE12345" not in blob and "wJalrXUtnFEMI" not in blob
    assert "[REDACTED:aws_access_key]" in blob


def test_interruption_is_a_user_turn(sample_dir: Path) -> None:
    s = load_task_dir(sample_dir / "interrupt-wrong-dir")
    assert s is not None
    assert any(m.meta.get("interruption") for m in s.user_turns())


def test_user_message_with_tool_result_and_text_is_split(msg: Callable[..., dict]) -> None:
    out = convert_message(msg("user", [
        {"type": "tool_result", "tool_use_id": "t9", "content": [{"type": "text", "text": "ok"}]},
        {"type": "text", "text": "also check the tests"}]))
    assert [m.role for m in out] == ["tool", "user"]
    assert out[0].content == "ok" and out[1].content == "also check the tests"


def test_bad_files_are_reported_and_skipped(make_task: Callable[..., Path], msg: Callable[..., dict],
                                            tmp_path: Path) -> None:
    make_task("a-good")
    make_task("b-nul", raw=json.dumps({"session_id": "n", "messages": [
        msg("user", "fix it please"), msg("assistant", "ok")]}).encode().replace(b"fix", b"f\x00ix"))
    make_task("c-secret", [msg("user", "deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
                           msg("assistant", "using password=Sup3rSecret! now")])
    make_task("d-truncated", raw=b'{"session_id": "t", "messages": [{"role": "user", "cont')
    make_task("e-huge", [msg("user", "look at this log: " + "x" * 100_000), msg("assistant", "ok")])
    make_task("f-no-messages", raw=b'{"session_id": "z"}')
    make_task("g-bad-fields", [msg("user", "hi there"), "not a dict", msg("robot", "beep"),
                               msg("assistant", "ok", ts="not a time"), {"role": "user"}])
    corpus = load_corpus(tmp_path / "tasks", max_chars=5000)
    ids = [s.meta["task_id"] for s in corpus.sessions]
    assert ids == ["a-good", "b-nul", "c-secret", "e-huge", "g-bad-fields"]
    by = {s.meta["task_id"]: s for s in corpus.sessions}
    assert by["b-nul"].user_turns()[0].content == "fix it please"
    assert any("NUL" in i.reason and "b-nul" in i.file for i in corpus.issues)
    blob = by["c-secret"].model_dump_json()
    assert "ghp_abcdef" not in blob and "Sup3rSecret" not in blob
    huge = by["e-huge"].user_turns()[0].content
    assert len(huge) < 5200 and "truncated" in huge
    skipped = corpus.skipped_files
    assert any("d-truncated" in f for f in skipped) and any("f-no-messages" in f for f in skipped)
    bad = [i for i in corpus.issues if "g-bad-fields" in i.file]
    assert {i.field for i in bad} >= {"messages.1", "messages.2", "messages.3"}
    assert all(i.file.endswith("original_session.json") for i in corpus.issues)


def test_load_task_dir_never_raises_on_missing_file(tmp_path: Path) -> None:
    issues = IssueLog()
    assert load_task_dir(tmp_path / "nope", issues=issues) is None
    assert issues and issues[0].skipped and issues[0].field == "<file>"


def test_shared_corpus(shared_tasks: Path) -> None:
    t0 = time.perf_counter()
    corpus = load_corpus(shared_tasks)
    wall = time.perf_counter() - t0
    n_dirs = sum(1 for p in shared_tasks.iterdir() if (p / "original_session.json").exists())
    assert len(corpus.sessions) + len(corpus.skipped_files) == n_dirs
    assert len(corpus.sessions) >= 0.9 * n_dirs
    assert wall < 60
    for s in corpus.sessions:
        turns = s.user_turns()
        assert turns, s.id
        for m in turns:
            assert not m.content.startswith(("<tool_result", "<command-name>", "<local-command",
                                             "Base directory for this skill", "<task-notification>"))
    roles: dict[str, Any] = {}
    for s in corpus.sessions:
        for m in s.messages:
            roles[m.role] = roles.get(m.role, 0) + 1
    assert roles["tool"] > roles["user"]  # most user-role messages were tool results


def test_sessions_round_trip_jsonl(sample_dir: Path, tmp_path: Path) -> None:
    from autointeract.history.corpus import read_sessions_jsonl, write_sessions_jsonl

    sessions = load_corpus(sample_dir).sessions
    path = tmp_path / "s.jsonl"
    assert write_sessions_jsonl(sessions, path) == len(sessions)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    issues = IssueLog()
    back = read_sessions_jsonl(path, issues=issues)
    assert [Session.model_validate(s.model_dump()) for s in back] == sessions
    assert issues[0].field == f"line {len(sessions) + 1}"
