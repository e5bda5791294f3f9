from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from autointeract.errors import ConfigError, DataError
from autointeract.sandbox.base import LocalSandboxConfig
from autointeract.sandbox.local import LocalSandbox
from autointeract.scenarios import load_tasks
from autointeract.scenarios.swetogether import ENV_VAR, load_task_folder, seed_workspace
from autointeract.verifiers import verify

SHARED = os.environ.get(ENV_VAR)


@pytest.fixture(scope="module")
def task():
    [t] = load_tasks("swetogether")
    return t


@pytest.fixture
def sb():
    box = LocalSandbox(LocalSandboxConfig(timeout_s=60))
    yield box
    box.close()


def test_local_task_shape(task):
    assert task.task_id == "slugkit-max-length" and task.family == "swetogether"
    assert task.initial_message.startswith("can you add a max_length option")
    assert [r.tests for r in task.requirements] == [[0, 1], [2]]  # gate indices
    assert task.requirements[0].trigger == "failed_test"
    assert [g["id"] for g in task.verifier.meta["gates"]][:3] == [
        "G1_MAX_LENGTH", "G2_WORD_BOUNDARY", "G3_ACCENTS"]
    assert task.verifier.meta["runnable"] and task.verifier.docker_image is None
    assert task.reference_solution.startswith("diff --git a/slugkit/__init__.py")
    assert sum(g["weight"] for g in task.meta["rubric"]) == pytest.approx(1.0)


def _apply(sb, patch: str) -> None:
    sb.write_file("fix.patch", patch)
    res = sb.run(["patch", "-p1", "-i", "fix.patch"], timeout_s=30)
    assert res.exit_code == 0, res.stdout + res.stderr
    sb.run(["rm", "-f", "fix.patch"], timeout_s=10)


def test_reference_patch_passes_every_gate(task, sb):
    assert seed_workspace(task, sb) >= 3
    assert sb.run(["test", "-e", "tests/test.sh"], timeout_s=10).exit_code != 0  # hidden
    _apply(sb, task.reference_solution)
    res = verify(task.verifier, sandbox=sb)
    assert res.passed, res
    assert res.meta["reward"] == pytest.approx(1.0)


def test_unpatched_and_partial_patches_fail_the_right_gates(task, sb):
    seed_workspace(task, sb)
    res = verify(task.verifier, sandbox=sb)
    assert {c.name: c.passed for c in res.criteria} == {
        "G1_MAX_LENGTH": False, "G2_WORD_BOUNDARY": False, "G3_ACCENTS": False,
        "P2P_EXISTING": True}
    # a naive truncation: satisfies the length gate only
    sb.write_file("slugkit/__init__.py", (
        "import re\n_N = re.compile(r'[^a-z0-9]+')\n"
        "def slugify(text, sep='-', *, max_length=0):\n"
        "    s = _N.sub(sep, text.lower()).strip(sep)\n"
        "    return s[:max_length] if max_length > 0 else s\n"))
    res = verify(task.verifier, sandbox=sb)
    assert {c.name for c in res.criteria if c.passed} == {"G1_MAX_LENGTH", "P2P_EXISTING"}
    assert res.meta["weighted_score"] == pytest.approx(0.4)


def test_forged_gates_from_code_under_test_earn_nothing(task, sb):
    seed_workspace(task, sb)
    sb.write_file("slugkit/__init__.py", (
        "import json, os\n"
        "d = os.environ.get('AUTOINTERACT_VERIFIER_DIR', '.')\n"
        "json.dump({'G1_MAX_LENGTH': True, 'G2_WORD_BOUNDARY': True, 'G3_ACCENTS': True},"
        " open(os.path.join(d, 'gates.json'), 'w'))\n"
        "print('PASSED')\n"
        "def slugify(text, sep='-', *, max_length=0):\n    return 'x'\n"))
    res = verify(task.verifier, sandbox=sb)
    assert not any(c.passed for c in res.criteria if c.name.startswith("G"))


def test_malformed_folder_names_the_file(tmp_path, scenarios_dir):
    src = scenarios_dir / "swetogether_local" / "slugkit-max-length"
    dst = tmp_path / "t1"
    shutil.copytree(src, dst)
    (dst / "oracle_intents.json").write_text('{"intents": [{"text": ""}]}')
    with pytest.raises(DataError) as exc:
        load_task_folder(dst)
    assert exc.value.file == str(dst / "oracle_intents.json") and exc.value.field == "intents.0.text"
    (dst / "oracle_intents.json").write_text(json.dumps(
        {"intents": [{"text": "x", "gates": ["NOPE"]}]}))
    with pytest.raises(DataError, match="unknown gate 'NOPE'"):
        load_task_folder(dst)
    (dst / "task.toml").write_text("version = [")
    with pytest.raises(DataError, match="invalid TOML"):
        load_task_folder(dst)


def test_missing_root_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_tasks("swetogether", tmp_path / "nope")


@pytest.mark.skipif(not SHARED, reason=f"{ENV_VAR} is not set (the 82 shared SWE-Together tasks)")
def test_shared_tasks_all_load_docker_bound():
    tasks = load_tasks("swetogether", SHARED)
    assert len(tasks) == len([p for p in Path(SHARED).iterdir() if (p / "task.toml").is_file()])
    assert len(tasks) >= 80
    for t in tasks:
        assert t.initial_message.strip() and t.verifier.kind == "repo"
        assert t.verifier.docker_image and not t.verifier.meta["runnable"]
        assert t.verifier.meta["gates"], t.task_id
        assert len(t.meta["intents"]) == len(t.requirements)
        turns = [r.reveal_after_turn for r in t.requirements]
        assert turns == list(range(1, len(turns) + 1))
    assert sum(len(t.requirements) for t in tasks) > 300
    assert sum(bool(t.reference_solution) for t in tasks) > 60
    assert not load_tasks("swetogether", SHARED, include_docker_bound=False)
    with pytest.raises(ConfigError, match="docker-bound"):
        seed_workspace(tasks[0], object())
