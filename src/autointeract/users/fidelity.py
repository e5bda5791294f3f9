"""Fidelity of a user model: simulated next turns against the real ones, on held-out sessions.

For every held-out example (conversation so far -> real next turn) each prompt (the seed and
the fitted one, side by side) writes a simulated turn. Then, over all turns:

- ``act_tvd``: total-variation distance between the act distributions (rule labeler);
- ``pushback_delta``: simulated minus real pushback rate (correction, failure report,
  interruption); SWE-chat reports pushback in 44% of real user turns;
- ``words_wasserstein`` / ``words_ks``: Wasserstein-1 and Kolmogorov-Smirnov distance between
  the words-per-turn distributions;
- ``typo_delta``: simulated minus real typo rate (see :mod:`autointeract.history.typos`);
- ``discriminator_accuracy``: cross-validated accuracy of a classifier telling simulated from
  real turns (0.5 = indistinguishable);
- ``next_turn_score``: the mean fitting score (:mod:`~autointeract.users.scoring`).

All metric functions are pure; :func:`evaluate_fidelity` does the generation.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from autointeract.history.acts import PUSHBACK_ACTS
from autointeract.history.typos import TypoCount, count_typos
from autointeract.types import UserAct
from autointeract.users.discriminator import discriminator_accuracy
from autointeract.users.examples import NextTurnExample
from autointeract.users.scoring import label_act, score_turn, words

_PUSHBACK = {a.value for a in PUSHBACK_ACTS}
ACTS = [a.value for a in UserAct]


def act_distribution(acts: Sequence[str]) -> dict[str, float]:
    """Share of each :class:`~autointeract.types.UserAct` (plus any other label seen)."""
    c = Counter(acts)
    n = len(acts)
    return {a: (c[a] / n if n else 0.0) for a in dict.fromkeys([*ACTS, *c])}


def total_variation(p: Mapping[str, float], q: Mapping[str, float]) -> float:
    """Total-variation distance ``0.5 * sum |p - q|`` of two distributions."""
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


def pushback_rate(acts: Sequence[str]) -> float:
    """Share of pushback acts (0 for no acts)."""
    return sum(a in _PUSHBACK for a in acts) / len(acts) if acts else 0.0


def _cdfs(a: Sequence[float], b: Sequence[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs = np.sort(np.concatenate([a, b]))
    fa = np.searchsorted(np.sort(a), xs, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), xs, side="right") / len(b)
    return xs, fa, fb


def wasserstein(a: Sequence[float], b: Sequence[float]) -> float:
    """Wasserstein-1 distance between two empirical distributions (0 if either is empty)."""
    if not len(a) or not len(b):
        return 0.0
    xs, fa, fb = _cdfs(a, b)
    return float(np.sum(np.abs(fa - fb)[:-1] * np.diff(xs)))


def ks_statistic(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sample Kolmogorov-Smirnov statistic (0 if either is empty)."""
    if not len(a) or not len(b):
        return 0.0
    _, fa, fb = _cdfs(a, b)
    return float(np.max(np.abs(fa - fb)))


def typo_rate(texts: Sequence[str], *, vocabulary: frozenset[str] | None = None) -> float:
    """Typos per checked word over ``texts``."""
    tc = TypoCount()
    for t in texts:
        tc.add(count_typos(t, vocabulary=vocabulary))
    return tc.rate


class TurnSetStats(BaseModel):
    """Statistics of one set of turns (real or simulated)."""

    n: int
    act_distribution: dict[str, float]
    pushback_rate: float
    words_mean: float
    words_median: float
    typo_rate: float


class FidelityMetrics(BaseModel):
    """One simulator's turns against the real turns."""

    stats: TurnSetStats
    act_tvd: float
    pushback_delta: float
    words_wasserstein: float
    words_ks: float
    typo_delta: float
    discriminator_accuracy: float | None
    next_turn_score: float | None = None
    empty_turns: int = 0


class FidelityReport(BaseModel):
    """Real-turn statistics and the metrics of each compared prompt (``seed``, ``fitted``)."""

    n_examples: int
    n_sessions: int
    real: TurnSetStats
    models: dict[str, FidelityMetrics] = Field(default_factory=dict)
    samples: list[dict[str, str]] = Field(default_factory=list)


def turn_set_stats(texts: Sequence[str], acts: Sequence[str], *,
                   vocabulary: frozenset[str] | None = None) -> TurnSetStats:
    """Statistics of a set of turns and their acts."""
    w = [words(t) for t in texts]
    return TurnSetStats(n=len(texts), act_distribution=act_distribution(acts),
                        pushback_rate=pushback_rate(acts),
                        words_mean=statistics.fmean(w) if w else 0.0,
                        words_median=float(statistics.median(w)) if w else 0.0,
                        typo_rate=typo_rate(texts, vocabulary=vocabulary))


