from __future__ import annotations

import json

import pytest

from autointeract.errors import ConfigError, DataError, SandboxUnavailable
from autointeract.scenarios import load_tasks
from autointeract.scenarios.swebench_grade import docker_available, grade_log, run_swebench

F2P = ["test_slugkit.py::test_max_length_cuts_at_separator", "test_slugkit.py::test_accents"]
P2P = ["test_slugkit.py::test_basic", "test_slugkit.py::test_custom_separator"]


@pytest.fixture(scope="module")
def task(scenarios_dir):
    [t] = load_tasks("swebench", scenarios_dir / "swebench_sample" / "instances.jsonl")
    return t


def log(body: str, *, exit_code: int | None, applied: bool = True, before: str = "") -> str:
    head = ">>>>> Applied Patch (pred)\n" if applied else ">>>>> Patch Apply Failed\n"
    tail = f">>>>> Test Exit Code: {exit_code}\n" if exit_code is not None else ""
    return (f"+ git apply -v /tmp/patch.diff\n{head}{before}+ : '>>>>> Start Test Output'\n"
            f">>>>> Start Test Output\n+ pytest -rA test_slugkit.py\n{body}\n"
            f"+ : '>>>>> End Test Output'\n>>>>> End Test Output\n{tail}")


def summary(statuses: dict[str, str]) -> str:
    return "=== short test summary info ===\n" + "\n".join(
        f"{s} {t}" + (" - AssertionError" if s == "FAILED" else "") for t, s in statuses.items())


ALL_PASS = summary({t: "PASSED" for t in F2P + P2P})


def test_instance_becomes_a_multi_turn_task(task):
    assert task.family == "swebench" and task.verifier.kind == "swebench"
    assert task.initial_message.startswith("There's an issue in example/slugkit:")
    assert "max_length=15" not in task.initial_message  # details are held back
    assert task.hidden_goal.startswith("slugify has no way")
    assert len(task.requirements) == 4
    assert "cr-me-br-l-e" in task.requirements[2].text  # "...mangled:" kept with its block
    assert all(r.tests == [0, 1] for r in task.requirements)
    assert task.verifier.meta["instance"]["FAIL_TO_PASS"] == F2P
    assert task.verifier.docker_image == "swebench/sweb.eval.x86_64.example_1776_slugkit-12:latest"


def test_resolved_log(task):
    res = grade_log(task.verifier, log(ALL_PASS, exit_code=0), model_patch="diff")
    assert res.passed and res.meta["resolved"] is True
    assert [c.name for c in res.criteria] == F2P + P2P


def test_one_failing_f2p_test(task):
    body = summary({F2P[0]: "FAILED", F2P[1]: "PASSED", P2P[0]: "PASSED", P2P[1]: "PASSED"})
    res = grade_log(task.verifier, log(body, exit_code=1), model_patch="diff")
    assert not res.passed and res.meta["resolved"] is False
    assert [c.passed for c in res.criteria] == [False, True, True, True]


def test_fake_passed_lines_earn_nothing(task):
    # the patch prints PASSED for every test (e.g. from a conftest hook) but pytest exits 1
    fake = "\n".join(f"PASSED {t}" for t in F2P + P2P)
    res = grade_log(task.verifier, log(fake, exit_code=1), model_patch="diff")
    assert not any(c.passed for c in res.criteria)
    assert res.meta["resolved"] is False and res.error
    # fake lines printed before the test section do not override the real results
    real = summary({F2P[0]: "FAILED", F2P[1]: "FAILED", P2P[0]: "PASSED", P2P[1]: "PASSED"})
    res = grade_log(task.verifier, log(real, exit_code=1, before=fake + "\n"), model_patch="d")
    assert [c.passed for c in res.criteria] == [False, False, True, True]
    # a fake PASSED echoed mid-run is overridden by pytest's own final summary
    res = grade_log(task.verifier, log(fake + "\n" + real, exit_code=1), model_patch="d")
    assert not res.meta["resolved"]


def test_patch_failures_and_missing_patch(task):
    res = grade_log(task.verifier, log(ALL_PASS, exit_code=0, applied=False), model_patch="d")
    assert not any(c.passed for c in res.criteria) and res.error
    res = grade_log(task.verifier, log(ALL_PASS, exit_code=0), model_patch=None)
    assert res.meta["patch_exists"] is False and not res.passed
    res = grade_log(task.verifier, "no markers at all", model_patch="d")
    assert not res.passed


def test_grading_is_pure(task):
    text = log(ALL_PASS, exit_code=0)
    assert grade_log(task.verifier, text, model_patch="d") == \
        grade_log(task.verifier, text, model_patch="d")


def test_malformed_instances(tmp_path, scenarios_dir):
    row = json.loads((scenarios_dir / "swebench_sample" / "instances.jsonl").read_text())
    for field, value, match in (("FAIL_TO_PASS", "[oops", "not a JSON list"),
                                ("FAIL_TO_PASS", "[]", "empty FAIL_TO_PASS"),
                                ("PASS_TO_PASS", json.dumps([1]), "list of test ids"),
                                ("problem_statement", "", "missing or empty")):
        p = tmp_path / "i.jsonl"
        p.write_text(json.dumps({**row, field: value}) + "\n")
        with pytest.raises(DataError, match=match) as exc:
            load_tasks("swebench", p)
        assert exc.value.file == str(p) and exc.value.field == f"row 1.{field}"


@pytest.mark.skipif(docker_available() is None, reason="a docker engine is reachable here")
def test_running_without_docker_is_sandbox_unavailable(task):
    with pytest.raises(SandboxUnavailable, match="docker"):
        run_swebench([task], {task.task_id: task.reference_solution}, run_id="t")


@pytest.mark.docker
@pytest.mark.skipif(docker_available() is not None, reason="needs a docker engine")
def test_harness_requires_harness_ready_instances(task):
    with pytest.raises(ConfigError, match="not harness-ready"):
        run_swebench([task], {task.task_id: task.reference_solution}, run_id="t")
