"""The pipeline stages end to end with scripted LLM solvers, a scripted generator and the real
judge: generate (calibration + datasets) then report; and the CLI entry points."""

import json

import pytest
from typer.testing import CliRunner

from autointeract.config import ModelConfig
from autointeract.llm import ScriptedModel
from autointeract.pipeline import PipelineConfig, run_pipeline

GOOD = ("SUBMIT\n```python\ndef count_vowels(text):\n"
        "    return sum(ch in 'aeiou' for ch in text.lower())\n```")
BAD = "SUBMIT\n```python\ndef count_vowels(text):\n    return len(text)\n```"
DRAFT = {"opening": "can u write count_vowels for me", "stated": [0, 1], "hidden": [],
         "constraints": []}


def _pipeline(tmp_path):
    strong = ScriptedModel([GOOD], cycle=True)
    weak = ScriptedModel([BAD], cycle=True)
    gen = ScriptedModel([f"[[ ## variant ## ]]\n{json.dumps(DRAFT)}\n\n[[ ## completed ## ]]"],
                        cycle=True)
    return PipelineConfig.model_validate({
        "name": "t", "seed": 0, "run_dir": str(tmp_path / "run"),
        "llm": {"cache_dir": None, "max_concurrency": 4},
        "models": {"weak": ModelConfig(model=weak.model).model_dump(),
                   "strong": ModelConfig(model=strong.model).model_dump(),
                   "gen": ModelConfig(model=gen.model).model_dump()},
        "stages": [
            {"stage": "generate", "params": {
                "seeds": {"ids": ["count-vowels"]}, "generator": {"model": "gen"},
                "weak": {"model": "weak", "max_turns": 2}, "strong": {"model": "strong",
                                                                       "max_turns": 2},
                "band": {"confidence": 0.75, "max_n": 4}, "controller": {"start_level": 0},
                "progress": False}},
            {"stage": "report"}]})


@pytest.mark.slow
def test_generate_and_report_stages(tmp_path):
    ctx = run_pipeline(_pipeline(tmp_path), log=lambda s: None)
    out = ctx.outputs["generate"]
    assert out["accepted"] == 1 and out["funnel"]["llm_variants"] == 1
    counts = out["dataset"]["counts"]
    assert counts["tasks"] == counts["rl"] == 1 and counts["sft"] >= 3
    run = tmp_path / "run"
    task = json.loads((run / "generate" / "dataset" / "tasks.jsonl").read_text())
    assert task["initial_message"] == DRAFT["opening"] and task["weak_n"] >= 2
    assert (run / "report.html").exists()
    assert (run / "generate" / "generate.config.yaml").exists()
    usage = json.loads((run / "llm_usage.json").read_text())
    assert usage["rollout.agent"]["calls"] >= 4 and usage["calibrate.generator"]["calls"] >= 1


def test_cli_help_and_errors(tmp_path):
    from autointeract.cli import _register, app

    _register()
    r = CliRunner().invoke(app, ["generate", "--help"])
    assert r.exit_code == 0 and "autointeract generate" in r.output
    r = CliRunner().invoke(app, ["calibrate", "recheck", "--help"])
    assert r.exit_code == 0 and "fresh seeds" in r.output
    r = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert r.exit_code != 0
