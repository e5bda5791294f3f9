from __future__ import annotations

import asyncio

from autointeract.llm import ScriptedModel
from autointeract.profiles.measure import ProbeSet, measure_many, measure_profile
from autointeract.profiles.probes import PROBE_TASKS, probe_turns, run_probe
from autointeract.profiles.simulator import (StyledUser, add_typos, clean_reply,
                                             make_simulator_factory, word_budget)
from autointeract.types import UserProfile

PROBES = ProbeSet(n_probes=2, seed=0)


def _profile(**kw: float) -> UserProfile:
    base = dict(expertise=0.5, verbosity=0.4, patience=0.5, specificity=0.5, pushback=0.5,
                typo_rate=0.0, reveal_eagerness=0.5)
    base.update(kw)
    return UserProfile(**base)


def test_probe_episode_records_every_user_turn(client, fake_model) -> None:
    sim = StyledUser(client, fake_model, _profile())
    tr = asyncio.run(run_probe(sim, PROBE_TASKS[0], seed=3))
    assert len(tr.user_turns) == 4 and len(tr.agent_turns) == 3
    assert [t.message for t in probe_turns(PROBE_TASKS[0])] == tr.agent_turns
    assert all(t.strip() for t in tr.user_turns)


def test_measured_descriptors_follow_the_simulated_behavior(client, fake_model) -> None:
    factory = make_simulator_factory("styled", client, fake_model)
    low, high = _profile(pushback=0.0, verbosity=0.1), _profile(pushback=1.0, verbosity=0.9)
    m_low, m_high = asyncio.run(measure_many(factory, [low, high], probes=PROBES))
    assert m_low.ok and m_high.ok and m_low.n_user_turns == 8
    assert m_high.features["pushback_rate"] > m_low.features["pushback_rate"]
    assert m_high.features["log_words_per_turn"] > m_low.features["log_words_per_turn"] + 1.0


def test_measurement_is_deterministic_given_the_seed(client, fake_model) -> None:
    factory = make_simulator_factory("styled", client, fake_model, use_cache=False)
    p = _profile(pushback=0.6, verbosity=0.5, typo_rate=0.8)
    a = asyncio.run(measure_profile(factory, p, probes=PROBES))
    b = asyncio.run(measure_profile(factory, p, probes=PROBES))
    assert a.features == b.features and a.user_turns == b.user_turns
    c = asyncio.run(measure_profile(factory, p, probes=ProbeSet(n_probes=2, seed=1)))
    assert c.user_turns != a.user_turns  # another seed is another situation


def test_llm_failure_gives_a_failed_measurement(client) -> None:
    broken = ScriptedModel([])  # raises on the first request
    factory = make_simulator_factory("styled", client, broken.model)
    m = asyncio.run(measure_profile(factory, _profile(), probes=PROBES))
    assert not m.ok and m.error and not m.features


def test_rendering_helpers() -> None:
    import random

    assert word_budget(0.0) == 3 and word_budget(1.0) == 180 and word_budget(0.5) == 23
    assert clean_reply('User: "fix it please now"', max_words=2) == "fix it"
    text = "please refactor the function because performance matters greatly here"
    assert add_typos(text, 0.0, random.Random(0)) == text
    typo = add_typos(text * 5, 1.0, random.Random(0))
    assert typo != text * 5 and len(typo) == len(text * 5)
