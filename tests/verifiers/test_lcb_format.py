from __future__ import annotations

import base64
import json
import pickle
import zlib

import pytest

from autointeract.errors import DataError
from autointeract.verifiers.lcb_format import (
    decode_tests,
    encode_private_tests,
    find_problem,
    load_lcb_jsonl,
    parse_lcb_row,
)


def _row(**kw):
    row = {"question_id": "q1", "question_title": "T", "public_test_cases": json.dumps(
        [{"input": "1\n", "output": "1\n", "testtype": "stdin"}]), "metadata": "{}"}
    row.update(kw)
    return row


def test_sample_file_has_both_kinds_and_encoded_private_tests(sample_path):
    probs = load_lcb_jsonl(sample_path)
    assert 3 <= len(probs) <= 5
    kinds = {p.kind for p in probs}
    assert kinds == {"stdin", "functional"}
    raw = [json.loads(line) for line in sample_path.read_text().splitlines()]
    encoded = [r for r in raw if not r["private_test_cases"].startswith("[")]
    assert encoded, "fixture must hold a base64(zlib(pickle)) private test set"
    peaks = find_problem(probs, "ai-count-peaks")
    assert peaks.func_name == "countPeaks" and len(peaks.private_tests) == 3


def test_to_verifier_spec_orders_public_then_private():
    prob = parse_lcb_row(_row(private_test_cases=encode_private_tests(
        [{"input": "2\n", "output": "2\n", "testtype": "stdin"}])))
    spec = prob.to_verifier_spec(time_limit_s=2)
    assert spec.kind == "stdin" and [t.input for t in spec.tests] == ["1\n", "2\n"]
    assert spec.meta["n_public"] == 1 and spec.time_limit_s == 2
    assert len(prob.to_verifier_spec(include_private=False).tests) == 1


def test_functional_kind_from_metadata():
    prob = parse_lcb_row(_row(metadata=json.dumps({"func_name": "f"})))
    spec = prob.to_verifier_spec()
    assert spec.kind == "functional" and spec.func_name == "f"
    assert all(t.testtype == "functional" for t in spec.tests)


def test_decode_accepts_list_json_and_compressed():
    tests = [{"input": "a", "output": "b", "testtype": "stdin"}]
    assert decode_tests(tests) == tests
    assert decode_tests(json.dumps(tests)) == tests
    assert decode_tests(encode_private_tests(tests)) == tests


def test_decode_refuses_pickled_globals():
    evil = base64.b64encode(zlib.compress(pickle.dumps(print))).decode()
    with pytest.raises(ValueError, match="neither JSON"):
        decode_tests(evil)


@pytest.mark.parametrize(("row", "field"), [
    ({"question_title": "x"}, "row 3.question_id"),
    (_row(public_test_cases="not json, not base64!"), "row 3.public_test_cases"),
    (_row(private_test_cases="eJzLSM3JyVcozy/KSQEAGgQEXQ=="), "row 3.private_test_cases"),
    (_row(metadata="{bad"), "row 3.metadata"),
    (_row(public_test_cases=json.dumps([{"input": "1"}])), "row 3.public_test_cases"),
])
def test_errors_name_file_row_and_field(row, field):
    with pytest.raises(DataError) as info:
        parse_lcb_row(row, file="probs.jsonl", row_index=3)
    assert info.value.file == "probs.jsonl" and info.value.field == field
    assert "probs.jsonl" in str(info.value)


def test_loader_errors(tmp_path, sample_path):
    with pytest.raises(DataError, match="file not found"):
        load_lcb_jsonl(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_row()) + "\n{oops\n")
    with pytest.raises(DataError, match="row 2") as info:
        load_lcb_jsonl(bad)
    assert info.value.file == str(bad)
    with pytest.raises(DataError, match="no problem"):
        find_problem(load_lcb_jsonl(sample_path), "nope")
