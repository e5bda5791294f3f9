"""One short fit with the embedded models (slow: real llama.cpp generation on the CPU)."""

import pytest

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.users.artifact import load_user_model
from autointeract.users.fit import FitConfig, fit_user_model

pytestmark = pytest.mark.slow


def test_short_real_fit_with_embedded_models(toy_sessions, tmp_path):
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    client = LLMClient(LLMConfig(cache_dir=str(tmp_path / "cache"), local_n_ctx=2048))
    cfg = FitConfig(model="local/smollm2-135m", reflection_model="local/smollm2-135m",
                    budget=3, max_examples=3, val_fraction=0.34, minibatch_size=1,
                    max_tokens=8, reflection_max_tokens=48, context_chars=300, seed=0)
    res = fit_user_model(toy_sessions[:4], name="real", out_dir=tmp_path / "um", client=client,
                         config=cfg, run_dir=tmp_path / "gepa")
    um = load_user_model(res.model_dir)
    assert um.behavior_prompt.strip()
    assert 0.0 <= res.seed_score <= 1.0 and 0.0 <= res.best_score <= 1.0
    assert res.metric_calls >= 1 and um.provenance["models"]["simulator"] == "local/smollm2-135m"
    usage = client.usage.summary()
    assert any(k.startswith("users.fit.simulate") for k in usage)
