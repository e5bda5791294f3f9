"""Full episodes: scripted agents, the template user, the local sandbox and the real judge."""

import asyncio

import pytest

from autointeract.llm import ScriptedModel
from autointeract.rollout.agent import LLMAgent
from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig
from autointeract.rollout.episode import run_episode
from autointeract.rollout.fakes import ScriptedAgent
from autointeract.rollout.mock_tasks import (
    SUM_EVEN_NAIVE,
    SUM_EVEN_POSITIVE,
    SUM_EVEN_REF,
    WORDS_REF,
)
from autointeract.rollout.prompted_user import PromptedUser


def _run(task, agent, *, seed=0, user=None, **cfg):
    return asyncio.run(run_episode(task, agent, user or PromptedUser(), seed=seed,
                                   config=EpisodeConfig(**cfg)))


def _submit(code: str) -> str:
    return f"SUBMIT\n```python\n{code}```"


def test_pass_after_asking_and_testing(sum_even):
    agent = ScriptedAgent(["What should happen with odd numbers?",
                           "```python\nprint(sum(x for x in [1, 2, 4] if x % 2 == 0))\n```",
                           _submit(SUM_EVEN_REF)])
    t = _run(sum_even, agent)
    assert t.finish_reason == "submitted" and t.verifier.passed and t.reward == 1.0, t.verifier
    assert t.user_acts == ["request", "new_requirement", "approval"]
    tool_out = [m.content for m in t.messages if m.role == "tool" and m.name == "run_python"]
    assert "stdout:\n6" in tool_out[0]
    assert t.n_tool_calls == 2 and t.tools_used == ["run_python", "submit"]
    assert t.tokens["total"] > 0 and t.meta["turns"] == 3 and t.user_correction == 0.0


def test_wrong_submission_gets_feedback_then_user_gives_up(sum_even):
    agent = ScriptedAgent([_submit(SUM_EVEN_NAIVE)])
    t = _run(sum_even, agent, user=PromptedUser(PromptedUserConfig(max_user_turns=3)))
    assert t.finish_reason == "user_stop" and not t.verifier.passed
    assert t.user_acts[1] == "new_requirement" and "correction" in t.user_acts
    assert t.verifier.score == pytest.approx(1 / 3)
    # r_g < 0.5: r = max(r_g, e) with e = 0.05 * 3 calls + 0.05 (normal finish) = 0.20
    assert t.meta["reward"]["effort"] == pytest.approx(0.20)
    assert t.reward == pytest.approx(1 / 3) and t.user_correction >= 1.0


def test_partial_solution_fixed_after_requirement_revealed(sum_even):
    agent = ScriptedAgent([_submit(SUM_EVEN_POSITIVE), _submit(SUM_EVEN_REF)])
    t = _run(sum_even, agent)
    assert t.finish_reason == "submitted" and t.reward == 1.0
    feedback = t.messages[3]
    assert feedback.role == "user" and "negative" in feedback.content


def test_stub_submission_is_gated_to_zero(sum_even):
    agent = ScriptedAgent(["```bash\nls\n```", "```python\nprint(1)\n```",
                           _submit("def sum_even(nums):\n    pass\n")])
    t = _run(sum_even, agent, max_turns=3)
    assert t.n_tool_calls == 3 and t.reward == 0.0 and t.meta["reward"]["gated"]


def test_native_tools_message_user_with_code_is_checked(sum_even, client):
    model = ScriptedModel([
        {"content": "", "tool_calls": [{"name": "message_user", "arguments": {
            "content": f"How about this?\n```python\n{SUM_EVEN_NAIVE}```"}}]},
        {"content": "", "tool_calls": [{"name": "submit", "arguments": {"solution": SUM_EVEN_REF}}]},
    ])
    agent = LLMAgent(AgentConfig(model=model.model, tool_mode="native"), client)
    t = _run(sum_even, agent, seed=7)
    assert t.finish_reason == "submitted" and t.reward == 1.0
    assert t.meta["n_checks"] == 2 and t.user_acts[1] == "new_requirement"
    assert all(r["seed"] is not None for r in model.requests)
    assert model.requests[1]["messages"][-1]["role"] == "user"  # user reply after tool result
    assert "tools" in model.requests[0]


