from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner


from autointeract.errors import ConfigError
from autointeract.pipeline import STAGES, PipelineConfig, StageContext
from autointeract.scenarios.commands import app
from autointeract.scenarios.stage import read_tasks, run


def _ctx(tmp_path, seed=0):
    return StageContext(run_dir=tmp_path, seed=seed, config=PipelineConfig(), config_file="p.yaml")


def test_stage_is_registered():
    assert STAGES["scenarios"] == "autointeract.scenarios.stage:run"


def test_stage_writes_tasks_jsonl(tmp_path, root, monkeypatch):
    monkeypatch.chdir(root)
    out = run(_ctx(tmp_path, seed=4), {"sources_file": "scenarios/demo.yaml"})
    tasks = read_tasks(out["path"])
    assert out["n_tasks"] == len(tasks) == 11
    assert out["per_family"] == {"builtin": 10, "swetogether": 1}
    out2 = run(_ctx(tmp_path / "again", seed=4), {"sources_file": "scenarios/demo.yaml"})
    assert (tmp_path / "tasks.jsonl").read_text() == (tmp_path / "again" / "tasks.jsonl").read_text()


def test_stage_rejects_duplicate_ids_and_bad_params(tmp_path):
    with pytest.raises(ConfigError, match="duplicate task id"):
        run(_ctx(tmp_path), {"sources": [{"family": "builtin"}, {"family": "builtin"}]})
    with pytest.raises(ConfigError) as exc:
        run(_ctx(tmp_path), {"sources": [{"family": "builtin", "colour": 1}]})
    assert exc.value.field == "stages.0.params.sources.0.colour"


def test_cli_show_export(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["show", "builtin", "-o", "limit=2", "--full"])
    assert res.exit_code == 0 and "user:" in res.output
    out = tmp_path / "t.jsonl"
    res = runner.invoke(app, ["export", "builtin", str(out), "-o", "seed=2", "-o", "limit=3"])
    assert res.exit_code == 0, res.output
    assert len(out.read_text().splitlines()) == 3
    prov = json.loads((tmp_path / "scenarios_builtin.provenance.json").read_text())
    assert prov["seed"] == 2 and prov["n_tasks"] == 3
