from __future__ import annotations

import numpy as np
import pytest

from autointeract.errors import DataError
from autointeract.profiles.realism import RealismModel, combine


@pytest.fixture(scope="module")
def gaussian_model() -> RealismModel:
    rng = np.random.default_rng(0)
    data = np.column_stack([rng.normal(0.2, 0.05, 200), rng.normal(3.0, 0.5, 200)])
    return RealismModel(data, features=["pushback_rate", "log_words_per_turn"])


def test_typical_behavior_scores_high_and_unreal_behavior_low(gaussian_model) -> None:
    s = gaussian_model.score([[0.2, 3.0], [0.27, 3.0], [0.35, 4.5], [0.9, 0.5]])
    assert s[0] > 0.8
    assert s[0] > s[1] > s[2] > s[3]
    assert s[3] < 1e-3
    assert np.all((s > 0) & (s <= 1))


def test_realism_is_calibrated_on_the_real_users(gaussian_model) -> None:
    rng = np.random.default_rng(1)
    fresh = np.column_stack([rng.normal(0.2, 0.05, 400), rng.normal(3.0, 0.5, 400)])
    s = gaussian_model.score(fresh)
    # new draws from the real distribution are spread over (0, 1], median near 0.5
    assert 0.35 < float(np.median(s)) < 0.65
    assert float(np.mean(s < 0.1)) < 0.2


def test_save_load_roundtrip(tmp_path, gaussian_model) -> None:
    gaussian_model.save(tmp_path / "r.json")
    back = RealismModel.load(tmp_path / "r.json")
    x = [[0.25, 2.5], [0.1, 4.0]]
    assert back.score(x) == pytest.approx(gaussian_model.score(x), rel=1e-5)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError):
        RealismModel([[0.1, 1.0]], features=["pushback_rate", "log_words_per_turn"])
    with pytest.raises(ValueError, match="unknown features"):
        RealismModel(np.zeros((5, 1)), features=["nope"])
    with pytest.raises(DataError):
        RealismModel.from_sessions([])


def test_real_sessions_score_inside(realism, sample_sessions) -> None:
    from autointeract.profiles.realism import real_feature_rows

    sessions, vocab = sample_sessions
    rows = real_feature_rows(sessions, vocabulary=vocab)
    s = realism.score([[r[f] for f in realism.features] for r in rows.values()])
    assert float(np.median(s)) > 0.3
    far = {"pushback_rate": 1.0, "log_words_per_turn": 7.0, "question_rate": 1.0, "approval_rate": 1.0}
    assert realism.score_features(far) < 0.01


def test_combine() -> None:
    assert combine(0.4, None, judge_weight=0.5) == 0.4
    assert combine(0.4, 0.8, judge_weight=0.5) == pytest.approx(0.6)
    assert combine(0.4, 0.8, judge_weight=0.0) == 0.4


def test_llm_judge_scores_and_fails_soft(client) -> None:
    import asyncio

    from autointeract.llm import ScriptedModel
    from autointeract.profiles.realism import judge_plausibility

    good = ScriptedModel(['{"plausibility": 0.3, "reason": "terse but plausible"}'])
    turns = [["fix the parser", "no, still broken"]]
    assert asyncio.run(judge_plausibility(client, good.model, turns)) == pytest.approx(0.3)
    assert "USER: no, still broken" in good.requests[0]["messages"][-1]["content"]
    bad = ScriptedModel(["not json", "still not json"])
    assert asyncio.run(judge_plausibility(client, bad.model, turns)) is None
