"""Property tests: the corpus loader never lets an exception escape, whatever the JSON."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autointeract.history.corpus import load_corpus
from autointeract.history.issues import IssueLog
from autointeract.history.swe_together import load_task_dir

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                    st.text(max_size=30))
json_values = st.recursive(scalars, lambda c: st.one_of(
    st.lists(c, max_size=4), st.dictionaries(st.text(max_size=8), c, max_size=4)), max_leaves=12)

roles = st.sampled_from(["user", "assistant", "tool", "system", "robot", None, 3])
blocks = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["text", "thinking", "tool_use", "tool_result",
                                                    "image", "weird"])},
                          optional={"text": json_values, "thinking": json_values,
                                    "content": json_values, "input": json_values,
                                    "name": json_values, "id": json_values}),
    json_values)
messages = st.fixed_dictionaries(
    {}, optional={"role": roles, "content": st.one_of(st.text(max_size=60), st.lists(blocks, max_size=3),
                                                       json_values),
                  "timestamp": st.one_of(st.text(max_size=25), st.integers(), st.floats(), st.none()),
                  "thinking": json_values, "tool_uses": json_values})
sessions = st.one_of(
    json_values,
    st.fixed_dictionaries({"messages": st.one_of(st.lists(messages, max_size=6), json_values)},
                          optional={"session_id": json_values, "model": json_values}))


def _write(root: Path, name: str, data: Any) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "original_session.json").write_text(json.dumps(data), encoding="utf-8")
    return d


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=sessions)
def test_task_dir_gives_a_session_or_a_named_issue(data: Any) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        d = _write(root, "t", data)
        issues = IssueLog()
        s = load_task_dir(d, issues=issues)
        if s is None:
            assert any(i.skipped for i in issues)
        else:
            assert s.user_turns()
            s.model_dump_json()  # always serializable
        for i in issues:
            assert i.file.endswith("original_session.json") and i.field and i.reason
    finally:
        shutil.rmtree(root)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bad=st.lists(sessions, min_size=1, max_size=3), raw=st.binary(max_size=80))
def test_corpus_loader_never_raises_and_keeps_good_sessions(bad: list[Any], raw: bytes) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        _write(root, "0-good", {"messages": [{"role": "user", "content": "fix the bug"}]})
        for i, data in enumerate(bad):
            _write(root, f"{i + 1}-bad", data)
        (root / "9-raw").mkdir()
        (root / "9-raw" / "original_session.json").write_bytes(raw)
        corpus = load_corpus(root)
        assert corpus.sessions and corpus.sessions[0].meta["task_id"] == "0-good"
        named = {s.meta["task_id"] for s in corpus.sessions} | {
            Path(f).parent.name for f in corpus.skipped_files}
        assert named == {p.name for p in root.iterdir()}
    finally:
        shutil.rmtree(root)
