"""Fixtures: a quick calibration config over simulated solvers (no LLM, no judge)."""

import pytest

from autointeract.calibrate.config import CalibrateConfig


def quick_config(**over):
    data = {"seeds": {"ids": ["count-vowels", "digit-sums", "fizz-bang"]},
            "weak": {"kind": "skill", "skill": 0.25}, "strong": {"kind": "skill", "skill": 0.85},
            "generator": {"use_llm": False, "check_reference": False}, "verify": "reference",
            "band": {"confidence": 0.8, "max_n": 10, "batch": 2},
            "controller": {"batch": 2, "max_candidates": 8}, "concurrency": 4,
            "progress": False}
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(data.get(k), dict):
            data[k] = {**data[k], **v}
        else:
            data[k] = v
    return CalibrateConfig.model_validate(data)


@pytest.fixture
def quick():
    return quick_config
