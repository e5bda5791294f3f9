"""Provider faults (timeouts, 429, 500, malformed JSON, empty replies) injected at 10-20% into
every LLM-using stage, through the real pipeline stage functions and scripted models.

Each stage must complete; a failed item is retried or recorded as failed with its reason; the
output of a faulted run is compared with a fault-free run of the same config and seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autointeract.config import ModelConfig
from autointeract.llm import ScriptedModel
from autointeract.pipeline import PipelineConfig, StageEntry, run_pipeline

from .helpers import (ALL_KINDS, RETRYABLE, fast_llm, injected, read_jsonl, toy_sessions,
                      with_faults)


def _run(tmp: Path, models: dict[str, ModelConfig], stages: list[dict[str, Any]], *,
         seed: int = 0, **llm: Any) -> Any:
    cfg = PipelineConfig(name="f", seed=seed, run_dir=str(tmp), llm=fast_llm(**llm),
                         models=models, stages=[StageEntry(**s) for s in stages])
    return run_pipeline(cfg, log=lambda _s: None)


# -- history: the dspy LLM labeler --------------------------------------------------------

def _act_reply(messages: list[dict[str, Any]]) -> str:
    turn = messages[-1]["content"].split("[[ ## turn ## ]]")[-1].split("[[ ##")[0]
    act = "question" if "?" in turn else "request"
    return f"[[ ## act ## ]]\n{act}\n\n[[ ## completed ## ]]"


def _labels(run: Path) -> list[tuple[str, int, str, str, str]]:
    return [(s["id"], i, m["content"], m["meta"]["act"], m["meta"]["act_source"])
            for s in read_jsonl(run / "history" / "sessions.jsonl")
            for i, m in enumerate(s["messages"]) if m["meta"].get("kind") == "genuine"]


def test_history_llm_labeler_under_faults(tmp_path: Path, sample_sessions: Path) -> None:
    labeler = ScriptedModel([_act_reply], cycle=True)
    stage = {"stage": "history", "params": {"source": str(sample_sessions), "labeler": "llm",
                                            "model": "lab"}}
    clean = _run(tmp_path / "clean", {"lab": with_faults(labeler.model, rate=0)}, [stage])
    ctx = _run(tmp_path / "faulty", {"lab": with_faults(labeler.model, rate=0.2, seed=3)},
               [stage], max_retries=2)
    want, got = _labels(tmp_path / "clean"), _labels(tmp_path / "faulty")
    assert {s for *_, s in want} == {"llm"}
    # every session and every genuine turn is still there, in order
    assert [w[:3] for w in want] == [g[:3] for g in got]
    assert ctx.outputs["history"]["n_sessions"] == clean.outputs["history"]["n_sessions"]
    faults = injected(ctx.llm)
    assert sum(faults.values()) >= 3, faults
    fallback = 0
    for w, g in zip(want, got, strict=True):
        if g[4] == "llm":
            assert g[3] == w[3]  # a label the LM gave is the fault-free label
        else:
            fallback += 1
            assert g[4] == "rules_fallback"
    # a fallback names its reason in the stored turn
    rows = read_jsonl(tmp_path / "faulty" / "history" / "sessions.jsonl")
    reasons = [m["meta"]["act_reason"] for s in rows for m in s["messages"]
               if m["meta"].get("act_source") == "rules_fallback"]
    assert len(reasons) == fallback and all("llm_invalid" in r for r in reasons)
    usage = ctx.llm.usage.summary()["history"]
    assert usage["retries"] >= 1
    # the same seeds give the same run: fault draws are a function of seed and request
    again = _run(tmp_path / "again", {"lab": with_faults(labeler.model, rate=0.2, seed=3)},
                 [stage], max_retries=2)
    assert _labels(tmp_path / "again") == got
    assert injected(again.llm) == faults


# -- users_fit: GEPA fitting ---------------------------------------------------------------

def _fit(tmp: Path, src: Path, *, rate: float, kinds: list[str]) -> tuple[Any, dict, str]:
    from autointeract.users.fakes import directive_following_user, feedback_reflector

    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)
    models = {"weak": with_faults(sim.model, rate=rate, seed=5, kinds=kinds),
              "strong": with_faults(refl.model, rate=rate, seed=6, kinds=kinds)}
    ctx = _run(tmp, models, [{"stage": "users_fit", "params": {
        "sessions": str(src), "budget": 30, "max_examples": 10, "workers": 2,
        "seed_prompt": "You are a friendly user."}}], seed=3)
    out = ctx.outputs["users_fit"]
    prompt = (Path(out["model_dir"]) / "behavior_prompt.md").read_text()
    return ctx, out, prompt


@pytest.mark.parametrize("kinds", [RETRYABLE, ALL_KINDS], ids=["retryable", "all-kinds"])
def test_users_fit_under_faults(tmp_path: Path, kinds: list[str]) -> None:
    src = toy_sessions(tmp_path / "sessions.jsonl")
    _, clean, clean_prompt = _fit(tmp_path / "clean", src, rate=0, kinds=kinds)
    ctx, out, prompt = _fit(tmp_path / "faulty", src, rate=0.15, kinds=kinds)
    assert sum(injected(ctx.llm).values()) >= 3
    assert out["n_train"] == clean["n_train"] and out["n_val"] == clean["n_val"]
    assert out["metric_calls"] >= 30  # the whole budget was spent despite the faults
    if kinds == RETRYABLE:  # every fault is retried away: the very same fit
        assert ctx.llm.usage.summary()["total"]["retries"] >= 3
        assert (out["seed_score"], out["best_score"]) == (clean["seed_score"], clean["best_score"])
        assert prompt == clean_prompt
    else:  # bad replies score as bad examples; the fit still ends with a saved model
        assert prompt.strip() and out["best_score"] >= out["seed_score"]


# -- profiles: MAP-Elites evolution --------------------------------------------------------

def _evolve(tmp: Path, sessions: Path, *, rate: float, kinds: list[str]) -> tuple[Any, dict]:
    from autointeract.profiles.fakes import style_following_model

    user = style_following_model()
    params = {"sessions": str(sessions), "user_model": "users", "name": "demo",
              "evolve": {"iterations": 1, "batch_size": 2, "n_seeds": 3,
                         "probes": {"n_probes": 1}, "archive": {"dims": [5, 5]}}}
    ctx = _run(tmp, {"users": with_faults(user.model, rate=rate, seed=2, kinds=kinds,
                                          max_tokens=64)},
               [{"stage": "profiles", "params": params}])
    return ctx, ctx.outputs["profiles"]


@pytest.mark.parametrize("kinds", [RETRYABLE, ALL_KINDS], ids=["retryable", "all-kinds"])
def test_profiles_evolve_under_faults(tmp_path: Path, sample_sessions: Path,
                                      kinds: list[str]) -> None:
    _, clean = _evolve(tmp_path / "clean", sample_sessions, rate=0, kinds=kinds)
    ctx, out = _evolve(tmp_path / "faulty", sample_sessions, rate=0.2, kinds=kinds)
    assert sum(injected(ctx.llm).values()) >= 2
    root = tmp_path / "faulty" / "user_models" / "demo"
    elites = read_jsonl(root / "profiles.jsonl")
    assert out["n_elites"] == len(elites) >= 1
    assert [h["iteration"] for h in out["history"]] == [h["iteration"] for h in clean["history"]]
    if kinds == RETRYABLE:  # retried away: the same archive as without faults
        ref = read_jsonl(tmp_path / "clean" / "user_models" / "demo" / "profiles.jsonl")
        assert elites == ref


# -- generate: calibrated task generation ------------------------------------------------

GOOD = ("SUBMIT\n```python\ndef count_vowels(text):\n"
        "    return sum(ch in 'aeiou' for ch in text.lower())\n```")
BAD = "SUBMIT\n```python\ndef count_vowels(text):\n    return len(text)\n```"
DRAFT = {"opening": "can u write count_vowels for me", "stated": [0, 1], "hidden": [],
         "constraints": []}


def _generate(tmp: Path, *, rate: float, kinds: list[str]) -> tuple[Any, dict]:
    strong = ScriptedModel([GOOD], cycle=True)
    weak = ScriptedModel([BAD], cycle=True)
    gen = ScriptedModel([f"[[ ## variant ## ]]\n{json.dumps(DRAFT)}\n\n[[ ## completed ## ]]"],
                        cycle=True)
    models = {name: with_faults(m.model, rate=rate, seed=i, kinds=kinds)
              for i, (name, m) in enumerate({"weak": weak, "strong": strong, "gen": gen}.items())}
    ctx = _run(tmp, models, [{"stage": "generate", "params": {
        "seeds": {"ids": ["count-vowels", "digit-sums"]}, "generator": {"model": "gen"},
        "weak": {"model": "weak", "max_turns": 2}, "strong": {"model": "strong", "max_turns": 2},
        "band": {"confidence": 0.75, "max_n": 4}, "controller": {"start_level": 0},
        "verify": "reference", "concurrency": 4, "progress": False}}],
        max_retries=4 if kinds == RETRYABLE else 2)
    return ctx, ctx.outputs["generate"]


def _candidates(run: Path) -> dict[str, str]:
    rows = read_jsonl(run / "generate" / "candidates.jsonl")
    return {r["candidate_id"]: r["outcome"]["status"] for r in rows}


@pytest.mark.parametrize("kinds", [RETRYABLE, ALL_KINDS], ids=["retryable", "all-kinds"])
def test_generate_under_faults(tmp_path: Path, kinds: list[str]) -> None:
    _, clean = _generate(tmp_path / "clean", rate=0, kinds=kinds)
    ctx, out = _generate(tmp_path / "faulty", rate=0.2, kinds=kinds)
    assert sum(injected(ctx.llm).values()) >= 3
    got, want = _candidates(tmp_path / "faulty"), _candidates(tmp_path / "clean")
    assert len(got) == out["candidates"] and all(got.values())
    trajs = read_jsonl(tmp_path / "faulty" / "generate" / "interactions.jsonl")
    ids = [t["episode_id"] for t in trajs]
    assert len(ids) == len(set(ids))  # no episode written twice
    errors = [t for t in trajs if t["finish_reason"].endswith("_error")]
    assert all(t["meta"].get("error") for t in errors)  # a failed episode keeps its reason
    if kinds == RETRYABLE:  # retried away: the same candidates with the same verdicts
        assert got == want and out["accepted"] == clean["accepted"]
        assert not errors
    assert (tmp_path / "faulty" / "generate" / "dataset" / "tasks.jsonl").exists()


# -- eval: benchmark runs ----------------------------------------------------------------

def _solver() -> str:
    from autointeract.scenarios import load_tasks

    refs = {t.initial_message.strip(): t.reference_solution or "" for t in load_tasks("builtin")}

    def reply(messages: list[dict[str, Any]]) -> str:
        opening = next(m["content"] for m in messages if m["role"] == "user").strip()
        return f"SUBMIT\n```python\n{refs.get(opening) or 'def f():'}\n```"

    return ScriptedModel([reply], cycle=True).model


def _eval(tmp: Path, model: str, *, rate: float, kinds: list[str],
          retries: int = 4) -> tuple[Any, dict]:
    ctx = _run(tmp, {"solver": with_faults(model, rate=rate, seed=4, kinds=kinds)},
               [{"stage": "eval", "name": "ev", "params": {
                   "solver": "solver", "benchmarks": [{"family": "builtin", "limit": 4}],
                   "k": 3, "tool_mode": "text", "max_turns": 2, "concurrency": 4,
                   "n_boot": 200, "user": {"prompted": {"max_user_turns": 2}}}}],
               max_retries=retries)
    return ctx, ctx.outputs["ev"]


def _episodes(run: Path) -> dict[str, tuple[str, float]]:
    return {t["episode_id"]: (t["finish_reason"], t["reward"])
            for t in read_jsonl(run / "ev" / "trajectories.jsonl")}


@pytest.mark.parametrize("kinds", [RETRYABLE, ALL_KINDS], ids=["retryable", "all-kinds"])
def test_eval_under_faults(tmp_path: Path, kinds: list[str]) -> None:
    model = _solver()
    _, clean = _eval(tmp_path / "clean", model, rate=0, kinds=kinds)
    retries = 4 if kinds == RETRYABLE else 1
    ctx, out = _eval(tmp_path / "faulty", model, rate=0.2, kinds=kinds, retries=retries)
    assert sum(injected(ctx.llm).values()) >= 2
    assert clean["pass@1"] == 1.0 and clean["runs"] == 12
    got, want = _episodes(tmp_path / "faulty"), _episodes(tmp_path / "clean")
    assert set(got) | {e.split(":")[0] for e in out["failed"]} == set(want)  # none lost
    rows = read_jsonl(tmp_path / "faulty" / "ev" / "trajectories.jsonl")
    # an episode whose model failed after its retries is recorded with the reason
    assert all("injected" in r["meta"]["error"] for r in rows
               if r["finish_reason"].endswith("_error"))
    if kinds == RETRYABLE:
        assert got == want and out["pass@1"] == 1.0 and not out["failed"]
    else:  # a garbled reply may cost the episode, but it is recorded with its outcome
        assert out["runs"] == len(got) == 12
