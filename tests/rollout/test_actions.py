from autointeract.rollout.actions import (
    SUBMIT_MARKER,
    extract_code,
    format_observation,
    parse_bash_action,
    parse_text_action,
)
from autointeract.sandbox.base import ExecResult


def test_python_block_runs():
    calls = parse_text_action("Let me try:\n```python\nprint(1)\n```\nthen more")
    assert [(c.name, c.arguments) for c in calls] == [("run_python", {"code": "print(1)\n"})]


def test_bash_block_runs_and_only_first_block_counts():
    calls = parse_text_action("```bash\nls -la\n```\n```python\nprint(2)\n```")
    assert [(c.name, c.arguments) for c in calls] == [("bash", {"command": "ls -la"})]


def test_submit_line_then_block_submits():
    text = "Done.\nSUBMIT\n```python\ndef f():\n    return 1\n```"
    calls = parse_text_action(text)
    assert calls[0].name == "submit"
    assert calls[0].arguments["solution"] == "def f():\n    return 1\n"


def test_submit_word_inside_prose_is_not_a_submit():
    calls = parse_text_action("I will submit soon\n```python\nx = 1\n```")
    assert calls[0].name == "run_python"


def test_plain_text_and_unknown_language_are_messages():
    assert parse_text_action("What should happen with negative numbers?") == []
    assert parse_text_action("```json\n{}\n```") == []


def test_bash_protocol_needs_exactly_one_block():
    assert parse_bash_action("```bash\nls\n```")[0].arguments == {"command": "ls"}
    assert parse_bash_action("```bash\nls\n```\n```bash\npwd\n```") == []
    assert parse_bash_action("no command here") == []
    assert parse_bash_action(f"```bash\necho {SUBMIT_MARKER}\n```")[0].name == "submit"


def test_extract_code_takes_last_python_block():
    assert extract_code("a\n```python\nx=1\n```\nb\n```python\nx=2\n```") == "x=2\n"
    assert extract_code("no code") is None


def test_observation_caps_output_and_points_at_the_file():
    res = ExecResult(exit_code=0, stdout="x" * 5000, stdout_bytes=900_000,
                     stdout_truncated=True, stdout_path=".sandbox/run-1.stdout")
    text = format_observation(res, max_chars=100)
    assert "x" * 100 in text and "x" * 101 not in text
    assert ".sandbox/run-1.stdout" in text and "900000 bytes" in text
    assert "truncated" not in format_observation(ExecResult(exit_code=0, stdout="ok\n"))


def test_block_cut_by_max_tokens_still_counts():
    calls = parse_text_action("Here:\n```python\ndef f(x):\n    return x +")
    assert calls[0].name == "run_python" and calls[0].arguments["code"].endswith("x +")
