"""Fit a user model's behavior prompt to real sessions with GEPA.

    result = fit_user_model(sessions, name="swe-together", out_dir="user_models",
                            client=client, config=FitConfig(budget=60, seed=0))

Sessions are split into train and held-out (kept for fidelity); next-turn examples of the
train sessions are split again into GEPA's train set (reflection minibatches) and validation
set (candidate selection). Both the simulator and the reflection model are called through the
project's :class:`~autointeract.llm.LLMClient` (cache, retries, accounting). ``run_dir`` holds
gepa's state: re-running with the same ``run_dir`` resumes.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autointeract.config import ModelConfig, StrictModel, config_hash, package_versions
from autointeract.errors import ConfigError, DataError
from autointeract.types import Session
from autointeract.users.adapter import COMPONENT, UserPromptAdapter
from autointeract.users.artifact import save_user_model
from autointeract.users.examples import NextTurnExample, extract_examples, split_sessions
from autointeract.users.scoring import DEFAULT_WEIGHTS
from autointeract.users.seed import SEED_BEHAVIOR_PROMPT

REFLECTION_TEMPLATE = """You are improving the BEHAVIOR PROMPT of a user simulator: a language \
model reads it and then writes the next message of a human developer talking to an AI coding \
agent. The goal is that simulated messages are indistinguishable from the real developers' \
messages: same kind of act (request, correction, failure report, question, approval, new \
requirement), same length, same casual style (case, punctuation, typos, no markdown), same \
amount of pushback.

Current behavior prompt:
```
<curr_param>
```

Below are conversations, the message the simulator wrote under this prompt, what the real \
developer wrote, and feedback on each difference:
```
<side_info>
```

