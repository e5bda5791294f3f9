from __future__ import annotations

import numpy as np
import pytest

from autointeract.history.stats import BehaviorStats
from autointeract.profiles.space import (DIM, from_vector, profile_from_stats, seed_profiles,
                                         template_persona, to_vector)
from autointeract.types import UserProfile


def test_vector_roundtrip_and_clipping() -> None:
    p = UserProfile(expertise=0.9, verbosity=0.1, pushback=0.7, typo_rate=0.3)
    q = from_vector(to_vector(p), id="x")
    assert q.vector() == pytest.approx(p.vector())
    assert q.persona  # filled from the template
    r = from_vector(np.array([2.0, -1.0] + [0.5] * (DIM - 2)))
    assert r.expertise == 1.0 and r.verbosity == 0.0
    with pytest.raises(ValueError, match="7 values"):
        from_vector([0.5, 0.5])


def test_profile_from_stats_follows_the_behavior() -> None:
    terse = BehaviorStats(words_per_turn_mean=3, words_per_turn_median=3, pushback_rate=0.0)
    wordy = BehaviorStats(words_per_turn_mean=150, words_per_turn_median=100, pushback_rate=0.4,
                          typo_rate=0.05, new_requirement_rate=0.3)
    a, b = profile_from_stats(terse), profile_from_stats(wordy)
    assert a.verbosity < 0.1 < 0.6 < b.verbosity
    assert a.pushback == 0.0 and b.pushback == pytest.approx(0.8)
    assert b.typo_rate == 1.0 and a.typo_rate == 0.0
    assert b.reveal_eagerness < a.reveal_eagerness
    assert all(0.0 <= v <= 1.0 for v in a.vector() + b.vector())


def test_seed_profiles_from_real_sessions(sample_sessions) -> None:
    sessions, vocab = sample_sessions
    seeds = seed_profiles(sessions, vocabulary=vocab, min_user_turns=3)
    usable = [s for s in sessions if len(s.user_turns()) >= 3]
    assert len(seeds) == len(usable) > 5
    assert {p.meta["seed_session"] for p in seeds} == {s.id for s in usable}
    assert len({tuple(p.vector()) for p in seeds}) > 3  # real users differ


def test_template_persona_is_deterministic_and_reflects_levels() -> None:
    low = UserProfile(pushback=0.0, verbosity=0.0)
    high = UserProfile(pushback=1.0, verbosity=1.0)
    assert template_persona(low) == template_persona(low)
    assert "accept what the agent says" in template_persona(low)
    assert "challenge claims" in template_persona(high)
    assert "long, detailed messages" in template_persona(high)
