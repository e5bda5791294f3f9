from __future__ import annotations

import io
import json
import tarfile
import zipfile

import pytest

from autointeract.errors import DataError
from autointeract.scenarios import load_tasks
from autointeract.scenarios.archives import classify, read_test_pairs
from autointeract.verifiers.judge import judge

SOLUTIONS = {
    "demo-1001A": ("import sys\nd = sys.stdin.read().split()\nt = int(d[0]); p = 1\n"
                   "for _ in range(t):\n    n = int(d[p]); a = list(map(int, d[p+1:p+1+n])); p += 1 + n\n"
                   "    ok = n % 2 == 0 and all((a[i] + a[i+1]) % 2 == 0 for i in range(0, n, 2))\n"
                   "    print('YES' if ok else 'NO')\n"),
    "demo-1001B": ("s = input().strip()\n"
                   "print(next(k for k in range(len(s) + 1) if s[k:] == s[k:][::-1]))\n"),
}


def test_sample_loads_zip_and_folder_archives(scenarios_dir):
    tasks = load_tasks("lcbpro", scenarios_dir / "lcbpro_sample")
    assert [t.task_id for t in tasks] == ["demo-1001A", "demo-1001B"]
    a, b = tasks
    assert a.verifier.time_limit_s == 1.0 and a.verifier.memory_mb == 256
    assert len(a.verifier.tests) == 4 and len(b.verifier.tests) == 5
    assert "$" not in a.initial_message and "10^4" not in a.initial_message
    assert any(r.text.startswith("Example") and r.tests == [0] for r in a.requirements)
    for t in tasks:
        assert judge(t.verifier, SOLUTIONS[t.task_id]).passed
    assert not judge(b.verifier, "print(len(input()) - 1)\n").passed


@pytest.mark.parametrize("name,want", [
    ("1.in", ("in", "1")), ("1.ans", ("out", "1")), ("tests/07.out", ("out", "tests/07")),
    ("input/3.txt", ("in", "#/3")), ("output/3.txt", ("out", "#/3")),
    ("input12.txt", ("in", "#12")), ("12_output.txt", ("out", "12_#")),
    ("__MACOSX/1.in", None), ("checker.cpp", None), ("README", None),
])
def test_classify_member_names(name, want):
    assert classify(name) == want


def test_tar_and_natural_order(tmp_path):
    buf = tmp_path / "p.tar.gz"
    with tarfile.open(buf, "w:gz") as tf:
        for k in (10, 2, 1):
            for ext, text in ((".in", f"{k}\n"), (".out", f"{2 * k}\n")):
                data = text.encode()
                info = tarfile.TarInfo(f"{k}{ext}")
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    assert [i for i, _ in read_test_pairs(buf)] == ["1\n", "2\n", "10\n"]


def test_archive_errors(tmp_path):
    z = tmp_path / "x.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("1.in", "1")
    with pytest.raises(DataError, match="no matching output"):
        read_test_pairs(z)
    (tmp_path / "bad.zip").write_bytes(b"not a zip")
    with pytest.raises(DataError, match="unreadable"):
        read_test_pairs(tmp_path / "bad.zip")


def test_missing_archive_is_an_error_unless_skipped(tmp_path):
    rows = [{"problem_id": "p1", "problem_title": "P", "difficulty": "easy",
             "problem_statement": "Print 1."}]
    (tmp_path / "problems.jsonl").write_text(json.dumps(rows[0]) + "\n")
    with pytest.raises(DataError, match="no test archive") as exc:
        load_tasks("lcbpro", tmp_path)
    assert exc.value.field == "row 1.problem_id"
    assert load_tasks("lcbpro", tmp_path, skip_missing_tests=True) == []


def test_row_without_statement_names_field(tmp_path):
    (tmp_path / "problems.jsonl").write_text(json.dumps({"problem_id": "p1"}) + "\n")
    with pytest.raises(DataError) as exc:
        load_tasks("lcbpro", tmp_path / "problems.jsonl")
    assert exc.value.field == "row 1.problem_statement"