def test_user_satisfied_by_code_shown_without_submit(word_count, client):
    model = ScriptedModel([{"content": "", "tool_calls": [{"name": "message_user", "arguments": {
        "content": f"Try:\n```python\n{WORDS_REF}```"}}]}])
    t = _run(word_count, LLMAgent(AgentConfig(model=model.model, tool_mode="native"), client))
    assert t.finish_reason == "user_satisfied" and t.reward == 1.0 and not t.meta["submitted"]


def test_turn_limit(sum_even):
    agent = ScriptedAgent(["```python\nprint(0)\n```"])
    t = _run(sum_even, agent, max_turns=2, final_fallback="none")
    assert t.finish_reason == "max_turns" and t.meta["turns"] == 2 and t.reward == 0.0
    assert t.verifier.error == "no solution"


def test_last_program_run_is_verified_when_nothing_was_submitted(sum_even):
    t = _run(sum_even, ScriptedAgent([f"```python\n{SUM_EVEN_REF}```"]), max_turns=2)
    assert t.finish_reason == "max_turns" and t.verifier.passed and t.reward == 1.0
    t = _run(sum_even, ScriptedAgent(["```python\nprint(0)\n```"]), max_turns=2)
    assert t.verifier.score == 0.0 and t.reward == pytest.approx(0.10)  # floor: 2 calls


def test_token_limit(sum_even):
    t = _run(sum_even, ScriptedAgent(["```python\nprint(0)\n```"]), max_total_tokens=40)
    assert t.finish_reason == "max_tokens" and t.tokens["total"] >= 40


def test_wall_time_limit(sum_even, client):
    model = ScriptedModel(["thinking..."], cycle=True, latency_s=0.3)
    agent = LLMAgent(AgentConfig(model=model.model, tool_mode="text"), client)
    t = _run(sum_even, agent, max_wall_s=0.5)
    assert t.finish_reason == "time_limit" and t.wall_s < 3


def test_model_failure_ends_the_episode(sum_even, client):
    model = ScriptedModel(["What numbers?"])  # a second request finds no output left
    t = _run(sum_even, LLMAgent(AgentConfig(model=model.model, tool_mode="text"), client))
    assert t.finish_reason == "agent_error" and "no output left" in t.meta["error"]


def test_large_output_is_capped_and_kept_in_a_file(sum_even):
    agent = ScriptedAgent(["```python\nprint('y' * 200000)\n```", "ok?"])
    t = _run(sum_even, agent, max_turns=1)
    out = [m.content for m in t.messages if m.role == "tool"][0]
    assert len(out) < 3000 and ".sandbox/run-" in out and "200001 bytes" in out


def test_same_seed_same_episode(sum_even, client):
    def once():
        model = ScriptedModel([lambda msgs: "What about odd numbers?" if len(msgs) < 3
                               else _submit(SUM_EVEN_NAIVE)], cycle=True)
        agent = LLMAgent(AgentConfig(model=model.model, tool_mode="text"), client)
        t = _run(sum_even, agent, seed=11, max_turns=3)
        return [(m.role, m.content) for m in t.messages], [r["seed"] for r in model.requests]

    first, second = once(), once()
    assert first == second and len(set(first[1])) == len(first[1])


def test_user_model_failure_is_not_blamed_on_the_agent(sum_even):
    class BrokenUser(PromptedUser):
        async def respond(self, obs, state):
            from autointeract.errors import LLMError
            raise LLMError("user model down")

    t = _run(sum_even, ScriptedAgent(["Which numbers?"]), user=BrokenUser())
    assert t.finish_reason == "user_error" and "user model down" in t.meta["error"]
