"""A small finished calibration run (simulated solvers), shared by the dataset tests."""

import pytest

from autointeract.calibrate.config import CalibrateConfig
from autointeract.calibrate.loop import run_calibration


@pytest.fixture(scope="session")
def cal_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("cal")
    cfg = CalibrateConfig.model_validate({
        "seeds": {"ids": ["count-vowels", "digit-sums"]},
        "weak": {"kind": "skill", "skill": 0.25}, "strong": {"kind": "skill", "skill": 0.85},
        "generator": {"use_llm": False, "check_reference": False}, "verify": "reference",
        "band": {"confidence": 0.8, "max_n": 6}, "controller": {"max_candidates": 8},
        "progress": False})
    summary = run_calibration(cfg, run_dir=d, client=None, seed=0)
    assert summary["accepted"] >= 1
    return d
