from __future__ import annotations

import re

from autointeract.scenarios.split import (
    soften,
    split_sections,
    statement_requirements,
    vague_request,
)
from autointeract.types import TestCase

CF = """Alice has $n$ boxes in a row. She wants to know the smallest number of moves that makes all boxes equal height. A move adds exactly one block to any box. Boxes of height 0 are allowed. If two answers tie, print the smaller one.

Input

The first line contains $t$ ($1 \\le t \\le 10^4$). Each test has $n$ ($1 \\le n \\le 2 \\cdot 10^5$) and $n$ heights.

Output

For each test print one integer.

Examples

Input
1
3
1 2 3
Output
3

Note

If all boxes are already equal, the answer is 0."""

LEETCODE = """Given an array of integers nums, return the length of the longest strictly increasing run.

Example 1:

Input: nums = [1,3,5,4,7]
Output: 3
Explanation: The run is [1,3,5].

Constraints:

1 <= nums.length <= 10^4
-10^9 <= nums[i] <= 10^9"""

TESTS = [TestCase(input="1\n3\n1 2 3\n", output="3\n"), TestCase(input="1\n1\n5\n", output="0\n"),
         TestCase(input="1\n6\n" + " ".join(["7"] * 6) + "\n", output="0\n")]


def test_codeforces_sections():
    kinds = [s.kind for s in split_sections(CF)]
    assert kinds == ["legend", "input", "output", "examples", "notes"]
    ex = next(s for s in split_sections(CF) if s.kind == "examples")
    assert "1 2 3" in ex.text and "Output" in ex.text  # sample Input/Output stay in the example


def test_leetcode_inline_input_stays_in_example_and_constraints_split_out():
    secs = split_sections(LEETCODE)
    assert [s.kind for s in secs] == ["legend", "examples", "constraints"]
    assert "nums = [1,3,5,4,7]" in secs[1].text
    assert "10^4" in secs[2].text


def test_markdown_and_bold_headings():
    text = "Sum the numbers.\n\n## Input\nA list.\n\n**Output:**\nOne number.\n\n### Constraints\nn <= 5"
    assert [s.kind for s in split_sections(text)] == ["legend", "input", "output", "constraints"]


def test_opening_states_no_bounds_and_is_seeded():
    msgs = {vague_request(CF, seed=s) for s in range(10)}
    assert len(msgs) > 1  # the wording depends on the seed
    for m in msgs:
        assert not re.search(r"\\le|10\^|\$", m)
        assert "smallest number of moves" in m
    assert vague_request(CF, seed=3) == vague_request(CF, seed=3)


def test_soften_drops_bounds_not_meaning():
    assert soften("Given N numbers where 1 <= N <= 100, print the max.") == "Given N numbers, print the max."
    assert soften("Return x if a > b.") == "Return x if a > b."
    assert soften("You are given a word $s$ ($1 \\le |s| \\le 10$).") == "You are given a word s."


def test_requirements_deterministic_and_cover_valid_tests():
    a = statement_requirements(CF, tests=TESTS, n_public=0, seed=5)
    b = statement_requirements(CF, tests=TESTS, n_public=0, seed=5)
    assert a == b
    assert [r.reveal_after_turn for r in a] == list(range(1, len(a) + 1))
    texts = " ".join(r.text for r in a)
    assert "Input format" in texts and "Output format" in texts and "Note" in texts
    assert all(0 <= i < len(TESTS) for r in a for i in r.tests)
    io = next(r for r in a if r.text.startswith("Input format"))
    assert io.trigger == "asked" and io.tests == [0, 1, 2]
    note = next(r for r in a if r.text.startswith("Note"))
    assert note.tests == [1]  # the smallest input: where edge cases live
    orders = {tuple(r.text for r in statement_requirements(CF, tests=TESTS, seed=s))
              for s in range(8)}
    assert len(orders) > 1  # the seed orders the legend details


def test_constraints_cover_the_largest_tests():
    reqs = statement_requirements(LEETCODE, tests=TESTS, n_public=1, seed=0)
    cons = next(r for r in reqs if r.text.startswith("Constraints"))
    assert cons.tests == [2] and cons.trigger == "failed_test"
    ex = next(r for r in reqs if r.text.startswith("For example"))
    assert ex.tests == [0]
