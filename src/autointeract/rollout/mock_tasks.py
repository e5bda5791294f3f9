"""A tiny mock domain: three small tasks with hidden requirements tied to tests.

They double as test fixtures and as the offline demo's fallback when no scenario set is
given (tau2-bench ships its mock domain the same way). Each has a reference solution, so a
scripted agent can pass, fail or half-pass deterministically.
"""

from __future__ import annotations

import json

from autointeract.types import Requirement, TaskSpec, TestCase, VerifierSpec


def _fn_tests(cases: list[tuple[list[object], object]]) -> list[TestCase]:
    return [TestCase(input="\n".join(json.dumps(a) for a in args), output=json.dumps(out),
                     testtype="functional") for args, out in cases]


SUM_EVEN_REF = "def sum_even(nums):\n    return sum(x for x in nums if x % 2 == 0)\n"
SUM_EVEN_NAIVE = "def sum_even(nums):\n    return sum(nums)\n"
SUM_EVEN_POSITIVE = "def sum_even(nums):\n    return sum(x for x in nums if x % 2 == 0 and x > 0)\n"
DEDUPE_REF = ("def dedupe(items):\n    seen, out = set(), []\n    for x in items:\n"
              "        if x not in seen:\n            seen.add(x)\n            out.append(x)\n"
              "    return out\n")
WORDS_REF = "import sys\nprint(len(sys.stdin.read().split()))\n"


def mock_tasks() -> list[TaskSpec]:
    """The mock tasks (fresh objects on every call)."""
    return [
        TaskSpec(
            task_id="mock-sum-even", family="mock",
            initial_message="Can you write a Python function sum_even(nums) that adds up numbers?",
            hidden_goal="sum_even(nums) returns the sum of the even numbers in nums, "
                        "negative even numbers included; 0 for an empty list.",
            requirements=[
                Requirement(text="only the even numbers should be added up", tests=[1, 2]),
                Requirement(text="negative even numbers count too", tests=[2],
                            reveal_after_turn=3),
            ],
            verifier=VerifierSpec(kind="functional", func_name="sum_even", time_limit_s=5,
                                  tests=_fn_tests([([[2, 4]], 6), ([[1, 2, 3, 4]], 6),
                                                   ([[-2, 3, 4]], 2)])),
            reference_solution=SUM_EVEN_REF, difficulty="easy"),
        TaskSpec(
            task_id="mock-dedupe", family="mock",
            initial_message="I need a function dedupe(items) that removes duplicates from a list.",
            hidden_goal="dedupe(items) drops repeated items and keeps the order of first "
                        "appearance.",
            requirements=[Requirement(text="keep the order in which items first appear",
                                      tests=[1])],
            verifier=VerifierSpec(kind="functional", func_name="dedupe", time_limit_s=5,
                                  tests=_fn_tests([([["a", "b", "a"]], ["a", "b"]),
                                                   ([["b", "a", "b", "c"]], ["b", "a", "c"])])),
            reference_solution=DEDUPE_REF, difficulty="easy"),
        TaskSpec(
            task_id="mock-word-count", family="mock",
            initial_message="Write a program that reads text from stdin and prints how many "
                            "words it has.",
            hidden_goal="Count whitespace-separated words over all of stdin (tabs and newlines "
                        "separate words too).",
            requirements=[Requirement(text="tabs and newlines separate words too", tests=[1])],
            verifier=VerifierSpec(kind="stdin", time_limit_s=5,
                                  tests=[TestCase(input="hello world\n", output="2\n"),
                                         TestCase(input="a\tb\nc  d\n", output="4\n")]),
            reference_solution=WORDS_REF, difficulty="easy"),
    ]
