"""Pure output comparisons for the competitive-programming judge."""

from __future__ import annotations

import json
import math
from typing import Any


def normalize_stdout(text: str) -> list[str]:
    """Lines with surrounding whitespace stripped and trailing blank lines dropped."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def stdout_matches(got: str, expected: str) -> bool:
    """Whitespace-tolerant equality: line by line, then token by token within each line."""
    g, e = normalize_stdout(got), normalize_stdout(expected)
    if g == e:
        return True
    if len(g) != len(e):
        return False
    return all(a.split() == b.split() for a, b in zip(g, e, strict=True))


def values_match(got: Any, expected: Any, *, rel_tol: float = 1e-6, abs_tol: float = 1e-9) -> bool:
    """Structural equality of JSON values; floats within tolerance; lists equal tuples.

    Booleans are never numbers here (``true`` does not match ``1``).
    """
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(got, bool) and isinstance(expected, bool) and got == expected
    if isinstance(expected, int | float) and isinstance(got, int | float):
        if isinstance(expected, int) and isinstance(got, int):
            return got == expected
        if math.isnan(expected) or math.isnan(got):
            return math.isnan(expected) and math.isnan(got)
        return math.isclose(got, expected, rel_tol=rel_tol, abs_tol=abs_tol)
    if isinstance(expected, list | tuple) and isinstance(got, list | tuple):
        return len(got) == len(expected) and all(
            values_match(a, b, rel_tol=rel_tol, abs_tol=abs_tol)
            for a, b in zip(got, expected, strict=True))
    if isinstance(expected, dict) and isinstance(got, dict):
        return got.keys() == expected.keys() and all(
            values_match(got[k], expected[k], rel_tol=rel_tol, abs_tol=abs_tol) for k in expected)
    return type(got) is type(expected) and got == expected


def parse_expected(text: str) -> Any:
    """An expected functional output: JSON, else the stripped text as a string."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()
