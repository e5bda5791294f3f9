from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from autointeract.config import ModelConfig
from autointeract.history.commands import app
from autointeract.history.corpus import read_sessions_jsonl
from autointeract.pipeline import PipelineConfig, StageContext, resolve_stage

runner = CliRunner()


def test_ingest_then_stats_json(sample_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "h" / "sessions.jsonl"
    res = runner.invoke(app, ["ingest", str(sample_dir), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "wrote 12 sessions" in res.output
    sessions = read_sessions_jsonl(out)
    assert len(sessions) == 12
    assert all("act" in m.meta for s in sessions for m in s.user_turns())
    assert (out.parent / "stats.json").is_file()
    res = runner.invoke(app, ["stats", str(out), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["format"] == "jsonl" and data["n_sessions"] == 12 and data["n_user_turns"] > 40
    assert 0 < data["pushback_rate"] < 1


def test_stats_table_and_skipped_files(make_task: Callable[..., Path], tmp_path: Path) -> None:
    make_task("good")
    make_task("broken", raw=b"{oops")
    res = runner.invoke(app, ["stats", str(tmp_path / "tasks")])
    assert res.exit_code == 0, res.output
    assert "pushback_rate" in res.output and "n_sessions" in res.output
    assert "skipped 1 file" in res.output and "broken" in res.output


def test_bad_source_is_a_one_line_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["stats", str(tmp_path / "missing")])
    assert res.exit_code != 0
    res = runner.invoke(app, ["ingest", str(tmp_path), "--out", "x.jsonl", "--labeler", "gpt"])
    assert res.exit_code != 0


def test_pipeline_stage(sample_dir: Path, tmp_path: Path) -> None:
    run = resolve_stage("history")
    ctx = StageContext(run_dir=tmp_path / "run", seed=0, config=PipelineConfig())
    out = run(ctx, {"source": str(sample_dir), "max_sessions": 5})
    assert out["n_sessions"] == 5 and out["skipped"] == []
    assert Path(out["sessions_path"]) == tmp_path / "run" / "history" / "sessions.jsonl"
    stats = json.loads(Path(out["stats_path"]).read_text())
    assert stats["n_sessions"] == 5 and out["stats"]["n_user_turns"] == stats["n_user_turns"]


def test_pipeline_stage_rejects_unknown_params(tmp_path: Path) -> None:
    import pytest

    from autointeract.errors import ConfigError

    ctx = StageContext(run_dir=tmp_path, seed=0, config=PipelineConfig(), config_file="p.yaml")
    with pytest.raises(ConfigError, match="stages.0.params.sourze"):
        resolve_stage("history")(ctx, {"source": "x", "sourze": "y"})


def test_pipeline_stage_llm_labeler_uses_the_run_client(sample_dir: Path, tmp_path: Path,
                                                         monkeypatch) -> None:
    from dspy.utils import DummyLM

    import autointeract.llm.dspy_lm as dspy_lm

    seen = {}

    def fake_make(client, model, *, stage):  # the real factory needs a model endpoint
        seen.update(model=model, stage=stage)
        return DummyLM([{"act": "other"}] * 100)

    monkeypatch.setattr(dspy_lm, "make_dspy_lm", fake_make)
    cfg = PipelineConfig(models={"labeler": ModelConfig(model="scripted/x")})
    ctx = StageContext(run_dir=tmp_path / "run", seed=0, config=cfg)
    ctx._llm = object()
    out = resolve_stage("history")(ctx, {"source": str(sample_dir / "csv-dedupe-terse"),
                                         "labeler": "llm", "model": "labeler"})
    assert seen == {"model": cfg.models["labeler"], "stage": "history"}
    sessions = read_sessions_jsonl(out["sessions_path"])
    assert {m.meta["act_source"] for m in sessions[0].user_turns()} == {"llm"}
