from __future__ import annotations

import json

import pytest

from autointeract.errors import DataError
from autointeract.scenarios import load_tasks
from autointeract.verifiers.judge import judge
from autointeract.verifiers.lcb_format import encode_private_tests

ROW = {
    "question_id": "t-1", "question_title": "Twice", "platform": "atcoder",
    "contest_date": "2025-05-01T00:00:00", "difficulty": "easy", "starter_code": "",
    "question_content": ("Given an integer X, print 2X.\n\nInput\nX\n\nOutput\nOne integer.\n\n"
                         "Constraints\n-10^9 <= X <= 10^9"),
    "public_test_cases": json.dumps([{"input": "2\n", "output": "4\n", "testtype": "stdin"}]),
    "private_test_cases": encode_private_tests([
        {"input": "-3\n", "output": "-6\n", "testtype": "stdin"},
        {"input": "1000000000\n", "output": "2000000000\n", "testtype": "stdin"}]),
    "metadata": "{}",
}


def _write(tmp_path, rows):
    p = tmp_path / "lcb.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


def test_private_tests_are_decoded_and_judged(tmp_path):
    [task] = load_tasks("livecodebench", _write(tmp_path, [ROW]))
    assert len(task.verifier.tests) == 3 and task.verifier.meta["n_public"] == 1
    assert task.meta["contest_date"].startswith("2025-05-01")
    assert "10^9" not in task.initial_message and "print 2X" in task.initial_message
    assert any(r.text.startswith("Constraints") for r in task.requirements)
    assert judge(task.verifier, "print(2 * int(input()))\n").passed
    res = judge(task.verifier, "x = int(input())\nprint(x + x if x > 0 else x)\n")
    assert [c.passed for c in res.criteria] == [True, False, True]


def test_shipped_sample_loads_with_filters(root):
    sample = root / "data" / "problems" / "lcb_sample.jsonl"
    tasks = load_tasks("livecodebench", sample)
    assert len(tasks) == 5
    assert {t.verifier.kind for t in tasks} == {"stdin", "functional"}
    late = load_tasks("livecodebench", sample, after="2025-03-01")
    assert late and all(t.meta["contest_date"][:10] >= "2025-03-01" for t in late)
    assert all(t.meta["platform"] == "leetcode"
               for t in load_tasks("livecodebench", sample, platforms=["leetcode"]))


@pytest.mark.parametrize("field,value", [("private_test_cases", "%%%not-base64%%%"),
                                         ("metadata", "[1, 2"), ("question_id", None)])
def test_malformed_row_names_file_row_and_field(tmp_path, field, value):
    bad = dict(ROW)
    if value is None:
        del bad[field]
    else:
        bad[field] = value
    p = _write(tmp_path, [ROW, bad])
    with pytest.raises(DataError) as exc:
        load_tasks("livecodebench", p)
    assert exc.value.file == str(p)
    assert exc.value.field == f"row 2.{field}"


def test_offline_hub_gives_one_clear_error(monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    with pytest.raises(DataError, match="cannot load from the hub.*local .jsonl"):
        load_tasks("livecodebench", "autointeract-test/no-such-dataset")
