from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from autointeract.history.corpus import detect_format, load_corpus
from autointeract.history.issues import IssueLog
from autointeract.history.swe_chat import SweChatColumns, load_swe_chat, map_turn_type
from autointeract.history.tables import HubTables, LocalParquet

CONV = {
    "turn_id": ["s1-0", "s1-1", "s1-2", "s1-3", "s1-4", "s1-5", "s1-6", "s1-7",
                "s2-0", "s2-1", "s2-2", "s3-0"],
    "session_id": ["s1"] * 8 + ["s2"] * 3 + ["s3"],
    "turn_index": [0, 1, 2, 3, 4, 5, 6, 7, 1, 0, 2, 0],  # s2 stored out of order
    "turn_type": ["user", "thinking", "tool_call", "tool_result", "assistant",
                  "user", "user", "metadata",
                  "assistant", "user", "user", "assistant"],
    "content": ["add a --json flag", "plan it", '{"command": "ls"}', "a.py\nb.py",
                "Added the flag.", "[Request interrupted by user]",
                "no, use sk-abcdefghijklmnopqrstuvwx1234 instead", "{}",
                "Sure.", "why is CI red?", "thanks", "hello"],
    "tool_name": [None, None, "Bash", None, None, None, None, None, None, None, None, None],
    "timestamp": ["2025-05-01T10:00:00Z", "2025-05-01T10:00:01Z", "2025-05-01T10:00:02Z",
                  "2025-05-01T10:00:03Z", "2025-05-01T10:00:04Z", "2025-05-01T10:00:05Z",
                  "2025-05-01T10:00:06Z", None, "2025-05-02T09:00:01Z", "2025-05-02T09:00:00Z",
                  "2025-05-02T09:00:02Z", "2025-05-03T09:00:00Z"],
}
SESSIONS = {"session_id": ["s1", "s2", "s3"], "repo_id": ["r1", "r2", "r1"],
            "status": ["completed", "abandoned", "completed"], "agent": ["Claude Code"] * 3,
            "input_tokens": [100, 200, 5]}
REPOS = {"repo_id": ["r1", "r2"], "full_name": ["acme/tool", "acme/site"]}


def write_tables(root: Path, conv: dict | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table(conv or CONV), root / "conversations.parquet")
    pq.write_table(pa.table(SESSIONS), root / "sessions.parquet")
    (root / "repositories").mkdir(exist_ok=True)
    pq.write_table(pa.table(REPOS), root / "repositories" / "part-0.parquet")
    pq.write_table(pa.table({"commit_sha": ["abc"], "session_id": ["s1"]}), root / "commits.parquet")
    return root


@pytest.fixture
def parquet_dir(tmp_path: Path) -> Path:
    return write_tables(tmp_path / "swechat")


def check_sessions(sessions: list) -> None:
    by = {s.id: s for s in sessions}
    assert set(by) == {"s1", "s2"}  # s3 has no user turn
    s1 = by["s1"]
    assert s1.repo == "acme/tool" and s1.outcome == "completed" and s1.source == "swe-chat"
    assert s1.meta["agent"] == "Claude Code" and s1.meta["input_tokens"] == 100
    roles = [m.role for m in s1.messages]
    assert roles == ["user", "assistant", "tool", "assistant", "user", "user"]
    thinking_msg = s1.messages[1]
    assert thinking_msg.meta["thinking"] == "plan it" and thinking_msg.tool_calls[0].name == "Bash"
    assert thinking_msg.tool_calls[0].arguments == {"command": "ls"}
    assert s1.messages[2].meta["tool_result"]
    turns = s1.user_turns()
    assert turns[1].meta.get("interruption")
    assert "sk-abc" not in turns[2].content and "[REDACTED:openai_key]" in turns[2].content
    assert s1.messages[0].timestamp == pytest.approx(1746093600.0)
    assert [m.content for m in by["s2"].user_turns()] == ["why is CI red?", "thanks"]


def test_local_parquet(parquet_dir: Path) -> None:
    assert detect_format(parquet_dir) == "swe-chat"
    corpus = load_corpus(parquet_dir)
    check_sessions(corpus.sessions)
    assert any("s3" in i.field for i in corpus.issues)


def test_max_sessions_filters_rows(parquet_dir: Path) -> None:
    corpus = load_corpus(parquet_dir, max_sessions=1)
    assert [s.id for s in corpus.sessions] == ["s1"]


def test_hub_code_path_on_a_local_repository(parquet_dir: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    configs = "".join(f"- config_name: {t}\n  data_files:\n  - split: train\n    path: {p}\n"
                      for t, p in (("conversations", "conversations.parquet"),
                                   ("sessions", "sessions.parquet"),
                                   ("repositories", "repositories/*.parquet")))
    (parquet_dir / "README.md").write_text(f"---\nconfigs:\n{configs}---\n# fixture\n")
    source = HubTables(str(parquet_dir), cache_dir=str(tmp_path / "hfcache"))
    assert source.has("conversations") and not source.has("checkpoints")
    check_sessions(load_swe_chat(source))


def test_column_mapping_is_configurable(tmp_path: Path) -> None:
    conv = {("msg" if k == "content" else "kind" if k == "turn_type" else k): v
            for k, v in CONV.items()}
    conv["kind"] = ["HUMAN_PROMPT" if v == "user" else v for v in conv["kind"]]
    root = write_tables(tmp_path / "renamed", conv)
    issues = IssueLog()
    cols = SweChatColumns(content=["msg"], turn_type=["kind"])
    check_sessions(load_swe_chat(LocalParquet(root), columns=cols, issues=issues))
    assert load_swe_chat(LocalParquet(root), issues=issues) == []  # default names are absent
    assert issues[-1].skipped and issues[-1].field == "content"


def test_missing_conversations_table_is_an_issue(tmp_path: Path) -> None:
    tmp_path.joinpath("empty").mkdir()
    issues = IssueLog()
    assert load_swe_chat(LocalParquet(tmp_path / "empty"), issues=issues) == []
    assert issues[0].skipped


@pytest.mark.parametrize(("value", "kind"), [
    ("user", "user"), ("USER_MESSAGE", "user"), ("assistant_response", "assistant"),
    ("tool_result", "tool"), ("function_call_output", "tool"), ("tool_use", "tool_call"),
    ("reasoning", "thinking"), ("metadata", "skip"), ("file-history-snapshot", "skip"), (None, "skip"),
])
def test_turn_type_mapping(value: object, kind: str) -> None:
    assert map_turn_type(value, SweChatColumns().type_map) == kind
