import asyncio

import pytest

from autointeract.errors import ConfigError
from autointeract.llm import FaultyModel, ScriptedModel
from autointeract.rollout.config import PromptedUserConfig
from autointeract.rollout.prompted_user import PromptedUser, plan_reply
from autointeract.rollout.protocols import UserObservation
from autointeract.types import CriterionResult, Requirement, VerifierResult


def _check(*passed: bool, verdict: str = "WA") -> VerifierResult:
    return VerifierResult(criteria=[CriterionResult(name=f"test_{i}", passed=p,
                                                    verdict="AC" if p else verdict)
                                    for i, p in enumerate(passed)])


def _state(task, **kw):
    st = PromptedUser(PromptedUserConfig(max_user_turns=kw.pop("turns", 6))).init_state(task, seed=0)
    return st.__class__(**{**st.__dict__, **kw})


def test_opening_is_the_initial_message(sum_even):
    user = PromptedUser()
    turn, st = asyncio.run(user.first_turn(user.init_state(sum_even, seed=0)))
    assert turn.content == sum_even.initial_message and turn.act == "request"
    assert st.revealed == () and not turn.stop


def test_question_reveals_one_requirement(sum_even):
    plan = plan_reply(UserObservation(agent_message="Which numbers?"), _state(sum_even))
    assert plan.reveal == [0] and plan.act == "new_requirement" and not plan.stop
    plan = plan_reply(UserObservation(agent_message="Which numbers?"), _state(sum_even),
                      reveal_on_question=False)
    assert plan.reveal == [] and plan.kind == "no_info"


def test_failing_check_reveals_the_requirements_it_touches(sum_even):
    obs = UserObservation(agent_message="code", check=_check(True, False, False),
                          failing_requirements=[0, 1])
    plan = plan_reply(obs, _state(sum_even))
    assert plan.reveal == [0, 1] and plan.act == "new_requirement"


def test_failing_revealed_requirement_is_a_correction(sum_even):
    obs = UserObservation(agent_message="code", check=_check(True, False, True),
                          failing_requirements=[0])
    plan = plan_reply(obs, _state(sum_even, revealed=(0,)))
    assert plan.act == "correction" and plan.correct == [0]


def test_failure_not_covered_by_requirements_is_a_failure_report(sum_even):
    obs = UserObservation(agent_message="code", check=_check(False, True, True, verdict="RE"))
    plan = plan_reply(obs, _state(sum_even))
    assert plan.act == "failure_report" and "crashes" in plan.failure


def test_reveal_after_turn_and_never_trigger(sum_even):
    obs = UserObservation(agent_message="working on it")
    assert plan_reply(obs, _state(sum_even, turn=2)).reveal == [1]  # reveal_after_turn=3
    sum_even.requirements[1] = Requirement(text="x", reveal_after_turn=1, trigger="never")
    assert plan_reply(obs, _state(sum_even, turn=2)).reveal == []


def test_pass_approves_and_stops(sum_even):
    plan = plan_reply(UserObservation(agent_message="", submitted=True, check=_check(True)),
                      _state(sum_even))
    assert plan.stop and plan.satisfied and plan.act == "approval"


def test_out_of_patience_stops(sum_even):
    plan = plan_reply(UserObservation(agent_message="hmm"), _state(sum_even, turns=2, turn=1))
    assert plan.stop and not plan.satisfied and plan.kind == "give_up"


def test_template_phrasing_is_seeded(sum_even):
    user = PromptedUser()
    obs = UserObservation(agent_message="Here is something.")
    texts = {asyncio.run(user.respond(obs, user.init_state(sum_even, seed=s)))[0].content
             for s in range(12)}
    again = {asyncio.run(user.respond(obs, user.init_state(sum_even, seed=s)))[0].content
             for s in range(12)}
    assert texts == again and len(texts) > 1


def test_llm_mode_phrases_and_falls_back(sum_even, client):
    model = ScriptedModel(["Oh and only count the even ones please."])
    user = PromptedUser(PromptedUserConfig(mode="llm", model=model.model), client=client)
    turn, st = asyncio.run(user.respond(UserObservation(agent_message="Which ones?"),
                                        user.init_state(sum_even, seed=4)))
    assert turn.content.startswith("Oh and") and turn.meta["phrased_by"] == "llm"
    assert st.revealed == (0,) and model.requests[0]["seed"] is not None
    broken = FaultyModel(model.model, rate=1.0, kinds=["server_error"])
    user = PromptedUser(PromptedUserConfig(mode="llm", model=broken.model), client=client)
    turn, _ = asyncio.run(user.respond(UserObservation(agent_message="Which ones?"),
                                       user.init_state(sum_even, seed=4)))
    assert turn.meta["phrased_by"] == "template-fallback" and "even" in turn.content


def test_llm_mode_needs_a_model():
    with pytest.raises(ConfigError):
        PromptedUser(PromptedUserConfig(mode="llm"))


def test_template_joins_requirements_as_clauses(sum_even):
    sum_even.requirements[0] = Requirement(text="Square brackets count too.", tests=[1])
    user = PromptedUser()
    turn, _ = asyncio.run(user.respond(UserObservation(agent_message="Which?"),
                                       user.init_state(sum_even, seed=0)))
    assert turn.content == "Also, square brackets count too."
