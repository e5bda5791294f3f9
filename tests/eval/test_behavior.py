"""Table-4 behavior metrics on hand-made trajectories whose answers are known."""

from __future__ import annotations

import pytest

from autointeract.eval.behavior import (
    Action,
    actions,
    added_lines,
    behavior_summary,
    diff_files,
    is_formal_test,
    is_retrieval,
    reference_files,
    repeated_share,
    run_behavior,
)
from autointeract.types import Message, ToolCall, Trajectory, VerifierResult


def bash(i: int, cmd: str, out: str) -> list[Message]:
    call = ToolCall(id=f"c{i}", name="bash", arguments={"command": cmd})
    return [Message(role="assistant", tool_calls=[call]),
            Message(role="tool", content=out, tool_call_id=f"c{i}", name="bash")]


def traj(cmds: list[tuple[str, str]], **meta: object) -> Trajectory:
    msgs = [Message(role="user", content="fix the bug")]
    for i, (cmd, out) in enumerate(cmds):
        msgs += bash(i, cmd, out)
    return Trajectory(episode_id="e", task_id="t", messages=msgs, meta=dict(meta))


WORDS = " ".join(f"w{i}" for i in range(20))  # 20 tokens -> 9 spans of 12

PATCH = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -1,2 +1,3 @@
 x = 1
+y = 2
+z = 3
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1 +1 @@
-old
+new
"""
REFERENCE = """diff --git a/src/app.py b/src/app.py
--- a/src/app.py
+++ b/src/app.py
@@ -1 +1,2 @@
 x = 1
+y = 2
diff --git a/src/util.py b/src/util.py
--- /dev/null
+++ b/src/util.py
@@ -0,0 +1 @@
+def f(): pass
"""


@pytest.mark.parametrize(("cmd", "expected"), [
    ("cat src/app.py", True),
    ("grep -rn foo . | head -20", True),
    ("cd repo && ls -la", True),
    ("git log --oneline -5", True),
    ("git show HEAD:src/app.py", True),
    ("sed -n 1,40p src/app.py", True),
    ("grep -rn foo . 2>/dev/null", True),
    ("find . -name '*.py'", True),
    ("cd repo", False),                        # moves, reads nothing
    ("sed -i s/a/b/ f.py", False),
    ("cat a > b", False),
    ("echo hi >> notes.txt", False),
    ("find . -name '*.pyc' -delete", False),
    ("git commit -am wip", False),
    ("python -m pytest -q", False),
    ("ls && rm -rf build", False),
])
def test_retrieval_commands(cmd: str, expected: bool) -> None:
    assert is_retrieval(Action(cmd, "", "bash")) is expected


def test_retrieval_tools_and_other_tools() -> None:
    assert is_retrieval(Action("src/app.py", "", "read_file"))
    assert not is_retrieval(Action("print(1)", "", "run_python"))
    assert not is_retrieval(Action("cat x", "", "message_user"))


@pytest.mark.parametrize(("cmd", "expected"), [
    ("pytest -q tests/test_app.py", True),
    ("cd repo && python -m pytest -x", True),
    ("python3 -m unittest discover", True),
    ("npm test", True),
    ("go test ./...", True),
    ("cargo test --release", True),
    ("make test", True),
    ("timeout 60 pytest -q", True),
    ("uv run pytest", True),
    ("PYTHONPATH=. python -m pytest tests", True),
    (".venv/bin/pytest -q", True),
    ("grep pytest setup.cfg", False),
    ("python test_app.py", False),             # a script, not a test runner
    ("cat pytest.ini", False),
    ("echo 'run the tests later'", False),
])
def test_formal_test_detection(cmd: str, expected: bool) -> None:
    assert is_formal_test(cmd) is expected


def test_repeated_spans_counted_against_earlier_outputs_only() -> None:
    rep, tot = repeated_share([WORDS, WORDS])
    assert (rep, tot) == (9, 18)
    # repetition inside one output is not "already seen in an earlier output"
    assert repeated_share([WORDS + " " + WORDS]) == (0, 29)
    # lower-cased
    assert repeated_share([WORDS, WORDS.upper()]) == (9, 18)
    # a shorter-than-12-token output has no span
    assert repeated_share(["a b c"]) == (0, 0)


def test_run_behavior_counts_only_retrieval_outputs() -> None:
    t = traj([("cat a.py", WORDS), ("grep -rn w0 .", WORDS),
              ("python -c 'print(1)'", WORDS),        # not a retrieval: its output is ignored
              ("cd repo && pytest -q", "1 passed")])
    r = run_behavior(t)
    assert r.retrieval_calls == 2
    assert (r.repeated_spans, r.retrieved_spans) == (9, 18)
    assert r.formal_test is True
    assert r.added_lines is None and r.reference_files_touched is None  # no diff recorded


def test_diff_metrics() -> None:
    assert diff_files(PATCH) == {"src/app.py", "README.md"}
    assert added_lines(PATCH) == 3
    assert reference_files(REFERENCE) == {"src/app.py", "src/util.py"}
    assert reference_files({"files": [{"path": "a.py"}, "b.py"], "patch": PATCH}) == {
        "a.py", "b.py", "src/app.py", "README.md"}
    t = traj([], final_diff=PATCH)
    r = run_behavior(t, reference_patch=REFERENCE)
    assert r.reference_files_touched == 1 and r.added_lines == 3


def test_final_diff_read_from_the_repository_check() -> None:
    t = traj([])
    t.verifier = VerifierResult(meta={"diff": PATCH})
    t.meta["reference_patch"] = REFERENCE
    r = run_behavior(t)
    assert r.added_lines == 3 and r.reference_files_touched == 1


def test_text_protocol_fenced_blocks() -> None:
    msgs = [Message(role="user", content="go"),
            Message(role="assistant", content="Let me look.\n```bash\ncat a.py\n```"),
            Message(role="tool", content=WORDS),
            Message(role="assistant", content="```python\nprint(1)\n```")]
    t = Trajectory(episode_id="e", task_id="t", messages=msgs)
    acts = actions(t)
    assert [(a.command, a.tool) for a in acts] == [("cat a.py", "bash")]
    assert acts[0].output == WORDS


def test_summary_over_runs() -> None:
    a = traj([("cat a", WORDS), ("cat b", WORDS), ("pytest", "ok")], final_diff=PATCH)
    b = traj([("ls", "x")], final_diff="")
    s = behavior_summary([a, b], references={"t": REFERENCE})
    assert s["runs"] == 2
    assert s["mean_retrieval_calls"] == 1.5
    assert s["repeated_retrieved_share"] == 0.5   # pooled: 9 of 18 spans
    assert s["mean_added_lines"] == 1.5            # (3 + 0) / 2
    assert s["mean_reference_files_touched"] == 0.5
    assert s["formal_test_share"] == 0.5
    assert behavior_summary([]) == {"runs": 0}
