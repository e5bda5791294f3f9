from __future__ import annotations

import pytest

from autointeract.verifiers.compare import parse_expected, stdout_matches, values_match


@pytest.mark.parametrize(("got", "exp", "ok"), [
    ("1 2 3\n", "1 2 3", True),
    ("1  2\t3  \r\n\n\n", "1 2 3\n", True),
    ("  6\n", "6\n", True),
    ("1\n2\n", "1 2\n", False),
    ("6", "7", False),
    ("", "0", False),
    ("Accepted\n", "6\n", False),
])
def test_stdout_whitespace_tolerance(got, exp, ok):
    assert stdout_matches(got, exp) is ok


@pytest.mark.parametrize(("got", "exp", "ok"), [
    (3.5000000001, 3.5, True),
    (3.6, 3.5, False),
    ([1, 2], [1, 2], True),
    ((1, 2), [1, 2], True),
    ([1, 2], [2, 1], False),
    (True, 1, False),
    (1, True, False),
    (1, 1.0, True),
    ({"a": [1.0]}, {"a": [1.0000000001]}, True),
    ("6", 6, False),
    (None, None, True),
    (float("nan"), float("nan"), True),
])
def test_values_match(got, exp, ok):
    assert values_match(got, exp) is ok


def test_parse_expected():
    assert parse_expected("[1, 2]") == [1, 2]
    assert parse_expected('"ab"') == "ab"
    assert parse_expected("not json ") == "not json"
