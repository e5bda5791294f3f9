from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from autointeract.errors import ConfigError
from autointeract.sandbox.base import ExecResult, LocalSandboxConfig
from autointeract.sandbox.local import LocalSandbox
from autointeract.types import VerifierSpec
from autointeract.verifiers import verify
from autointeract.verifiers.repo import (
    RepoRun,
    RepoVerifierConfig,
    copy_into,
    grade_repo,
    parse_gates,
    verify_repo,
)

FIXED = "def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n"
BUGGY = FIXED.replace("a + b", "a - b")
TEST_SH = textwrap.dedent("""\
    #!/bin/sh
    # trusted verifier: one gate per behaviour, written last
    python3 - <<'PY'
    import json, os
    gates = {}
    try:
        from calc import add, mul
        gates["add"] = add(2, 3) == 5
        gates["mul"] = mul(2, 3) == 6
    except Exception:
        gates = {"add": False, "mul": False}
    d = os.environ["AUTOINTERACT_VERIFIER_DIR"]
    json.dump(gates, open(os.path.join(d, "gates.json"), "w"))
    open(os.path.join(d, "reward.txt"), "w").write(str(sum(gates.values()) / len(gates)))
    PY
    """)


@pytest.fixture
def pristine(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "calc.py").write_text(BUGGY)
    (repo / "tests" / "test.sh").write_text(TEST_SH)
    return repo


@pytest.fixture
def spec(pristine: Path) -> VerifierSpec:
    return VerifierSpec(kind="repo", repo_dir=str(pristine), test_command="sh tests/test.sh")


@pytest.fixture
def sb():
    box = LocalSandbox(LocalSandboxConfig(timeout_s=20))
    yield box
    box.close()


def test_unfixed_repo_fails_one_gate(sb, pristine, spec):
    copy_into(sb, pristine)
    res = verify_repo(spec, sb)
    assert {c.name: c.passed for c in res.criteria} == {"add": False, "mul": True}
    assert res.meta["reward"] == 0.5 and res.meta["tampered"] == []


def test_fixed_repo_passes(sb, pristine, spec):
    copy_into(sb, pristine)
    sb.write_file("calc.py", FIXED)
    res = verify(spec, sandbox=sb)
    assert res.passed and res.score == 1.0


def test_editing_the_test_script_earns_nothing(sb, pristine, spec):
    copy_into(sb, pristine)
    forged = ('#!/bin/sh\necho PASSED; echo Accepted\n'
              'echo \'{"add": true, "mul": true}\' > "$AUTOINTERACT_VERIFIER_DIR/gates.json"\n')
    sb.write_file("tests/test.sh", forged)
    sb.write_file("tests/conftest.py", "# planted\n")
    res = verify_repo(spec, sb)
    assert not res.passed and res.score == 0.5  # the real tests ran
    assert res.meta["tampered"] == ["tests/conftest.py", "tests/test.sh"]
    assert sb.read_file("tests/test.sh").decode() == TEST_SH
    with pytest.raises(FileNotFoundError):
        sb.read_file("tests/conftest.py")
    strict = verify_repo(spec, sb,
                         config=RepoVerifierConfig(tamper_policy="fail"))
    assert strict.meta["tampered"] == []  # already restored by the first run


def test_tamper_policy_fail_zeroes_the_result(sb, pristine, spec):
    copy_into(sb, pristine)
    sb.write_file("calc.py", FIXED)
    sb.write_file("tests/test.sh", "exit 0\n")
    res = verify_repo(spec, sb, config=RepoVerifierConfig(tamper_policy="fail"))
    assert res.score == 0 and {c.verdict for c in res.criteria} == {"TAMPERED"}


def test_solution_printing_passed_and_exiting_early_earns_nothing(sb, pristine, spec):
    copy_into(sb, pristine)
    sb.write_file("calc.py", "import os\nprint('PASSED'); print('Accepted')\nos._exit(0)\n")
    res = verify_repo(spec, sb)
    assert res.score == 0 and res.verified


def test_missing_command_or_pristine_copy(sb):
    with pytest.raises(ConfigError, match="test_command"):
        verify_repo(VerifierSpec(kind="repo", repo_dir="/nonexistent"), sb)
    with pytest.raises(ConfigError, match="repo_dir"):
        verify_repo(VerifierSpec(kind="repo", repo_dir="/nonexistent", test_command="true"), sb)


# -- grading (pure) --------------------------------------------------------------------


@pytest.mark.parametrize("gates", [
    {"a": True, "b": False},
    [{"id": "a", "passed": True}, {"id": "b", "passed": False}],
    {"gates": [{"name": "a", "score": 1.0}, {"name": "b", "score": 0.4}]},
    [["a", "pass"], ["b", "fail"]],
    {"a": {"pass": True, "weight": 0.7}, "b": {"pass": False, "weight": 0.3}},
])
def test_gate_shapes(gates):
    crits, _ = parse_gates(json.dumps(gates))
    assert [(c.name, c.passed) for c in crits] == [("a", True), ("b", False)]


def test_weighted_score_and_fallbacks():
    ok = ExecResult(exit_code=0)
    res = grade_repo(RepoRun(exec=ok, gates_json=json.dumps(
        {"a": {"passed": True, "weight": 0.75}, "b": {"passed": False, "weight": 0.25}})))
    assert res.meta["weighted_score"] == 0.75 and res.score == 0.5
    assert grade_repo(RepoRun(exec=ok, reward_txt="1.0\n")).passed
    assert not grade_repo(RepoRun(exec=ok, reward_txt="0.3")).passed
    assert not grade_repo(RepoRun(exec=ok)).passed  # exiting 0 without a report earns nothing
    assert grade_repo(RepoRun(exec=ok), exit_code_fallback=True).passed
    assert not grade_repo(RepoRun(exec=ExecResult(exit_code=0, limit="wall")),
                          exit_code_fallback=True).passed
    bad = grade_repo(RepoRun(exec=ok, gates_json="PASSED"))
    assert not bad.verified and "gates.json" in bad.error and not bad.passed
    spawn = grade_repo(RepoRun(exec=ExecResult(exit_code=127, limit="spawn", error="no sh")))
    assert not spawn.verified
