"""Leak audit of finished datasets against an evaluation's benchmarks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autointeract.errors import DataError
from autointeract.eval.audit import audit_paths, firewall_for
from autointeract.eval.config import EvalConfig
from autointeract.scenarios import load_tasks


def write_dataset(d: Path, *, leak: bool) -> Path:
    from autointeract.dataset.rows import ChatMessage, RLRow, SFTRow, write_rows

    builtin = load_tasks("builtin")
    novel = builtin[0].model_copy(update={
        "task_id": "novel", "hidden_goal": "Given meeting intervals in minutes, print the "
        "longest stretch of free time between 9:00 and 17:00 as hours and minutes.",
        "initial_message": "How much free time do I have today?", "requirements": [],
        "reference_solution": None, "verifier": builtin[0].verifier.model_copy(update={"tests": []})})
    rl = [RLRow.from_task(novel)] + ([RLRow.from_task(builtin[2])] if leak else [])
    write_rows(d / "rl.jsonl", rl)
    sft = [SFTRow(id="s1", task_id="novel", messages=[
        ChatMessage(role="user", content=novel.initial_message),
        ChatMessage(role="assistant", content="ok")])]
    if leak:
        sft.append(SFTRow(id="s2", task_id="x", messages=[
            ChatMessage(role="user", content=builtin[5].hidden_goal)]))
    write_rows(d / "sft.jsonl", sft)
    (d / "notes.txt").write_text("not a jsonl file")
    return d


def test_audit_finds_exactly_the_leaked_rows(tmp_path: Path) -> None:
    builtin = load_tasks("builtin")
    fw = firewall_for(EvalConfig.model_validate({"benchmarks": [{"family": "builtin"}]}))
    clean = audit_paths([write_dataset(tmp_path / "clean", leak=False)], fw)
    assert clean["rows"] == 2 and clean["leaks"] == [] and len(clean["files"]) == 2
    dirty = audit_paths([write_dataset(tmp_path / "dirty", leak=True)], fw)
    assert dirty["rows"] == 4
    assert sorted(x["item"] for x in dirty["leaks"]) == sorted([builtin[2].task_id,
                                                                builtin[5].task_id])
    with pytest.raises(DataError):
        audit_paths([tmp_path / "missing"], fw)


def test_audit_cli_exit_code(tmp_path: Path) -> None:
    from autointeract.cli import _register, app

    _register()
    cfg = tmp_path / "eval.yaml"
    cfg.write_text("benchmarks: [{family: builtin}]\n")
    r = CliRunner().invoke(app, ["eval", "audit", str(cfg),
                                 str(write_dataset(tmp_path / "c", leak=False))])
    assert r.exit_code == 0 and "0 match(es)" in r.output, r.output
    out = tmp_path / "audit.json"
    r = CliRunner().invoke(app, ["eval", "audit", str(cfg), str(write_dataset(tmp_path / "d",
                                 leak=True)), "-o", str(out)])
    assert r.exit_code == 1 and "LEAK" in r.output and "2 match(es)" in r.output
    assert len(json.loads(out.read_text())["leaks"]) == 2
    pipe = Path(__file__).resolve().parents[2] / "pipelines" / "eval_builtin.yaml"
    r = CliRunner().invoke(app, ["eval", "audit", str(pipe), str(tmp_path / "d")])
    # the pipeline evaluates the first two builtin tasks only: the leaked ones are not among them
    assert r.exit_code == 0 and "against 2 benchmark items: 0 match" in r.output, r.output