Write an improved behavior prompt. Keep what works, fix what the feedback shows, and state \
general rules (how long, how casual, when to push back, when to approve), not the content of \
these particular conversations. Write it in the second person ("You are ..."). Reply with the \
new behavior prompt inside ``` blocks."""


class FitConfig(StrictModel):
    """Settings of one fit.

    Attributes:
        model: Simulator model (litellm string or embedded ``local/...``).
        reflection_model: Model that rewrites the prompt from feedback.
        judge_model: Optional LLM judge added to the score.
        budget: GEPA's ``max_metric_calls`` (one per simulated example).
        seed: Seed of splits, sampling and GEPA.
        heldout_fraction: Share of sessions held out (never seen by the fit).
        val_fraction: Share of the train examples used as GEPA's validation set.
        max_examples: Next-turn examples drawn from the train sessions.
        max_per_session: Examples per session at most.
        minibatch_size: Examples per reflection step.
        reflection_records: Examples (worst first) shown to the reflection model per step.
        max_tokens: Token limit of a simulated turn.
        reflection_max_tokens: Token limit of a proposed prompt.
        context_chars: Transcript budget per example.
        weights: Score weights (``act``, ``length``, ``style``, ``lexical``, ``judge``).
        workers: Examples generated concurrently (embedded models serialize anyway).
        seed_prompt: The starting prompt (the shipped seed prompt when omitted).
    """

    model: str = "local/smollm2-135m"
    reflection_model: str = "local/qwen2.5-coder-0.5b"
    judge_model: str | None = None
    budget: int = Field(60, ge=1)
    seed: int = 0
    heldout_fraction: float = Field(0.3, ge=0.0, lt=1.0)
    val_fraction: float = Field(0.4, gt=0.0, lt=1.0)
    max_examples: int = Field(24, ge=2)
    max_per_session: int = Field(4, ge=1)
    minibatch_size: int = Field(3, ge=1)
    reflection_records: int = Field(4, ge=1)
    max_tokens: int = Field(60, ge=4)
    reflection_max_tokens: int = Field(600, ge=32)
    context_chars: int = Field(1500, ge=200)
    weights: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    workers: int = Field(4, ge=1)
    seed_prompt: str | None = None


class FitResult(BaseModel):
    """What a fit produced."""

    model_dir: str
    seed_score: float
    best_score: float
    n_candidates: int
    metric_calls: int
    n_train: int
    n_val: int
    heldout_sessions: list[str] = Field(default_factory=list)


class ClientReflectionLM:
    """gepa's ``reflection_lm`` callable, routed through the project's LLM client."""

    def __init__(self, client: Any, model: Any, *, seed: int = 0, max_tokens: int = 600,
                 stage: str = "users.fit.reflect"):
        self.client, self.model, self.seed = client, model, seed
        self.max_tokens, self.stage = max_tokens, stage
        self.calls = 0

    def __call__(self, prompt: str | list[dict[str, Any]]) -> str:
        msgs = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
        self.calls += 1
        return self.client.complete(self.model, msgs, stage=self.stage, seed=self.seed,
                                    max_tokens=self.max_tokens).content


class _QuietLogger:
    def __init__(self, sink: Callable[[str], None] | None = None):
        self.sink = sink

    def log(self, message: str) -> None:
        if self.sink:
            self.sink(message)


def split_examples(examples: Sequence[NextTurnExample], *, val_fraction: float,
                   seed: int) -> tuple[list[NextTurnExample], list[NextTurnExample]]:
    """Seeded split of examples into (train, validation); each side gets at least one."""
    ex = list(examples)
    random.Random(seed).shuffle(ex)
    n_val = min(max(1, round(len(ex) * val_fraction)), len(ex) - 1)
    return ex[n_val:], ex[:n_val]


def _mean_parts(adapter: UserPromptAdapter, prompt: str,
                val: Sequence[NextTurnExample]) -> dict[str, float]:
    from autointeract.users.scoring import score_turn

    rows = []
    for ex in val:
        try:
            sim = adapter.predict(prompt, ex)
        except Exception:  # noqa: BLE001 - reported as a zero score
            sim = ""
        rows.append(score_turn(sim, ex.real_turn, real_act=ex.real_act,
                               turn_index=ex.turn_index, n_turns=ex.n_turns,
                               weights=adapter.weights))
    keys = sorted({k for r in rows for k in r.parts})
    out = {k: round(statistics.fmean(r.parts.get(k, 0.0) for r in rows), 4) for k in keys}
    out["score"] = round(statistics.fmean(r.score for r in rows), 4)
    out["act_agreement"] = out.get("act", 0.0)
    return out


def fit_user_model(sessions: Sequence[Session], *, name: str, out_dir: str | Path,
                   client: Any, config: FitConfig | None = None,
                   run_dir: str | Path | None = None,
                   on_progress: Callable[[int, int], None] | None = None,
                   log: Callable[[str], None] | None = None,
                   models: dict[str, ModelConfig] | None = None) -> FitResult:
    """Fit a behavior prompt with GEPA and save it to ``out_dir/name``.

    Args:
        sessions: Real sessions (normalized; see :mod:`autointeract.history`).
        name: The user model's name (its folder name).
        out_dir: Where user models live (``user_models``).
        client: The :class:`~autointeract.llm.LLMClient`.
        config: Fit settings.
        run_dir: gepa's state folder (resumes when it exists); none when omitted.
        on_progress: Called with (metric calls done, budget) after each scored example.
        log: Receives gepa's log lines.
        models: Resolved model configs by name (else the names are litellm strings).

    Returns:
        The fit's summary.

    Raises:
        DataError: Too few usable turns in ``sessions``.
        ConfigError: The budget cannot cover one validation pass and one iteration.
    """
    import gepa

    cfg = config or FitConfig()
    if not name or "/" in name or name.startswith("."):
        raise ConfigError(f"invalid user model name {name!r}", field="name")
    models = models or {}
    sim_model = models.get(cfg.model, cfg.model)
    refl_model = models.get(cfg.reflection_model, cfg.reflection_model)
    judge_model = models.get(cfg.judge_model, cfg.judge_model) if cfg.judge_model else None
    train_s, held_s = split_sessions(sessions, heldout_fraction=cfg.heldout_fraction, seed=cfg.seed)
    examples = extract_examples(train_s, max_per_session=cfg.max_per_session,
                                max_examples=cfg.max_examples, seed=cfg.seed,
                                max_context_chars=cfg.context_chars)
    if len(examples) < 2:
        raise DataError(f"only {len(examples)} usable user turn(s) in {len(train_s)} training "
                        "session(s); need at least 2 (sessions with several user turns)",
                        field="sessions")
    train, val = split_examples(examples, val_fraction=cfg.val_fraction, seed=cfg.seed)
    need = len(val) + 2 * min(cfg.minibatch_size, len(train))
    if cfg.budget < need:
        raise ConfigError(f"budget {cfg.budget} is below one validation pass plus one iteration "
                          f"({need} metric calls with {len(val)} validation examples)",
                          field="budget")
    done = [0]

    def tick() -> None:
        done[0] += 1
        if on_progress:
            on_progress(done[0], cfg.budget)

    workers = 1 if str(getattr(sim_model, "model", sim_model)).startswith("local/") else cfg.workers
    adapter = UserPromptAdapter(client, sim_model, max_tokens=cfg.max_tokens, seed=cfg.seed,
                                weights=cfg.weights, judge_model=judge_model, workers=workers,
                                max_records=cfg.reflection_records,
                                record_chars=min(800, cfg.context_chars), on_metric_call=tick)
    seed_prompt = cfg.seed_prompt or SEED_BEHAVIOR_PROMPT
    reflection = ClientReflectionLM(client, refl_model, seed=cfg.seed,
                                    max_tokens=cfg.reflection_max_tokens)
    if run_dir is not None:
        Path(run_dir).mkdir(parents=True, exist_ok=True)
    result = gepa.optimize(
        seed_candidate={COMPONENT: seed_prompt}, trainset=train, valset=val, adapter=adapter,
        reflection_lm=reflection, reflection_prompt_template=REFLECTION_TEMPLATE,
        candidate_selection_strategy="pareto", reflection_minibatch_size=cfg.minibatch_size,
        max_metric_calls=cfg.budget, seed=cfg.seed, logger=_QuietLogger(log),
        run_dir=str(run_dir) if run_dir is not None else None, raise_on_exception=False,
        skip_perfect_score=True, display_progress_bar=False)
    best = result.best_candidate[COMPONENT]
    seed_parts = _mean_parts(adapter, seed_prompt, val)
    best_parts = _mean_parts(adapter, best, val)
    scores = {
        "metric": "next-turn match on validation examples (see autointeract.users.scoring)",
        "seed": {"val_score": round(result.val_aggregate_scores[0], 4), **seed_parts},
        "fitted": {"val_score": round(result.val_aggregate_scores[result.best_idx], 4),
                   **best_parts},
        "candidates": [{"idx": i, "val_score": round(s, 4), "parents": result.parents[i]}
                       for i, s in enumerate(result.val_aggregate_scores)],
        "best_idx": result.best_idx, "metric_calls": result.total_metric_calls,
        "reflection_calls": reflection.calls, "n_train": len(train), "n_val": len(val),
        "weights": cfg.weights,
    }

    def model_name(m: Any) -> str:
        return str(getattr(m, "model", m))

    provenance = {
        "stage": "users_fit", "name": name, "seed": cfg.seed, "config": cfg.model_dump(),
        "config_hash": config_hash(cfg),
        "models": {"simulator": model_name(sim_model), "reflection": model_name(refl_model),
                   "judge": model_name(judge_model) if judge_model else None},
        "sessions": {"train": sorted(s.id for s in train_s),
                     "val": sorted({e.session_id for e in val}),
                     "heldout": sorted(s.id for s in held_s), "n_total": len(sessions)},
        "gepa_run_dir": str(run_dir) if run_dir is not None else None,
        "versions": package_versions(),
    }
    folder = save_user_model(Path(out_dir) / name, behavior_prompt=best, seed_prompt=seed_prompt,
                             scores=scores, provenance=provenance)
    return FitResult(model_dir=str(folder), seed_score=scores["seed"]["val_score"],
                     best_score=scores["fitted"]["val_score"],
                     n_candidates=len(result.candidates),
                     metric_calls=result.total_metric_calls or done[0], n_train=len(train),
                     n_val=len(val), heldout_sessions=provenance["sessions"]["heldout"])
