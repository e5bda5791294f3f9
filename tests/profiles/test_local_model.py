"""One tiny measurement with the embedded weak model (slow: real llama.cpp inference)."""

from __future__ import annotations

import asyncio

import pytest

from autointeract.config import LLMConfig, ModelConfig
from autointeract.llm import LLMClient
from autointeract.profiles.measure import ProbeSet, measure_profile
from autointeract.profiles.simulator import make_simulator_factory, word_budget
from autointeract.types import UserProfile


@pytest.mark.slow
def test_embedded_model_measurement_is_reproducible() -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")
    client = LLMClient(LLMConfig(cache_dir=None, max_concurrency=1))
    model = ModelConfig(model="local/smollm2-135m", max_tokens=16)
    factory = make_simulator_factory("styled", client, model, max_tokens=16, use_cache=False)
    probes = ProbeSet(n_probes=1, max_agent_turns=1)
    prof = UserProfile(verbosity=0.2, pushback=0.8)
    a = asyncio.run(measure_profile(factory, prof, probes=probes))
    b = asyncio.run(measure_profile(factory, prof, probes=probes))
    assert a.ok and a.n_user_turns == 2
    assert a.user_turns == b.user_turns and a.features == b.features  # seeded: same text again
    budget = word_budget(0.2)  # 7 words
    assert all(len(t.split()) <= budget for t in a.user_turns[0])
