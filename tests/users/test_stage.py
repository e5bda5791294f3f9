"""The users_fit -> users_fidelity stages in a pipeline, with fake models."""

import json

from autointeract.config import LLMConfig, ModelConfig
from autointeract.history.corpus import write_sessions_jsonl
from autointeract.llm import ScriptedModel
from autointeract.pipeline import PipelineConfig, StageEntry, run_pipeline
from autointeract.users.fakes import directive_following_user, feedback_reflector


def test_fit_then_fidelity_stages(toy_sessions, tmp_path):
    src = tmp_path / "sessions.jsonl"
    write_sessions_jsonl(toy_sessions, src)
    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)
    cfg = PipelineConfig(
        name="t", seed=3, run_dir=str(tmp_path / "run"), llm=LLMConfig(cache_dir=None),
        models={"weak": ModelConfig(model=sim.model), "strong": ModelConfig(model=refl.model)},
        stages=[StageEntry(stage="users_fit", params={"sessions": str(src), "budget": 30,
                                                      "max_examples": 10,
                                                      "seed_prompt": "You are a friendly user."}),
                StageEntry(stage="users_fidelity", params={"sessions": str(src),
                                                           "max_examples": 6})])
    ctx = run_pipeline(cfg, log=lambda _: None)
    fit, fid = ctx.outputs["users_fit"], ctx.outputs["users_fidelity"]
    assert fit["best_score"] > fit["seed_score"]
    assert fit["model_dir"].startswith(str(tmp_path / "run" / "user_models"))
    prov = json.loads((tmp_path / "run/user_models/demo/provenance.json").read_text())
    assert prov["seed"] == 3 and prov["models"]["simulator"] == sim.model
    assert not fid["overlaps_training"]
    m = fid["metrics"]
    assert m["fitted"]["next_turn_score"] > m["seed"]["next_turn_score"]
    assert m["fitted"]["act_tvd"] < m["seed"]["act_tvd"]
    assert (tmp_path / "run/users_fidelity/report.json").is_file()
