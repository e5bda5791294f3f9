"""The ``autointeract eval`` CLI and the ``eval`` pipeline stage, with scripted models
served through litellm (the same code path as real models)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from autointeract.llm import ScriptedModel
from autointeract.scenarios import load_tasks


WRONG = "def f(*a):\n    return 42\n"


@pytest.fixture(scope="module")
def cli():  # noqa: ANN201
    from autointeract.cli import _register, app

    _register()
    return app


def model(references: dict[str, str], *, solve: bool) -> str:
    def reply(messages: list[dict]) -> str:
        opening = next(m["content"] for m in messages if m["role"] == "user")
        code = references.get(opening.strip(), "") if solve else ""
        code = code or WRONG
        return f"SUBMIT\n```python\n{code}\n```"
    return ScriptedModel([reply], cycle=True).model


def eval_yaml(tmp_path: Path, agent_model: str, name: str) -> Path:
    cfg = {"name": name, "out_dir": str(tmp_path / "{name}"), "k": 2,
           "llm": {"cache_dir": None, "max_retries": 0},
           "benchmarks": [{"family": "builtin", "limit": 2}],
           "agent": {"model": agent_model, "tool_mode": "text", "max_turns": 2},
           "user": {"prompted": {"max_user_turns": 2}}, "n_boot": 200}
    p = tmp_path / f"{name}.yaml"
    p.write_text(yaml.safe_dump(cfg))
    return p


def test_eval_run_and_default_form_then_compare(cli, tmp_path: Path,  # noqa: ANN001
                                                references: dict[str, str]) -> None:
    runner = CliRunner()
    weak = eval_yaml(tmp_path, model(references, solve=False), "weak")
    r = runner.invoke(cli, ["eval", "run", str(weak), "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "pass@1" in r.output and "4 episodes run" in r.output
    strong = eval_yaml(tmp_path, model(references, solve=True), "strong")
    r = runner.invoke(cli, ["eval", str(strong), "--no-progress"])      # short form
    assert r.exit_code == 0, r.output
    report = json.loads((tmp_path / "strong" / "report.json").read_text())
    assert report["overall"]["pass@1"] == 1.0
    assert (tmp_path / "strong" / "eval.provenance.json").is_file()
    r = runner.invoke(cli, ["eval", "compare", str(tmp_path / "weak"), str(tmp_path / "strong"),
                            "--n-boot", "200"])
    assert r.exit_code == 0, r.output
    assert "pass@1" in r.output and "+1" in r.output and "behavior" in r.output
    out = tmp_path / "strong" / "compare_vs_weak"
    cmp = json.loads((out / "compare.json").read_text())
    assert next(m for m in cmp["metrics"] if m["metric"] == "pass@1")["ci"] == [1.0, 1.0]
    assert (out / "compare.png").is_file()


def test_user_errors_are_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "bad.yaml"
    bad.write_text("k: 0\n")
    p = subprocess.run([sys.executable, "-m", "autointeract.cli", "eval", str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "field 'k'" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "autointeract.cli", "eval", "compare",
                        str(tmp_path), str(tmp_path / "x")], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and "not an evaluation folder" in p.stderr


def test_help_has_examples(cli) -> None:  # noqa: ANN001
    r = CliRunner().invoke(cli, ["eval", "run", "--help"])
    assert r.exit_code == 0 and "Examples" in r.output
    r = CliRunner().invoke(cli, ["eval", "compare", "--help"])
    assert r.exit_code == 0 and "autointeract eval compare" in r.output


def test_pipeline_stages_with_compare(tmp_path: Path, references: dict[str, str]) -> None:
    from autointeract.config import load_config
    from autointeract.pipeline import PipelineConfig, run_pipeline

    shipped = yaml.safe_load((Path(__file__).resolve().parents[2] / "pipelines" /
                              "eval_builtin.yaml").read_text())
    shipped["run_dir"] = str(tmp_path / "{name}")
    shipped["llm"] = {"cache_dir": None, "max_retries": 0}
    shipped["models"] = {"weak": {"model": model(references, solve=False)},
                         "strong": {"model": model(references, solve=True)}}
    for st in shipped["stages"]:
        st["params"].update(tool_mode="text", n_boot=200)
    p = tmp_path / "pipe.yaml"
    p.write_text(yaml.safe_dump(shipped))
    ctx = run_pipeline(load_config(PipelineConfig, p), config_file=str(p), log=lambda _: None)
    assert ctx.outputs["weak"]["pass@1"] == 0.0 and ctx.outputs["strong"]["pass@1"] == 1.0
    assert ctx.outputs["strong"]["runs"] == 4
    cmp = json.loads(Path(ctx.outputs["strong"]["compare"]).read_text())
    assert next(m for m in cmp["metrics"] if m["metric"] == "pass@1")["delta"] == 1.0
    tasks = [json.loads(x) for x in (tmp_path / "eval_builtin" / "weak" / "tasks.jsonl")
             .read_text().splitlines()]
    assert [t["task_id"] for t in tasks] == [t.task_id for t in load_tasks("builtin")[:2]]


def test_stage_rejects_unknown_compare_target(tmp_path: Path) -> None:
    from autointeract.errors import ConfigError
    from autointeract.pipeline import PipelineConfig, StageContext

    ScriptedModel(["x"], name="unused")
    cfg = PipelineConfig.model_validate({"stages": [{"stage": "eval", "params": {}}]})
    ctx = StageContext(run_dir=tmp_path, seed=0, config=cfg)
    with pytest.raises(ConfigError, match="field 'stages.0.params.k'"):
        from autointeract.eval.stage import run
        run(ctx, {"k": 0})