def compare_turns(real: Sequence[str], real_acts: Sequence[str], sim: Sequence[str],
                  sim_acts: Sequence[str], *, seed: int = 0,
                  vocabulary: frozenset[str] | None = None,
                  next_turn_score: float | None = None) -> FidelityMetrics:
    """Fidelity metrics of simulated turns against real turns (see the module docstring)."""
    rs = turn_set_stats(real, real_acts, vocabulary=vocabulary)
    ss = turn_set_stats(sim, sim_acts, vocabulary=vocabulary)
    rw, sw = [words(t) for t in real], [words(t) for t in sim]
    return FidelityMetrics(
        stats=ss, act_tvd=round(total_variation(rs.act_distribution, ss.act_distribution), 4),
        pushback_delta=round(ss.pushback_rate - rs.pushback_rate, 4),
        words_wasserstein=round(wasserstein(rw, sw), 4), words_ks=round(ks_statistic(rw, sw), 4),
        typo_delta=round(ss.typo_rate - rs.typo_rate, 4),
        discriminator_accuracy=discriminator_accuracy(real, sim, seed=seed),
        next_turn_score=next_turn_score, empty_turns=sum(not t.strip() for t in sim))


def evaluate_fidelity(examples: Sequence[NextTurnExample], prompts: Mapping[str, str], *,
                      predict: Callable[[str, NextTurnExample], str], seed: int = 0,
                      vocabulary: frozenset[str] | None = None,
                      on_progress: Callable[[], None] | None = None,
                      n_samples: int = 5) -> FidelityReport:
    """Simulate each example's next turn under each prompt and compare with the real turns.

    Args:
        examples: Held-out next-turn examples.
        prompts: Behavior prompts by label (e.g. ``{"seed": ..., "fitted": ...}``).
        predict: ``(prompt, example) -> simulated turn`` (e.g.
            :meth:`UserPromptAdapter.predict`); a failure counts as an empty turn.
        seed: Seed of the discriminator's folds.
        vocabulary: Known words for the typo estimator.
        on_progress: Called after each generated turn.
        n_samples: Side-by-side samples kept in the report.

    Returns:
        The report.
    """
    real = [e.real_turn for e in examples]
    real_acts = [e.real_act for e in examples]
    report = FidelityReport(n_examples=len(examples),
                            n_sessions=len({e.session_id for e in examples}),
                            real=turn_set_stats(real, real_acts, vocabulary=vocabulary))
    sims: dict[str, list[str]] = {}
    by_prompt: dict[str, list[str]] = {}
    for label, prompt in prompts.items():
        out = by_prompt.get(prompt, [])  # an unchanged prompt (fit found nothing better) reuses
        for e in examples[len(out):]:
            try:
                out.append(predict(prompt, e))
            except Exception:  # noqa: BLE001 - one failed call must not abort the evaluation
                out.append("")
            if on_progress:
                on_progress()
        by_prompt[prompt] = out
        acts = [label_act(t, turn_index=e.turn_index, n_turns=e.n_turns) if t else "other"
                for t, e in zip(out, examples, strict=True)]
        scores = [score_turn(t, e.real_turn, real_act=e.real_act, turn_index=e.turn_index,
                             n_turns=e.n_turns).score for t, e in zip(out, examples, strict=True)]
        report.models[label] = compare_turns(
            real, real_acts, out, acts, seed=seed, vocabulary=vocabulary,
            next_turn_score=round(statistics.fmean(scores), 4) if scores else None)
        sims[label] = out
    for i, e in enumerate(examples[:n_samples]):
        report.samples.append({"id": e.id, "real": e.real_turn[:300],
                               **{k: v[i][:300] for k, v in sims.items()}})
    return report


def report_rows(report: FidelityReport) -> list[tuple[str, list[Any]]]:
    """Rows ``(metric, [real, <model>...])`` for a side-by-side table (``None`` = n/a)."""
    labels = list(report.models)
    m = report.models

    def r(x: float | None) -> float | None:
        return None if x is None else round(x, 3)

    def stat(name: str) -> list[float | None]:
        return [r(getattr(report.real, name)), *(r(getattr(m[k].stats, name)) for k in labels)]

    def metric(name: str) -> list[float | None]:
        return [None, *(r(getattr(m[k], name)) for k in labels)]

    return [
        ("pushback rate", stat("pushback_rate")),
        ("words/turn (mean)", stat("words_mean")),
        ("typo rate", stat("typo_rate")),
        ("act TVD (lower better)", metric("act_tvd")),
        ("pushback delta", metric("pushback_delta")),
        ("words Wasserstein", metric("words_wasserstein")),
        ("words KS", metric("words_ks")),
        ("discriminator acc (0.5 best)", metric("discriminator_accuracy")),
        ("next-turn score", metric("next_turn_score")),
    ]
