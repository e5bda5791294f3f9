"""The engine-neutral core: rows, the episode env with a simulated user, the reward."""

from __future__ import annotations

import asyncio
import json

import pytest

from autointeract.dataset.rows import RLRow, SFTRow, read_rows, write_rows
from autointeract.errors import DataError
from autointeract.rl.env import CodingEnv, EnvConfig
from autointeract.rl.reward import score_episode
from autointeract.rl.user_turn import ScriptedUser, make_user
from autointeract.rl.verl_reward import compute_score


def submit(code: str) -> str:
    return f"Here you go.\nSUBMIT\n```python\n{code}\n```"


def test_rows_round_trip_through_jsonl(tmp_path, rl_rows):
    from autointeract.rl.demo_rows import warmup_sft_rows

    sft = warmup_sft_rows(rl_rows)
    write_rows(tmp_path / "rl.jsonl", rl_rows)
    write_rows(tmp_path / "sft.jsonl", sft)
    back = read_rows(tmp_path / "rl.jsonl", "rl")
    assert [r.model_dump() for r in back] == [r.model_dump() for r in rl_rows]
    assert back[0].task().task_id == "count-vowels"
    assert back[0].prompt[1].content == back[0].task().initial_message
    sft_back = read_rows(tmp_path / "sft.jsonl", "sft")
    assert isinstance(sft_back[0], SFTRow) and sft_back[0].messages[-1].role == "assistant"


def test_bad_row_names_line_and_field(tmp_path, rl_rows):
    rec = rl_rows[0].to_record()
    del rec["task_json"]
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(rl_rows[1].to_record()) + "\n" + json.dumps(rec) + "\n")
    with pytest.raises(DataError, match="line 2") as err:
        read_rows(p, "rl")
    assert err.value.field == "task_json"


def _episode(row: RLRow, replies: list[str], **cfg) -> CodingEnv:
    env = CodingEnv(row, user=ScriptedUser(max_turns=3), config=EnvConfig(**cfg), seed=1)
    env.reset()

    async def go() -> None:
        for text in replies:
            if env.done:
                break
            await env.step(text)
    asyncio.run(go())
    return env


def test_correct_submission_satisfies_user_and_earns_full_reward(rl_rows):
    row = rl_rows[0]
    env = _episode(row, [submit(row.task().reference_solution)])
    s = env.summary()
    assert env.done and s.finish_reason == "user_satisfied" and s.last_check.passed
    scored = score_episode(row.verifier, solution=s.solution, n_tool_calls=s.n_tool_calls,
                           finish_reason=s.finish_reason, tools_used=s.tools_used)
    assert scored.reward == 1.0 and scored.verifier.verified


def test_tool_call_runs_in_sandbox_then_wrong_submission_gets_effort_floor(rl_rows):
    row = rl_rows[0]
    env = _episode(row, ["```python\nprint(6 * 7)\n```",
                         submit("def count_vowels(s):\n    return len(s)")], max_assistant_turns=2)
    s = env.summary()
    assert s.n_tool_calls == 2 and s.tools_used == ["run_python", "submit"]
    assert s.finish_reason == "submitted" and not s.last_check.passed
    scored = score_episode(row.verifier, solution=s.solution, n_tool_calls=s.n_tool_calls,
                           finish_reason=s.finish_reason, tools_used=s.tools_used,
                           check=s.last_check)
    assert scored.grader < 0.5
    assert scored.reward == pytest.approx(max(scored.grader, 0.05 * 2 + 0.05))


def test_stub_submission_is_gated_to_zero(rl_rows):
    row = rl_rows[0]
    scored = score_episode(row.verifier, solution="def count_vowels(s):\n    pass",
                           n_tool_calls=6, finish_reason="submitted", tools_used=["a", "b", "c"])
    assert scored.reward == 0.0 and scored.gated


def test_prompted_user_from_row_reference(rl_rows):
    pytest.importorskip("autointeract.rollout.prompted_user")
    from autointeract.dataset.rows import UserModelRef

    user = make_user(UserModelRef(kind="prompted", config={"mode": "template"}))
    env = CodingEnv(rl_rows[1], user=user, seed=3)
    env.reset()
    out = asyncio.run(env.step("Which input format do you want?"))
    assert out[0]["role"] == "user" and out[0]["content"]


def test_compute_score_reads_episode_from_extra_info(rl_rows):
    row = rl_rows[1]
    ref = row.task().reference_solution
    gt = row.verifier.model_dump_json()
    ep = {"solution": ref, "n_tool_calls": 1, "tools_used": ["submit"],
          "finish_reason": "user_satisfied"}
    assert compute_score(row.data_source, "ignored", gt, {"autointeract_episode": ep})["score"] == 1.0
    # single-turn fallback: the submission is parsed from the response text
    assert compute_score(row.data_source, submit(ref), gt, {})["passed"] == 1.0
    no_code = compute_score(row.data_source, "I cannot do this.", gt, {})
    assert no_code["score"] == 0.0 and no_code["gated"] == 1.0
