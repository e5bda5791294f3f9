"""The GEPA adapter: evaluates a behavior prompt on next-turn examples of real sessions.

The candidate is ``{"behavior_prompt": text}``. ``evaluate`` asks the simulator model for the
next user turn of each example and scores it against the real turn with
:func:`~autointeract.users.scoring.score_turn`. The contract is gepa's: outputs, scores and
(when asked) trajectories have one entry per example; higher is better; an example whose
generation fails scores 0 and records the error instead of raising.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pydantic import BaseModel, Field

from autointeract.users.examples import NextTurnExample
from autointeract.users.prompting import build_messages, generate_turn
from autointeract.users.scoring import TurnScore, score_turn

COMPONENT = "behavior_prompt"
_JUDGE_PROMPT = (
    "You judge simulated users. Below is the end of a conversation between a developer (USER) "
    "and a coding agent (AGENT), then a candidate next USER message. Rate how much the "
    "candidate reads like what a real, busy developer would type next (1 = clearly an AI "
    "imitation, 5 = indistinguishable from a real developer).")


class JudgeVerdict(BaseModel):
    """The LLM judge's rating of one simulated turn."""

    realism: int = Field(ge=1, le=5)


def example_seed(seed: int, example_id: str) -> int:
    """The sampling seed of one example (stable across candidates, so replies cache)."""
    return int(hashlib.sha256(f"{seed}:{example_id}".encode()).hexdigest()[:8], 16)


class UserPromptAdapter:
    """A ``gepa.GEPAAdapter`` over :class:`~autointeract.users.examples.NextTurnExample`.

    Args:
        client: The :class:`~autointeract.llm.LLMClient`.
        model: The simulator model.
        max_tokens: Token limit of one simulated turn.
        seed: Base seed of the per-example sampling seeds.
        weights: Score weights (see :mod:`~autointeract.users.scoring`).
        judge_model: An optional LLM judge model.
        workers: Examples generated concurrently.
        max_records: Examples per reflective dataset (the worst-scoring ones).
        record_chars: Characters of each example's conversation shown to the reflection model.
        on_metric_call: Called once per scored example (progress bars).
        stage: Accounting stage of the simulator calls.
    """

    propose_new_texts = None  # gepa's reflective proposer uses our reflection_lm

    def __init__(self, client: Any, model: Any, *, max_tokens: int = 80, seed: int = 0,
                 weights: Mapping[str, float] | None = None, judge_model: Any = None,
                 workers: int = 1, max_records: int = 6, record_chars: int = 800,
                 on_metric_call: Callable[[], None] | None = None,
                 stage: str = "users.fit.simulate"):
        self.client, self.model = client, model
        self.max_tokens, self.seed = max_tokens, seed
        self.weights = dict(weights) if weights else None
        self.judge_model, self.workers = judge_model, max(1, workers)
        self.max_records, self.record_chars = max_records, record_chars
        self.on_metric_call, self.stage = on_metric_call, stage
        self.metric_calls = 0

    def predict(self, prompt: str, ex: NextTurnExample) -> str:
        """The simulated next turn of ``ex`` under behavior prompt ``prompt``."""
        return generate_turn(self.client, self.model, build_messages(prompt, ex.context),
                             stage=self.stage, seed=example_seed(self.seed, ex.id),
                             max_tokens=self.max_tokens)

    def judge(self, ex: NextTurnExample, sim: str) -> float | None:
        """The judge's realism in [0, 1], or ``None`` without a judge or when it fails."""
        if self.judge_model is None:
            return None
        msgs = [{"role": "system", "content": _JUDGE_PROMPT},
                {"role": "user", "content": f"{ex.context[-1500:]}\n\nCandidate USER message:\n"
                                            f"{sim}"}]
        try:
            v = self.client.structured(self.judge_model, msgs, JudgeVerdict,
                                       stage="users.fit.judge", seed=self.seed, max_tokens=40)
        except Exception:  # noqa: BLE001 - a failed judge call drops the judge part only
            return None
        return (v.realism - 1) / 4

    def _one(self, prompt: str, ex: NextTurnExample) -> tuple[str, TurnScore | None, str]:
        try:
            sim = self.predict(prompt, ex)
            ts = score_turn(sim, ex.real_turn, real_act=ex.real_act, turn_index=ex.turn_index,
                            n_turns=ex.n_turns, weights=self.weights,
                            judge=self.judge(ex, sim) if sim else None)
            return sim, ts, ""
        except Exception as exc:  # noqa: BLE001 - gepa contract: a failing example scores 0
            return "", None, f"{type(exc).__name__}: {str(exc)[:300]}"
        finally:
            self.metric_calls += 1
            if self.on_metric_call:
                self.on_metric_call()

    def evaluate(self, batch: list[NextTurnExample], candidate: dict[str, str],
                 capture_traces: bool = False) -> Any:
        """Score ``candidate`` on ``batch`` (gepa's ``EvaluationBatch``)."""
        from gepa.core.adapter import EvaluationBatch

        prompt = candidate.get(COMPONENT, "")
        if self.workers > 1 and len(batch) > 1:
            with ThreadPoolExecutor(self.workers) as pool:
                results = list(pool.map(lambda e: self._one(prompt, e), batch))
        else:
            results = [self._one(prompt, e) for e in batch]
        outputs = [sim for sim, _, _ in results]
        scores = [ts.score if ts else 0.0 for _, ts, _ in results]
        trajectories = None
        if capture_traces:
            trajectories = [{"example": ex.model_dump(), "simulated": sim, "error": err,
                             "score": ts.model_dump() if ts else None}
                            for ex, (sim, ts, err) in zip(batch, results, strict=True)]
        return EvaluationBatch(outputs=outputs, scores=scores, trajectories=trajectories)

    def make_reflective_dataset(self, candidate: dict[str, str], eval_batch: Any,
                                components_to_update: list[str]
                                ) -> dict[str, list[dict[str, Any]]]:
        """Feedback records (worst-scoring first) for each component to update."""
        del candidate
        trajs: Sequence[dict[str, Any]] = eval_batch.trajectories or []
        ranked = sorted(range(len(trajs)), key=lambda i: (eval_batch.scores[i], i))
        keep = ranked[: self.max_records]
        random.Random(self.seed).shuffle(keep)
        records = []
        for i in keep:
            t = trajs[i]
            ex = t["example"]
            fb = (f"Generation failed: {t['error']}" if t["error"] else t["score"]["feedback"])
            records.append({
                "Inputs": {"conversation so far": ex["context"][-self.record_chars:]},
                "Generated Outputs": t["simulated"] or "(nothing)",
                "Feedback": (f"Score {eval_batch.scores[i]:.2f}. The real user wrote: "
                             f"\"{ex['real_turn'][:400]}\" ({ex['real_act']}). {fb}"),
            })
        return {c: records for c in components_to_update}
