import asyncio

import pytest
from pydantic import BaseModel

from autointeract.config import LLMConfig
from autointeract.errors import LLMError, StructuredOutputError
from autointeract.llm import FaultyModel, LLMClient, ReplayModel, ScriptedModel
from autointeract.llm.cache import request_key


def client(tmp_path, **kw):
    return LLMClient(LLMConfig(cache_dir=str(tmp_path / "cache"), backoff_base_s=0.001, **kw))


MSG = [{"role": "user", "content": "hi"}]


def test_cache_hit_miss_and_bypass(tmp_path):
    m = ScriptedModel(["first", "second", "third"])
    c = client(tmp_path)
    a = c.complete(m.model, MSG, stage="s", seed=1)
    b = c.complete(m.model, MSG, stage="s", seed=1)
    assert (a.content, a.cached) == ("first", False)
    assert (b.content, b.cached) == ("first", True)
    assert len(m.requests) == 1  # the second call never reached the model
    bypass = c.complete(m.model, MSG, stage="s", seed=1, cache=False)
    assert (bypass.content, bypass.cached) == ("second", False)
    other_seed = c.complete(m.model, MSG, stage="s", seed=2)
    assert other_seed.content == "third"
    u = c.usage.summary()["s"]
    assert u["calls"] == 4 and u["cached_calls"] == 1


def test_cache_persists_across_clients(tmp_path):
    m = ScriptedModel(["persisted"], name="persist-test")
    client(tmp_path).complete(m.model, MSG)
    m2 = ScriptedModel([], name="persist-test")  # would fail if called
    again = client(tmp_path).complete(m2.model, MSG)
    assert again.cached and again.content == "persisted"


def test_canonical_key_ignores_dict_order():
    a = {"model": "x", "messages": [{"role": "user", "content": "a"}], "temperature": 0.1}
    b = {"temperature": 0.1, "messages": [{"content": "a", "role": "user"}], "model": "x"}
    assert request_key(a) == request_key(b)
    assert request_key(a) != request_key({**a, "seed": 1})


@pytest.mark.parametrize("kind", ["rate_limit", "server_error", "timeout"])
def test_retries_on_injected_faults(tmp_path, kind):
    inner = ScriptedModel(["ok"], cycle=True)
    f = FaultyModel(inner.model, rate=0.5, kinds=[kind], seed=3)
    c = client(tmp_path, max_retries=6)
    outs = [c.complete(f.model, [{"role": "user", "content": str(i)}], cache=False).content
            for i in range(8)]
    assert outs == ["ok"] * 8
    assert f.injected[kind] > 0
    assert c.usage.summary()["default"]["retries"] == f.injected[kind]


def test_gives_up_after_max_retries(tmp_path):
    f = FaultyModel(ScriptedModel(["ok"], cycle=True).model, rate=1.0, kinds=["server_error"])
    c = client(tmp_path, max_retries=2)
    with pytest.raises(LLMError, match="InternalServerError"):
        c.complete(f.model, MSG, cache=False)
    assert c.usage.summary()["default"]["failed_calls"] == 1


def test_non_retryable_error_is_not_retried(tmp_path):
    m = ScriptedModel([])  # raises LLMError: no output left
    c = client(tmp_path, max_retries=5)
    with pytest.raises(LLMError):
        c.complete(m.model, MSG, cache=False)
    assert c.usage.summary()["default"]["retries"] == 0


class Answer(BaseModel):
    value: int


def test_structured_repairs_once(tmp_path):
    m = ScriptedModel(['sure! {"value": "not a number"}', '```json\n{"value": 7}\n```'])
    got = client(tmp_path).structured(m.model, MSG, Answer, cache=False)
    assert got.value == 7
    assert "not valid" in m.requests[1]["messages"][-1]["content"]


def test_structured_typed_error_after_repair(tmp_path):
    m = ScriptedModel(["no json here", '{"value": 1'])
    with pytest.raises(StructuredOutputError) as err:
        client(tmp_path).structured(m.model, MSG, Answer, cache=False)
    assert err.value.raw == '{"value": 1'


def test_async_concurrency_limit(tmp_path):
    m = ScriptedModel(["x"], cycle=True, latency_s=0.05)
    c = client(tmp_path, max_concurrency=2)

    async def go():
        return await asyncio.gather(*[c.acomplete(m.model, [{"role": "user", "content": str(i)}],
                                                  cache=False) for i in range(6)])

    import time
    t0 = time.perf_counter()
    outs = asyncio.run(go())
    assert [o.content for o in outs] == ["x"] * 6
    assert time.perf_counter() - t0 >= 0.14  # 6 calls, 2 at a time, 50 ms each


def test_replay_records_then_replays_and_fails_on_unseen(tmp_path):
    inner = ScriptedModel(["recorded"])
    rec = ReplayModel(tmp_path / "rec.json", inner=inner.model)
    c = client(tmp_path)
    assert c.complete(rec.model, MSG, cache=False).content == "recorded"
    replay = ReplayModel(tmp_path / "rec.json")
    assert c.complete(replay.model, MSG, cache=False).content == "recorded"
    with pytest.raises(LLMError, match="unseen request"):
        c.complete(replay.model, [{"role": "user", "content": "new"}], cache=False)


def test_dspy_program_runs_through_client(tmp_path):
    import dspy

    from autointeract.llm import make_dspy_lm

    m = ScriptedModel(["[[ ## answer ## ]]\n42\n\n[[ ## completed ## ]]"], cycle=True)
    c = client(tmp_path)
    with dspy.context(lm=make_dspy_lm(c, m.model, stage="dspy")):
        pred = dspy.Predict("question -> answer")(question="6*7?")
    assert pred.answer == "42"
    assert c.usage.summary()["dspy"]["calls"] == 1


def test_fault_config_routes_through_faulty_model_deterministically(tmp_path):
    from autointeract.config import FaultConfig, ModelConfig

    inner = ScriptedModel(["ok"], cycle=True)
    cfg = ModelConfig(model=inner.model, faults=FaultConfig(rate=0.5, seed=4,
                                                           kinds=["rate_limit", "empty"]))
    outs = []
    for _ in range(2):
        c = client(tmp_path, max_retries=8)
        outs.append([c.complete(cfg, [{"role": "user", "content": str(i)}], cache=False).content
                     for i in range(12)])
        assert c.usage.summary()["default"]["retries"] > 0
    assert outs[0] == outs[1]  # same seed, same requests: the same faults
    assert "" in outs[0] and "ok" in outs[0]  # empty replies reach the caller, 429s are retried
