"""Property tests on malformed inputs: the scenario loaders (LiveCodeBench rows, SWE-Together
task folders, builtin problem files) and the judge (random solutions, random test specs).

Whatever the input, the outcome is a result or a ``DataError``/``ConfigError`` that names the
file (and, for a bad field, the field) -- never another exception.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autointeract.errors import ConfigError, DataError
from autointeract.types import TaskSpec, TestCase, VerifierResult, VerifierSpec

from .helpers import REPO

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                    st.text(max_size=20))
json_values = st.recursive(scalars, lambda c: st.one_of(
    st.lists(c, max_size=3), st.dictionaries(st.text(max_size=8), c, max_size=3)), max_leaves=8)


def tmpdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="ai-prop-"))


# -- LiveCodeBench rows --------------------------------------------------------------------

LCB_FIELDS = ["question_id", "question_title", "question_content", "platform", "contest_date",
              "difficulty", "starter_code", "public_test_cases", "private_test_cases",
              "metadata"]
tests_json = st.lists(st.fixed_dictionaries(
    {}, optional={"input": json_values, "output": json_values,
                  "testtype": st.sampled_from(["stdin", "functional", "other", 3])}), max_size=3)
lcb_value = st.one_of(json_values, tests_json.map(json.dumps), st.just("{}"),
                      st.binary(max_size=20).map(lambda b: b.decode("latin-1")))
lcb_rows = st.one_of(json_values, st.dictionaries(st.sampled_from(LCB_FIELDS), lcb_value,
                                                  max_size=len(LCB_FIELDS)))


@SETTINGS
@given(rows=st.lists(lcb_rows, min_size=1, max_size=3))
def test_lcb_rows_load_or_name_file_and_field(rows: list[Any]) -> None:
    from autointeract.scenarios import load_tasks

    path = tmpdir() / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    try:
        tasks = load_tasks("livecodebench", str(path))
    except DataError as exc:
        assert exc.file and Path(exc.file).name == "rows.jsonl", exc
        assert exc.field and exc.field.startswith("row "), exc
    else:
        assert all(isinstance(t, TaskSpec) for t in tasks)
    finally:
        shutil.rmtree(path.parent)


# -- SWE-Together task folders -----------------------------------------------------------

SWE_TASK = REPO / "scenarios" / "swetogether_local" / "slugkit-max-length"
SWE_FILES = ["task.toml", "instruction.md", "oracle_intents.json", "canonical_goals.json",
             "reference_patch.json"]
file_bodies = st.one_of(
    st.binary(max_size=60),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.just(b""),
    st.dictionaries(st.sampled_from(["intents", "completeness_goals", "patch", "metadata"]),
                    json_values, max_size=3).map(lambda v: json.dumps(v).encode()),
    st.text(max_size=40).map(lambda t: f'[metadata]\ndifficulty = "{t!r}"\n'.encode()))


@SETTINGS
@given(changes=st.dictionaries(st.sampled_from([*SWE_FILES, "-task.toml", "-instruction.md"]),
                               file_bodies, min_size=1, max_size=3))
def test_swetogether_folder_loads_or_names_the_file(changes: dict[str, bytes]) -> None:
    from autointeract.scenarios.swetogether import load_task_folder

    root = tmpdir()
    task = root / SWE_TASK.name
    shutil.copytree(SWE_TASK, task, ignore=shutil.ignore_patterns("environment"))
    for name, body in changes.items():
        if name.startswith("-"):
            (task / name[1:]).unlink(missing_ok=True)
        else:
            (task / name).write_bytes(body)
    try:
        out = load_task_folder(task)
    except DataError as exc:
        assert exc.file and Path(exc.file).parent == task.resolve(), exc
    else:
        assert isinstance(out, TaskSpec) and out.initial_message
    finally:
        shutil.rmtree(root)


# -- builtin problem files ---------------------------------------------------------------

BUILTIN = yaml.safe_load((REPO / "scenarios" / "builtin" / "count_vowels.yaml").read_text())
problem_edits = st.dictionaries(
    st.sampled_from([*BUILTIN, "unknown_key"]),
    st.one_of(st.just(None), json_values,
              st.lists(st.fixed_dictionaries({}, optional={"input": json_values,
                                                           "output": json_values,
                                                           "text": json_values,
                                                           "tests": json_values}), max_size=3)),
    max_size=3)


@SETTINGS
@given(edits=problem_edits, raw=st.one_of(st.none(), st.text(max_size=40)))
def test_builtin_problem_file_loads_or_names_file_and_field(edits: dict[str, Any],
                                                            raw: str | None) -> None:
    from autointeract.scenarios.builtin import BuiltinProblem, load_problem_file

    data = {k: v for k, v in {**BUILTIN, **edits}.items() if v is not None}
    path = tmpdir() / "problem.yaml"
    path.write_text(raw if raw is not None else yaml.safe_dump(data))
    try:
        prob = load_problem_file(path)
    except DataError as exc:
        assert exc.file and Path(exc.file).name == "problem.yaml", exc
        if raw is None and isinstance(data, dict):
            assert exc.field or "YAML" in exc.message or "mapping" in exc.message, exc
    else:
        assert isinstance(prob, BuiltinProblem)
    finally:
        shutil.rmtree(path.parent)


# -- the judge -------------------------------------------------------------------------------

SOLUTIONS = st.one_of(
    st.text(max_size=80),
    st.sampled_from([
        "print(input())", "import sys; sys.exit(3)", "raise SystemExit('x')",
        "def f(*a):\n    return a\n", "class Solution:\n    def f(self, *a):\n        return 1\n",
        "import os; os._exit(0)", "print('PASSED ' * 3)", "while True: pass",
        "def f(x): return float('nan')\n", "print('\\x00\\xff')"]))
test_cases = st.builds(TestCase, input=st.text(max_size=30), output=st.text(max_size=30),
                       testtype=st.sampled_from(["stdin", "functional"]))
specs = st.builds(VerifierSpec, kind=st.sampled_from(["stdin", "functional", "stdin",
                                                     "functional", "repo"]),
                  tests=st.lists(test_cases, min_size=1, max_size=2),
                  func_name=st.one_of(st.none(), st.just("f"), st.text(max_size=12)),
                  time_limit_s=st.just(1.0), memory_mb=st.just(256))


@settings(max_examples=16, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(spec=specs, solution=SOLUTIONS)
def test_judge_gives_a_verdict_or_a_config_error(spec: VerifierSpec, solution: str) -> None:
    from autointeract.verifiers.judge import JudgeConfig, judge

    try:
        res = judge(spec, solution, config=JudgeConfig(time_limit_s=1.0))
    except ConfigError as exc:
        assert exc.field and exc.field.startswith("verifier."), exc
        return
    assert isinstance(res, VerifierResult)
    assert len(res.criteria) == len(spec.tests)
    if solution in ("import sys; sys.exit(3)", "raise SystemExit('x')", "while True: pass"):
        assert not res.passed  # a crash, an exit status or a timeout never passes


ESCAPES = {"test_local_sandbox.py": ["test_paths_cannot_escape",
                                      "test_symlink_planted_by_the_child_does_not_escape"],
           "test_sandbox_faults.py": ["test_fork_bomb_is_capped_and_fully_killed",
                                      "test_writing_outside_the_workdir_is_refused",
                                      "test_network_is_cut",
                                      "test_secrets_in_the_parent_env_are_not_inherited",
                                      "test_process_limit_holds_for_the_dedicated_uid"]}


@pytest.mark.parametrize("suite", sorted(ESCAPES))
def test_sandbox_escape_tests_stay_in_the_suite(suite: str) -> None:
    text = (REPO / "tests" / "sandbox" / suite).read_text()
    for name in ESCAPES[suite]:
        assert f"def {name}(" in text, f"{suite}: {name} is gone"
    assert "pytest.mark.skip(" not in text
