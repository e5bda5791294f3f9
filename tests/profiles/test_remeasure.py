from __future__ import annotations

import pytest

from autointeract.profiles.measure import Measurement
from autointeract.profiles.remeasure import cell_widths, compare

KW = dict(descriptors=["pushback_rate", "log_words_per_turn"], dims=[10, 10],
          ranges=[(0.0, 1.0), (0.0, 7.5)])


def _m(p: float, w: float) -> Measurement:
    return Measurement(features={"pushback_rate": p, "log_words_per_turn": w}, n_user_turns=4)


def test_compare_within_and_outside_tolerance() -> None:
    stored = [{"pushback_rate": 0.25, "log_words_per_turn": 2.0}] * 3
    rep = compare(stored, [_m(0.25, 2.0), _m(0.33, 2.5), _m(0.5, 2.0)], **KW)
    assert rep["n"] == 3 and rep["agree"] == 2 and rep["failed"] == 0
    assert rep["same_cell_rate"] == pytest.approx(1 / 3)
    assert rep["max_abs_diff"]["pushback_rate"] == pytest.approx(0.25)
    assert rep["tolerance_abs"]["log_words_per_turn"] == pytest.approx(0.75)
    strict = compare(stored[:2], [_m(0.25, 2.0), _m(0.33, 2.5)], tolerance=0.5, **KW)
    assert strict["agree"] == 1


def test_failed_remeasurement_never_agrees() -> None:
    rep = compare([{"pushback_rate": 0.0, "log_words_per_turn": 1.0}],
                  [Measurement(error="timeout")], **KW)
    assert rep["agree"] == 0 and rep["failed"] == 1


def test_cell_widths() -> None:
    assert cell_widths([10, 5], [(0, 1), (0, 7.5)]) == pytest.approx([0.1, 1.5])
