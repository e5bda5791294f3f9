"""The ``autointeract users`` CLI on a temporary copy of a few task folders, with fake models."""

import json
import shutil
from pathlib import Path

import pytest

from autointeract.cli import main
from autointeract.llm import ScriptedModel
from autointeract.users.fakes import directive_following_user, feedback_reflector

REPO = Path(__file__).resolve().parents[2]


def copy_tasks(src: Path, dst: Path, n: int) -> Path:
    dst.mkdir()
    for d in sorted(p for p in src.iterdir() if (p / "original_session.json").is_file())[:n]:
        shutil.copytree(d, dst / d.name)
    return dst


def run_cli(args, capsys):
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def fit_then_fidelity(tasks: Path, tmp_path: Path, capsys) -> dict:
    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)
    code, out, err = run_cli(["users", "fit", "--sessions", str(tasks), "--name", "cli",
                              "--model", sim.model, "--reflection-model", refl.model,
                              "--budget", "14", "--max-examples", "8", "--out",
                              str(tmp_path / "um"), "--run-dir", str(tmp_path / "gepa"),
                              "--cache-dir", ""], capsys)
    assert code == 0, err
    assert "saved" in out and (tmp_path / "um" / "cli" / "behavior_prompt.md").is_file()
    code, out, err = run_cli(["users", "fidelity", "--sessions", str(tasks), "--user-model",
                              str(tmp_path / "um" / "cli"), "--json", "--max-examples", "6",
                              "--cache-dir", ""], capsys)
    assert code == 0, err
    rep = json.loads(out)
    assert set(rep["models"]) == {"seed", "fitted"}
    assert rep["simulator"] == sim.model  # taken from the model's provenance
    return rep


def test_fit_and_fidelity_on_shipped_sample_copy(tmp_path, capsys):
    tasks = copy_tasks(REPO / "data" / "sessions", tmp_path / "tasks", 5)
    rep = fit_then_fidelity(tasks, tmp_path, capsys)
    assert rep["n_examples"] >= 2 and not rep["heldout"]["overlaps_training"]
    assert rep["heldout"]["excluded_training"] >= 1
    assert 0.0 <= rep["models"]["fitted"]["act_tvd"] <= 1.0
    code, out, err = run_cli(["users", "fidelity", "-s", str(tasks), "-u", str(tmp_path / "um" / "cli"),
                              "--max-examples", "4", "--cache-dir", ""], capsys)
    assert code == 0, err
    assert "discriminator acc" in out and "seed" in out and "fitted" in out
    assert "held-out turns" in out


def test_cli_on_unseen_shared_task_folders(shared_tasks, tmp_path, capsys):
    tasks = copy_tasks(shared_tasks, tmp_path / "tasks", 4)
    fit_then_fidelity(tasks, tmp_path, capsys)


def test_bad_inputs_print_one_line(tmp_path, capsys):
    code, _, err = run_cli(["users", "fit", "--sessions", str(tmp_path / "nope"), "--name", "x"],
                           capsys)
    assert code == 2 and "no such file" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(["users", "fidelity", "--sessions", str(tmp_path), "--user-model",
                            str(tmp_path)], capsys)
    assert code == 2 and "behavior_prompt.md" in err


def test_help_has_examples(capsys):
    code, out, _ = run_cli(["users", "fit", "--help"], capsys)
    assert code == 0 and "Examples" in out and "--budget" in out
