import json

import pytest

from autointeract.errors import ConfigError, DataError
from autointeract.llm import ScriptedModel
from autointeract.users.adapter import UserPromptAdapter
from autointeract.users.artifact import load_user_model
from autointeract.users.examples import extract_examples
from autointeract.users.fakes import directive_following_user, feedback_reflector
from autointeract.users.fit import FitConfig, fit_user_model

from .conftest import toy_session


def test_adapter_contract_lengths_and_failures_score_zero(client, toy_sessions):
    batch = extract_examples(toy_sessions[:2], max_per_session=2)
    calls = {"n": 0}

    def flaky(messages):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("boom")  # a non-retryable provider failure
        return "no still broken"

    sim = ScriptedModel([flaky], cycle=True)
    ad = UserPromptAdapter(client, sim.model)
    out = ad.evaluate(batch, {"behavior_prompt": "be terse"}, capture_traces=True)
    assert len(out.outputs) == len(out.scores) == len(out.trajectories) == len(batch) == 4
    assert out.scores[1] == 0.0 and out.outputs[1] == "" and "boom" in out.trajectories[1]["error"]
    assert all(s > 0.5 for i, s in enumerate(out.scores) if i != 1)
    assert ad.evaluate(batch, {"behavior_prompt": "x"}).trajectories is None
    ds = ad.make_reflective_dataset({"behavior_prompt": "x"}, out, ["behavior_prompt"])
    recs = ds["behavior_prompt"]
    assert len(recs) == 4 and {"Inputs", "Generated Outputs", "Feedback"} <= set(recs[0])
    assert any("Generation failed" in r["Feedback"] for r in recs)
    assert all("The real user wrote" in r["Feedback"] for r in recs)


def test_gepa_fit_improves_prompt_end_to_end(client, toy_sessions, tmp_path):
    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)
    cfg = FitConfig(model=sim.model, reflection_model=refl.model, budget=40, max_examples=12,
                    seed_prompt="You are a friendly user.", seed=0)
    res = fit_user_model(toy_sessions, name="toy", out_dir=tmp_path / "um", client=client,
                         config=cfg, run_dir=tmp_path / "gepa")
    assert res.best_score > res.seed_score + 0.4
    assert res.n_candidates >= 3 and res.metric_calls <= 40 + cfg.minibatch_size * 2
    um = load_user_model(res.model_dir)
    assert "Push back" in um.behavior_prompt and um.seed_prompt.strip() == "You are a friendly user."
    assert len(refl.requests) >= 2  # real reflection calls through the LLM layer
    assert "The real user wrote" in refl.requests[0]["messages"][0]["content"]
    scores = json.loads((tmp_path / "um" / "toy" / "scores.json").read_text())
    assert scores["fitted"]["act_agreement"] > scores["seed"]["act_agreement"]
    prov = um.provenance
    assert prov["seed"] == 0 and set(prov["sessions"]["heldout"]).isdisjoint(prov["sessions"]["train"])
    assert prov["versions"]["gepa"]
    assert (tmp_path / "gepa").is_dir()


def test_fit_rejects_too_little_data_and_budget(client, tmp_path):
    one_turn = [toy_session(0, turns=[])]
    with pytest.raises(DataError, match="usable user turn"):
        fit_user_model(one_turn, name="x", out_dir=tmp_path, client=client,
                       config=FitConfig(model="scripted/none", reflection_model="scripted/none"))
    with pytest.raises(ConfigError, match="budget"):
        fit_user_model([toy_session(i) for i in range(6)], name="x", out_dir=tmp_path,
                       client=client, config=FitConfig(model="scripted/none",
                                                        reflection_model="scripted/none", budget=3))


def test_fit_resumes_from_run_dir(client, toy_sessions, tmp_path):
    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)

    def fit(budget):
        cfg = FitConfig(model=sim.model, reflection_model=refl.model, budget=budget,
                        max_examples=12, seed_prompt="You are a friendly user.")
        return fit_user_model(toy_sessions, name="toy", out_dir=tmp_path / "um", client=client,
                              config=cfg, run_dir=tmp_path / "gepa")

    first = fit(16)
    n_refl = len(refl.requests)
    again = fit(16)  # same budget: the saved state is already done, no new reflection
    assert len(refl.requests) == n_refl and again.n_candidates == first.n_candidates
    more = fit(40)
    assert more.n_candidates > first.n_candidates and more.metric_calls > first.metric_calls
