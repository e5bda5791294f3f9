import subprocess
import sys

import pytest

from autointeract.config import LLMConfig, load_config, write_provenance
from autointeract.errors import ConfigError
from autointeract.pipeline import PipelineConfig


def write(tmp_path, text):
    p = tmp_path / "p.yaml"
    p.write_text(text)
    return p


def test_yaml_and_dotted_overrides(tmp_path):
    p = write(tmp_path, "name: x\nseed: 1\nllm:\n  max_concurrency: 3\n")
    cfg = load_config(PipelineConfig, p, ["seed=5", "llm.timeout_s=9.5", "models.weak.model=a/b"])
    assert cfg.seed == 5 and cfg.llm.max_concurrency == 3 and cfg.llm.timeout_s == 9.5
    assert cfg.models["weak"].model == "a/b"


def test_unknown_field_names_file_and_field(tmp_path):
    p = write(tmp_path, "name: x\nllm:\n  max_concurency: 3\n")
    with pytest.raises(ConfigError) as err:
        load_config(PipelineConfig, p)
    assert str(p) in str(err.value) and "llm.max_concurency" in str(err.value)


def test_wrong_type_and_bad_override(tmp_path):
    p = write(tmp_path, "seed: many\n")
    with pytest.raises(ConfigError, match="seed"):
        load_config(PipelineConfig, p)
    with pytest.raises(ConfigError, match="key.path=value"):
        load_config(PipelineConfig, None, ["seed"])


def test_provenance_written(tmp_path):
    path = write_provenance(tmp_path / "run", LLMConfig(), seed=7, stage="x")
    text = path.read_text()
    assert '"seed": 7' in text and "pydantic" in text
    assert (tmp_path / "run" / "x.config.yaml").exists()


def test_cli_reports_bad_field_in_one_line(tmp_path):
    p = write(tmp_path, "name: x\nstages:\n  - stage: models_check\n    parms: {}\n")
    r = subprocess.run([sys.executable, "-m", "autointeract.cli", "run", str(p)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert str(p) in lines[0] and "stages.0.parms" in lines[0] and "Traceback" not in r.stderr


def test_import_is_light():
    code = "import sys, autointeract, autointeract.llm; print('litellm' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "False"
