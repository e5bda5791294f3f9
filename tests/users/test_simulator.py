import asyncio

from autointeract.llm import ScriptedModel
from autointeract.rollout.protocols import UserObservation
from autointeract.types import (CriterionResult, Requirement, TaskSpec, TestCase, UserProfile,
                                VerifierResult, VerifierSpec)
from autointeract.users.simulator import LearnedUser


def task() -> TaskSpec:
    return TaskSpec(
        task_id="t", family="toy", initial_message="write a csv parser",
        hidden_goal="a csv parser that handles quotes and empty lines",
        requirements=[Requirement(text="quoted fields may contain commas", reveal_after_turn=1),
                      Requirement(text="skip empty lines", trigger="failed_test"),
                      Requirement(text="no pandas", trigger="never")],
        verifier=VerifierSpec(kind="stdin", tests=[TestCase(input='a,"b,c"\n\nd', output="a|b,c|d")]),
        reference_solution="import csv\nfor row in csv.reader(open(0)):\n    if row: print('|'.join(row))")


def echo_directive(messages):
    """A fake model that just says what the directive asks (last line before the cue)."""
    user = messages[-1]["content"]
    line = next((ln for ln in user.splitlines() if ln.startswith("In your next message:")), "")
    return "ok: " + line.removeprefix("In your next message:").strip()[:120]


def run(coro):
    return asyncio.run(coro)


def test_reveal_correct_and_stop_when_satisfied(client):
    sim = ScriptedModel([echo_directive], cycle=True)
    user = LearnedUser(client, sim.model, profile=UserProfile(patience=1.0, reveal_eagerness=0.0))
    st = user.init_state(task(), seed=0)
    turn, st = run(user.first_turn(st))
    assert turn.content == "write a csv parser" and turn.act == "request" and not turn.stop
    # turn 1: the scheduled requirement comes out
    turn, st2 = run(user.respond(UserObservation(agent_message="I wrote parse()."), st))
    assert turn.act == "new_requirement" and "quoted fields" in turn.content
    assert st2.revealed == [0] and st.revealed == []  # state is returned, not mutated
    # the agent's work fails the hidden failed_test requirement -> correction revealing it
    turn, st3 = run(user.respond(UserObservation(agent_message="done", submitted=True,
                                                 failing_requirements=[1]), st2))
    assert turn.act == "correction" and "skip empty lines" in turn.content
    assert st3.revealed == [0, 1]
    # a never-revealed requirement fails -> failure report that does not name it
    turn, st4 = run(user.respond(UserObservation(agent_message="done", failing_requirements=[2]), st3))
    assert turn.act == "failure_report" and "pandas" not in turn.content
    # check passes -> approval and stop
    ok = VerifierResult(criteria=[CriterionResult(name="t0", passed=True)])
    turn, st5 = run(user.respond(UserObservation(agent_message="fixed", submitted=True, check=ok), st4))
    assert turn.stop and turn.act == "approval" and st5.stopped and st5.stop_reason == "satisfied"
    assert st5.acts == ["request", "new_requirement", "correction", "failure_report", "approval"]
    again, _ = run(user.respond(UserObservation(agent_message="anything else?"), st5))
    assert again.stop and again.content == ""


def test_runs_out_of_patience(client):
    sim = ScriptedModel(["keep going"], cycle=True)
    user = LearnedUser(client, sim.model, profile=UserProfile(patience=0.0, reveal_eagerness=0.0))
    st = user.init_state(task(), seed=1)
    assert st.max_turns == 3
    turns = []
    for _ in range(6):
        turn, st = run(user.respond(UserObservation(agent_message="working on it"), st))
        turns.append(turn)
        if turn.stop:
            break
    assert turns[-1].stop and turns[-1].meta["reason"] == "out_of_patience"
    assert len(turns) == 4


def test_leaking_turn_is_regenerated_and_recorded(client):
    leak = "use csv.reader(open(0)) and if row: print('|'.join(row))"
    sim = ScriptedModel([leak, "no, quoted fields may contain commas"], cycle=False)
    user = LearnedUser(client, sim.model, profile=UserProfile(reveal_eagerness=0.0))
    st = user.init_state(task(), seed=0)
    turn, st = run(user.respond(UserObservation(agent_message="done"), st))
    assert turn.content == "no, quoted fields may contain commas"
    assert turn.meta["leaks"] == 1 and st.leaks.leak_rate == 0.5
    assert "Never quote test cases" in sim.requests[1]["messages"][0]["content"]


def test_prompt_carries_behavior_profile_and_task(client):
    sim = ScriptedModel(["fine"], cycle=True)
    prof = UserProfile(verbosity=0.0, pushback=1.0, persona="A grumpy backend engineer.")
    user = LearnedUser(client, sim.model, behavior_prompt="BEHAVIOR-XYZ", profile=prof)
    st = user.init_state(task(), seed=0)
    run(user.respond(UserObservation(agent_message="Should I use pandas?"), st))
    system = sim.requests[0]["messages"][0]["content"]
    assert "BEHAVIOR-XYZ" in system and "grumpy backend" in system
    assert "very short messages" in system and "push back hard" in system
    assert "handles quotes" in system  # the hidden goal, privately
    assert "a|b,c|d" not in system and "csv.reader" not in system  # never the tests/reference
