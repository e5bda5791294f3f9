from __future__ import annotations

import json

import pytest

from autointeract.config import LLMConfig
from autointeract.errors import ConfigError
from autointeract.pipeline import PipelineConfig, StageEntry, run_pipeline

from .conftest import SAMPLE_SESSIONS

PARAMS = {"sessions": str(SAMPLE_SESSIONS), "user_model": "fake", "name": "demo", "remeasure": 2,
          "evolve": {"iterations": 1, "batch_size": 2, "n_seeds": 3, "probes": {"n_probes": 1},
                     "archive": {"dims": [5, 5]}}}


def test_profiles_stage_in_a_pipeline(tmp_path) -> None:
    cfg = PipelineConfig(name="t", run_dir=str(tmp_path / "run"), llm=LLMConfig(cache_dir=None),
                         stages=[StageEntry(stage="profiles", params=PARAMS)])
    ctx = run_pipeline(cfg, log=lambda _s: None)
    out = ctx.outputs["profiles"]
    root = tmp_path / "run" / "user_models" / "demo"
    assert out["out_dir"] == str(root) and (root / "profiles.jsonl").is_file()
    assert (root / "profiles_heatmap.png").is_file() and (root / "profiles_archive.npz").is_file()
    assert out["n_elites"] >= 1 and out["cells"] == 25 and len(out["history"]) == 2
    assert out["remeasure"]["n"] == min(2, out["n_elites"])
    assert out["remeasure"]["agree"] == out["remeasure"]["n"]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["profiles"]["real_users"]["n_real"] > 0


def test_stage_reports_bad_params(tmp_path) -> None:
    bad = {**PARAMS, "evolve": {"archive": {"descriptors": ["nope"], "dims": [3]}}}
    cfg = PipelineConfig(name="t", run_dir=str(tmp_path), llm=LLMConfig(cache_dir=None),
                         stages=[StageEntry(stage="profiles", params=bad)])
    with pytest.raises(ConfigError, match="stages.0.params.evolve.archive"):
        run_pipeline(cfg, log=lambda _s: None)
    nosrc = {k: v for k, v in PARAMS.items() if k != "sessions"}
    cfg = PipelineConfig(name="t", run_dir=str(tmp_path), llm=LLMConfig(cache_dir=None),
                         stages=[StageEntry(stage="profiles", params=nosrc)])
    with pytest.raises(ConfigError, match="no sessions"):
        run_pipeline(cfg, log=lambda _s: None)


def test_profiles_stage_reads_the_history_stage_output(tmp_path) -> None:
    params = {k: v for k, v in PARAMS.items() if k not in ("sessions", "remeasure")}
    cfg = PipelineConfig(name="t", run_dir=str(tmp_path / "run"), llm=LLMConfig(cache_dir=None),
                         stages=[StageEntry(stage="history", params={"source": str(SAMPLE_SESSIONS)}),
                                 StageEntry(stage="profiles", params=params)])
    ctx = run_pipeline(cfg, log=lambda _s: None)
    assert ctx.outputs["profiles"]["n_elites"] >= 1
