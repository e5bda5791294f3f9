from __future__ import annotations

import pytest

from autointeract.errors import DataError
from autointeract.scenarios import load_tasks
from autointeract.scenarios.builtin import BuiltinScenario, load_problem_file
from autointeract.verifiers.judge import JudgeConfig, judge

TASKS = load_tasks("builtin")
CFG = JudgeConfig(workers=2)

# plausible first attempts that miss the held-back requirement -> the tests it covers fail
NAIVE = {
    "count-vowels": "def count_vowels(text):\n    return sum(ch in 'aeiou' for ch in text)\n",
    "second-largest": "def second_largest(nums):\n    return sorted(nums)[-2]\n",
    "fizz-bang": ("n = int(input())\nfor i in range(1, n + 1):\n"
                  "    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else "
                  "'Buzz' if i % 5 == 0 else i)\n"),
    "digit-sums": ("n = int(input())\nfor _ in range(n):\n"
                   "    print(sum(int(c) for c in input().strip()))\n"),
}


def test_shipped_problems_are_a_mix():
    assert 8 <= len(TASKS) <= 10
    kinds = {t.verifier.kind for t in TASKS}
    assert kinds == {"functional", "stdin"}
    for t in TASKS:
        assert t.family == "builtin" and t.reference_solution and t.requirements
        assert t.initial_message and t.initial_message != t.hidden_goal
        n = len(t.verifier.tests)
        assert all(0 <= i < n for r in t.requirements for i in r.tests)


@pytest.mark.parametrize("task", TASKS, ids=[t.task_id for t in TASKS])
def test_reference_solution_passes_its_tests(task):
    res = judge(task.verifier, task.reference_solution, config=CFG)
    assert res.passed, [(c.name, c.verdict, c.detail) for c in res.criteria if not c.passed]


@pytest.mark.parametrize("task_id", sorted(NAIVE))
def test_naive_solution_fails_exactly_where_a_requirement_points(task_id):
    task = next(t for t in TASKS if t.task_id == task_id)
    res = judge(task.verifier, NAIVE[task_id], config=CFG)
    assert not res.passed
    failing = {i for i, c in enumerate(res.criteria) if not c.passed}
    covered = {i for r in task.requirements for i in r.tests}
    assert failing <= covered  # every failure can be explained by a held-back requirement


def test_malformed_problem_names_file_and_field(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text("id: x\ntitle: X\nstatement: s\nreference_solution: pass\ntests:\n"
                 "  - {input: '1'}\n")
    with pytest.raises(DataError) as exc:
        load_problem_file(p)
    assert exc.value.file == str(p) and exc.value.field == "tests.0.output"
    p.write_text("id: x\ntitle: X\nstatement: s\nreference_solution: pass\n"
                 "tests: [{input: '1', output: '1'}]\nrequirements: [{text: r, tests: [3]}]\n")
    with pytest.raises(DataError, match="out of range") as exc:
        load_problem_file(p)
    assert exc.value.field == "requirements.0.tests"
    p.write_text("id: [unclosed\n")
    with pytest.raises(DataError, match="invalid YAML"):
        load_problem_file(p)


def test_duplicate_ids_rejected(tmp_path, scenarios_dir):
    src = (scenarios_dir / "builtin" / "count_vowels.yaml").read_text()
    (tmp_path / "a.yaml").write_text(src)
    (tmp_path / "b.yaml").write_text(src)
    with pytest.raises(DataError, match="duplicate id"):
        BuiltinScenario().load(tmp_path)
