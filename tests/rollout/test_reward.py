import pytest

from autointeract.rollout.reward import effort_floor, is_stub, trajectory_reward, user_correction


def test_effort_floor_values():
    assert effort_floor(0, normal_finish=False, distinct_tools=0) == 0.0
    assert effort_floor(3, normal_finish=True, distinct_tools=1) == pytest.approx(0.20)
    assert effort_floor(50, normal_finish=True, distinct_tools=4) == pytest.approx(0.40)


def test_floor_is_a_lower_bound_not_a_bonus():
    low = trajectory_reward(0.25, n_tool_calls=6, finish_reason="submitted",
                            tools_used=["bash", "run_python", "submit"], solution="x = 1")
    assert low.reward == pytest.approx(0.40) and not low.gated
    high = trajectory_reward(0.75, n_tool_calls=6, finish_reason="submitted",
                             tools_used=["bash", "run_python", "submit"], solution="x = 1")
    assert high.reward == 0.75


def test_stub_submissions_are_gated_to_zero():
    for stub in (None, "", "def f(x):\n    pass\n", "def f():\n    ...\n# todo"):
        assert is_stub(stub)
        rb = trajectory_reward(0.0, n_tool_calls=6, finish_reason="submitted",
                               tools_used=["a", "b", "c"], solution=stub)
        assert rb.reward == 0.0 and rb.gated
    assert trajectory_reward(0.0, n_tool_calls=6, finish_reason="submitted", tools_used=["a"],
                             solution=None, require_solution=False).reward > 0


def test_user_correction_counts_corrections_and_nudges():
    assert user_correction(["request", "correction", "failure_report", "correction"]) == \
        pytest.approx(2.2)
