import pytest

from autointeract.users.discriminator import discriminator_accuracy
from autointeract.users.fidelity import (act_distribution, compare_turns, evaluate_fidelity,
                                         ks_statistic, total_variation, wasserstein)
from autointeract.users.examples import extract_examples

REAL = ["no thats wrong", "still failing on empty input", "ok ship it", "why did you change auth.py",
        "also add a --verbose flag", "no, revert that", "tests still fail", "lgtm"] * 2
POLITE = ["Thank you so much for your help! Could you please kindly review everything again?\n"
          f"- item {i}\n- **note**" for i in range(len(REAL))]


def test_identical_turns_have_zero_distance():
    acts = ["correction", "failure_report", "approval", "question"] * 4
    m = compare_turns(REAL, acts, list(REAL), list(acts))
    assert m.act_tvd == 0 and m.pushback_delta == 0
    assert m.words_wasserstein == 0 and m.words_ks == 0 and m.typo_delta == 0


def test_known_distances():
    assert total_variation({"a": 1.0}, {"b": 1.0}) == 1.0
    assert total_variation(act_distribution(["a", "b"]), act_distribution(["a", "a"])) == 0.5
    assert wasserstein([1, 2, 3], [2, 3, 4]) == pytest.approx(1.0)
    assert wasserstein([0], [5]) == pytest.approx(5.0)
    assert ks_statistic([1, 2, 3], [10, 11, 12]) == 1.0
    assert ks_statistic([1, 2], [1, 2]) == 0.0


def test_discriminator_spots_polite_bot_and_not_a_copy():
    assert discriminator_accuracy(REAL, POLITE) >= 0.9
    same = discriminator_accuracy(REAL, list(REAL))
    assert same is not None and same <= 0.6
    assert discriminator_accuracy(["a"], ["b"]) is None


def test_evaluate_fidelity_side_by_side(toy_sessions):
    ex = extract_examples(toy_sessions, max_per_session=3)
    def predict(prompt, e):
        return e.real_turn if prompt == "copy" else POLITE[0]
    rep = evaluate_fidelity(ex, {"seed": "polite", "fitted": "copy"}, predict=predict)
    seed, fitted = rep.models["seed"], rep.models["fitted"]
    assert fitted.act_tvd == 0 and fitted.pushback_delta == 0 and fitted.next_turn_score == 1.0
    assert seed.act_tvd > 0.5 and seed.pushback_delta < -0.5
    assert seed.discriminator_accuracy > 0.9 and fitted.discriminator_accuracy <= 0.6
    assert rep.real.pushback_rate == 1.0 and len(rep.samples) == 5


def test_unchanged_prompt_is_not_simulated_twice(toy_sessions):
    ex = extract_examples(toy_sessions[:2], max_per_session=2)
    calls = []
    rep = evaluate_fidelity(ex, {"seed": "same", "fitted": "same"},
                            predict=lambda p, e: calls.append(e.id) or "no still broken")
    assert len(calls) == len(ex)
    assert rep.models["seed"] == rep.models["fitted"]
