"""The CLI command and the pipeline stage, with scripted models registered in-process."""

import json

import pytest
import yaml

from autointeract.cli import main
from autointeract.config import LLMConfig, ModelConfig
from autointeract.llm import ScriptedModel
from autointeract.pipeline import PipelineConfig, StageEntry, run_pipeline
from autointeract.rollout.mock_tasks import DEDUPE_REF, SUM_EVEN_REF

GOOD = [lambda msgs: "SUBMIT\n```python\n" + (
    SUM_EVEN_REF if "sum_even" in msgs[-1]["content"] else DEDUPE_REF) + "```"]


def _cli(args):
    with pytest.raises(SystemExit) as exc:
        main(args)
    return exc.value.code


def test_rollout_command_writes_and_resumes(tmp_path, capsys):
    ScriptedModel(GOOD, name="cli-good", cycle=True)
    cfg = {"seeds": [0, 1], "tasks": {"family": "mock", "limit": 2},
           "llm": {"cache_dir": None}, "agents": [{"model": "scripted/cli-good"}],
           "episode": {"sandbox": {"kind": "fake"}}}
    path = tmp_path / "rollout.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = tmp_path / "run" / "traj.jsonl"
    assert _cli(["rollout", str(path), "--out", str(out), "--no-progress"]) == 0
    assert len(out.read_text().splitlines()) == 4
    assert (tmp_path / "run" / "rollout-traj.provenance.json").exists()
    assert _cli(["rollout", str(path), "--out", str(out), "--no-progress",
                 "-c", "seeds=[0,1,2]"]) == 0
    assert len(out.read_text().splitlines()) == 6
    text = capsys.readouterr().out
    assert "2 episodes written, 4 already in" in text and '"pass_rate": 1.0' in text


def test_rollout_command_reports_a_bad_field_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("agents:\n  - model: x/y\n    max_turnz: 3\n")
    assert _cli(["rollout", str(path), "--out", str(tmp_path / "t.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "agents.0.max_turnz" in err and "unknown field" in err and "Traceback" not in err


def test_stage_summarizes_each_solver(tmp_path):
    weak = ScriptedModel(["I am not sure what you mean?"], cycle=True)
    strong = ScriptedModel(GOOD, cycle=True)
    cfg = PipelineConfig(
        name="t", run_dir=str(tmp_path / "run"), llm=LLMConfig(cache_dir=None),
        models={"weak": ModelConfig(model=weak.model), "strong": ModelConfig(model=strong.model)},
        stages=[StageEntry(stage="rollout", params={
            "tasks": {"family": "mock", "limit": 2}, "max_turns": 2,
            "episode": {"sandbox": {"kind": "fake"}}})])
    ctx = run_pipeline(cfg, log=lambda s: None)
    out = ctx.outputs["rollout"]
    assert out["n_tasks"] == 2 and out["new_episodes"] == 4 and not out["failed"]
    assert out["by_solver"]["strong"]["pass_rate"] == 1.0
    assert out["by_solver"]["weak"]["pass_rate"] == 0.0
    assert out["by_solver"]["weak"]["finish_reasons"] == {"max_turns": 2}
    rows = [json.loads(line) for line in (tmp_path / "run" / "trajectories.jsonl").open()]
    assert {r["solver"] for r in rows} == {"weak", "strong"}
