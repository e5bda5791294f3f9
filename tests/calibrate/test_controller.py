"""The ask/tell controller: bisection on the ladder, spreading, budgets, checkpoints."""

import json

import pytest

from autointeract.calibrate.config import ControllerConfig
from autointeract.calibrate.controller import Controller, Outcome
from autointeract.calibrate.knobs import LADDER, ladder_knobs


def _tell(ctrl, props, status, **kw):
    ctrl.tell(props, [Outcome(candidate_id=p.candidate_id, status=status, **kw) for p in props])


def test_too_easy_moves_up_and_too_hard_moves_down():
    ctrl = Controller(ControllerConfig(start_level=2), seed_ids=["a"], seed=0)
    (p,) = ctrl.ask(1)
    assert p.level == 2 and p.knobs == ladder_knobs(2)
    _tell(ctrl, [p], "too_easy")
    (p2,) = ctrl.ask(1)
    assert p2.level > 2
    assert p2.knobs.hardness() > p.knobs.hardness()
    _tell(ctrl, [p2], "too_hard")
    (p3,) = ctrl.ask(1)
    assert 2 < p3.level < p2.level or (p3.level == 3 and p2.level == 4)


def test_hopeless_seed_is_given_up():
    ctrl = Controller(ControllerConfig(start_level=0, max_candidates=50), seed_ids=["a"], seed=0)
    for _ in range(20):
        props = ctrl.ask(1)
        if not props:
            break
        _tell(ctrl, props, "too_hard")
    assert ctrl.ask(1) == []
    assert ctrl.stop_reason() == "no seed left to calibrate"


def test_accepted_tasks_spread_over_seeds_and_cells():
    ctrl = Controller(ControllerConfig(per_seed=2, max_candidates=100), seed_ids=["a", "b", "c"],
                      cells=[1, 2], seed=3)
    seen = []
    while not ctrl.done():
        props = ctrl.ask(3)
        seen += [(p.seed_id, p.profile_cell) for p in props]
        _tell(ctrl, props, "accepted")
    assert ctrl.accepted == 6
    assert {s for s, _ in seen} == {"a", "b", "c"}
    per_seed_cells = {s: {c for s2, c in seen if s2 == s} for s in "abc"}
    assert all(cells == {1, 2} for cells in per_seed_cells.values())


def test_learned_level_seeds_the_next_problem():
    ctrl = Controller(ControllerConfig(start_level=1, per_seed=1), seed_ids=["a", "b"], seed=0)
    ctrl.seeds["a"].accepted, ctrl.seeds["a"].good_levels = 1, [5]
    (p,) = ctrl.ask(1)
    assert p.seed_id == "b" and p.level == 5


def test_budgets_stop_the_search():
    ctrl = Controller(ControllerConfig(max_episodes=10), seed_ids=["a", "b"], seed=0)
    props = ctrl.ask(2)
    _tell(ctrl, props, "undecided", episodes=6)
    assert ctrl.stop_reason() == "episode budget"
    assert ctrl.ask(1) == []
    ctrl2 = Controller(ControllerConfig(max_candidates=3, per_seed=2), seed_ids=["a", "b"], seed=0)
    assert len(ctrl2.ask(5)) == 3


def test_checkpoint_resumes_identically(tmp_path):
    cfg = ControllerConfig(per_seed=2, max_candidates=30)
    a = Controller(cfg, seed_ids=["x", "y", "z"], cells=[0, 1, 2], seed=7)
    b = Controller(cfg, seed_ids=["x", "y", "z"], cells=[0, 1, 2], seed=7)
    statuses = ["too_easy", "too_hard", "undecided", "accepted"]
    for i in range(3):
        pa, pb = a.ask(2), b.ask(2)
        assert pa == pb
        _tell(a, pa, statuses[i % 4])
        _tell(b, pb, statuses[i % 4])
    a.save(tmp_path / "ck.json")
    json.loads((tmp_path / "ck.json").read_text())
    c = Controller.restore(tmp_path / "ck.json", cfg)
    for i in range(3, 6):
        pb, pc = b.ask(2), c.ask(2)
        assert pb == pc
        _tell(b, pb, statuses[i % 4])
        _tell(c, pc, statuses[i % 4])
    assert b.state_dict() == c.state_dict()


def test_tell_checks_lengths():
    ctrl = Controller(ControllerConfig(), seed_ids=["a"], seed=0)
    with pytest.raises(ValueError):
        ctrl.tell(ctrl.ask(1), [])


def test_ladder_gets_harder():
    h = [k.hardness() for k in LADDER]
    assert h == sorted(h) and h[0] == 0.0


def test_no_more_in_flight_than_wanted():
    ctrl = Controller(ControllerConfig(per_seed=1), seed_ids=["a", "b"], seed=0)
    props = ctrl.ask(5)
    assert sorted(p.seed_id for p in props) == ["a", "b"]
