from __future__ import annotations

import asyncio
import pickle

import numpy as np
import pytest

from autointeract.profiles.evolve import ArchiveConfig, EvolveConfig, ProfileEvolver
from autointeract.profiles.measure import Measurement, ProbeSet, measure_many
from autointeract.profiles.simulator import make_simulator_factory
from autointeract.profiles.space import seed_profiles

CFG = EvolveConfig(iterations=3, batch_size=4, n_emitters=2, n_seeds=6,
                   probes=ProbeSet(n_probes=1), seed=0)


def _run(evo: ProfileEvolver, factory) -> list[dict]:
    out = []
    while not evo.done:
        profiles = evo.ask()
        out.append(evo.tell(profiles, asyncio.run(measure_many(factory, profiles, probes=CFG.probes))))
    return out


@pytest.fixture
def seeds(sample_sessions):
    sessions, vocab = sample_sessions
    return seed_profiles(sessions, vocabulary=vocab)


def test_map_elites_fills_the_archive(client, fake_model, realism, seeds) -> None:
    evo = ProfileEvolver(CFG, realism=realism, seeds=seeds)
    hist = _run(evo, make_simulator_factory("styled", client, fake_model))
    assert [h["iteration"] for h in hist] == [0, 1, 2, 3]
    assert hist[0]["evaluated"] == 6 and hist[1]["evaluated"] == 8
    qd = [h["qd_score"] for h in hist]
    assert qd == sorted(qd) and qd[-1] > 0  # an elitist archive never loses QD score
    assert hist[-1]["num_elites"] > hist[0]["num_elites"] >= 1
    data = evo.archive.data()
    assert np.all(data["objective"] > 0) and np.all(data["objective"] <= 1)
    assert len(set(data["uid"].tolist())) == len(data["uid"])


def test_ask_tell_contract(client, realism, seeds) -> None:
    evo = ProfileEvolver(CFG, realism=realism, seeds=seeds)
    profiles = evo.ask()
    with pytest.raises(ValueError, match="one measurement per profile"):
        evo.tell(profiles, [])
    failed = [Measurement(error="boom")] * len(profiles)
    st = evo.tell(profiles, failed)
    assert st["failed"] == len(profiles) and st["num_elites"] == 0  # failures never archived


def test_min_realism_keeps_unreal_profiles_out(realism, seeds) -> None:
    cfg = CFG.model_copy(update={"archive": ArchiveConfig(min_realism=0.5)})
    evo = ProfileEvolver(cfg, realism=realism, seeds=seeds)
    profiles = evo.ask()
    unreal = Measurement(features={"pushback_rate": 1.0, "log_words_per_turn": 7.0,
                                   "question_rate": 1.0, "approval_rate": 1.0}, n_user_turns=4)
    assert evo.tell(profiles, [unreal] * len(profiles))["num_elites"] == 0


def test_pickled_evolver_asks_the_same_profiles(client, fake_model, realism, seeds) -> None:
    factory = make_simulator_factory("styled", client, fake_model)
    evo = ProfileEvolver(CFG, realism=realism, seeds=seeds)
    for _ in range(2):
        ps = evo.ask()
        evo.tell(ps, asyncio.run(measure_many(factory, ps, probes=CFG.probes)))
    twin = pickle.loads(pickle.dumps(evo))
    assert [p.vector() for p in evo.ask()] == [p.vector() for p in twin.ask()]


def test_config_validation() -> None:
    with pytest.raises(ValueError):
        ArchiveConfig(descriptors=["pushback_rate"], dims=[4, 4])
    with pytest.raises(ValueError, match="unknown features"):
        ArchiveConfig(descriptors=["bogus"], dims=[4])
    three = ArchiveConfig(descriptors=["pushback_rate", "log_words_per_turn", "question_rate"],
                          dims=[4, 4, 4])
    assert three.resolved_ranges()[2] == (0.0, 1.0)


def test_a_cell_keeps_its_most_realistic_profile(realism, seeds) -> None:
    base = {"pushback_rate": 0.0, "log_words_per_turn": 2.2, "new_requirement_rate": 0.0,
            "typo_rate": 0.0}
    grid = [{**base, "question_rate": q, "approval_rate": a} for q in np.linspace(0, 1, 11)
            for a in np.linspace(0, 1, 11)]
    ms = sorted((Measurement(features=f, n_user_turns=4) for f in grid),
                key=lambda m: realism.score_features(m.features))
    lo, hi = ms[0], ms[-1]
    mean = (realism.score_features(lo.features) + realism.score_features(hi.features)) / 2
    mid = next(m for m in ms if mean < realism.score_features(m.features) < realism.score_features(hi.features))
    cfg = CFG.model_copy(update={"n_seeds": 2})
    evo = ProfileEvolver(cfg, realism=realism, seeds=seeds)
    evo.tell(evo.ask(), [hi, lo])  # same cell, one batch
    ps = evo.ask()
    evo.tell(ps, [mid] * len(ps))  # better than the batch mean, worse than the elite
    assert evo.stats()["num_elites"] == 1
    assert evo.stats()["obj_max"] == pytest.approx(realism.score_features(hi.features))
    assert evo.stats()["qd_score"] == pytest.approx(realism.score_features(hi.features))
