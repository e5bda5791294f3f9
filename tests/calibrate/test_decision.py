"""The sequential band rule: decisions from counts, stopping, the fixed-N baseline."""

import pytest

from autointeract.calibrate.config import BandConfig
from autointeract.calibrate.decision import Counts, beta_cdf, decide, fixed_n_status, prob_at_most

BAND = BandConfig(confidence=0.8, min_n=2, max_n=6, batch=2)


def test_beta_cdf_matches_closed_form():
    # Beta(1, n+1): P(p <= x) = 1 - (1 - x)^(n+1)
    assert beta_cdf(0.4, 1, 5) == pytest.approx(1 - 0.6 ** 5)
    assert prob_at_most(Counts(0, 4), 0.4, (1.0, 1.0)) == pytest.approx(1 - 0.6 ** 5)


def test_start_asks_for_both_solvers():
    d = decide(Counts(), Counts(), BAND)
    assert d.status == "continue" and d.next_weak == 2 and d.next_strong == 2


def test_clear_in_band_is_accepted():
    d = decide(Counts(0, 4), Counts(4, 4), BAND)
    assert d.status == "accepted"
    assert d.p_weak_in >= 0.8 and d.p_strong_in >= 0.8


def test_weak_passing_stops_early_as_too_easy():
    d = decide(Counts(4, 4), Counts(0, 0), BAND)
    assert d.status == "too_easy" and d.weak == "out"


def test_strong_failing_is_too_hard():
    d = decide(Counts(0, 2), Counts(0, 4), BAND)
    assert d.status == "too_hard"


def test_decided_side_is_not_sampled_again():
    d = decide(Counts(0, 4), Counts(3, 4), BAND)
    assert d.status == "continue" and d.next_weak == 0 and d.next_strong == 2


def test_max_n_without_confidence_is_undecided_or_mean():
    d = decide(Counts(2, 6), Counts(4, 6), BAND)
    assert d.status == "undecided"
    mean = decide(Counts(2, 6), Counts(5, 6), BAND.model_copy(update={"at_max_n": "posterior_mean"}))
    assert mean.status in ("accepted", "too_easy", "too_hard")


def test_min_n_guards_a_single_episode():
    d = decide(Counts(1, 1), Counts(0, 1), BandConfig(confidence=0.6, min_n=2))
    assert d.status == "continue"


def test_counts_are_checked():
    with pytest.raises(ValueError):
        Counts(3, 2)


def test_fixed_n_rule():
    assert fixed_n_status(Counts(1, 4), Counts(3, 4), BAND) == "accepted"
    assert fixed_n_status(Counts(2, 4), Counts(4, 4), BAND) == "too_easy"
    assert fixed_n_status(Counts(0, 4), Counts(2, 4), BAND) == "too_hard"
