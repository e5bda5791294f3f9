"""The sequential band decision: a pure function of pass counts. No episodes run here.

Each solver's pass probability gets a Beta posterior (``prior`` plus passes/failures). The
weak side is *in* when P(p_weak <= weak_max) >= confidence and *out* when the opposite holds
at that confidence; likewise the strong side with P(p_strong >= strong_min). Sampling a
solver stops as soon as its side is decided, and the whole task stops as soon as one side is
*out* (it cannot be accepted any more), so easy and hopeless tasks cost few episodes:

    d = decide(Counts(passes=0, n=4), Counts(passes=4, n=4), BandConfig(confidence=0.8))
    d.status   # "accepted"
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from autointeract.calibrate.config import BandConfig

Side = Literal["in", "out", "open", "exhausted"]
Status = Literal["accepted", "too_easy", "too_hard", "inverted", "undecided", "continue"]


@dataclass(frozen=True)
class Counts:
    """Passes out of ``n`` episodes of one solver."""

    passes: int = 0
    n: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.passes <= self.n:
            raise ValueError(f"passes {self.passes} not within 0..{self.n}")

    @property
    def rate(self) -> float:
        return self.passes / self.n if self.n else 0.0


@dataclass(frozen=True)
class Decision:
    """The verdict after the counts so far, and what to sample next."""

    status: Status
    weak: Side
    strong: Side
    p_weak_in: float
    p_strong_in: float
    next_weak: int = 0
    next_strong: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def beta_cdf(x: float, a: float, b: float) -> float:
    """P(p <= x) for p ~ Beta(a, b)."""
    from scipy.special import betainc

    return float(betainc(a, b, x))


def prob_at_most(c: Counts, threshold: float, prior: tuple[float, float]) -> float:
    """Posterior P(p <= threshold) after ``c``."""
    return beta_cdf(threshold, prior[0] + c.passes, prior[1] + c.n - c.passes)


def _side(p_in: float, n: int, cfg: BandConfig) -> Side:
    if n >= cfg.min_n and p_in >= cfg.confidence:
        return "in"
    if n >= cfg.min_n and 1.0 - p_in >= cfg.confidence:
        return "out"
    return "exhausted" if n >= cfg.max_n else "open"


def _final(weak: Counts, strong: Counts, cfg: BandConfig) -> Status:
    if cfg.at_max_n == "reject":
        return "undecided"
    a, b = cfg.prior
    mw = (a + weak.passes) / (a + b + weak.n)
    ms = (a + strong.passes) / (a + b + strong.n)
    if mw <= cfg.weak_max and ms >= cfg.strong_min:
        return "accepted"
    return "too_easy" if mw > cfg.weak_max else "too_hard"


def decide(weak: Counts, strong: Counts, cfg: BandConfig) -> Decision:
    """Band membership so far and the next round's sample sizes. Pure.

    Args:
        weak: the weak solver's passes so far.
        strong: the strong solver's passes so far.
        cfg: band edges, confidence, prior, min/max episodes and the round size.

    Returns:
        ``continue`` with ``next_weak``/``next_strong`` > 0 while undecided; else the final
        status: ``accepted``, ``too_easy`` (the weak solver passes too often), ``too_hard``
        (the strong solver fails too often), ``inverted`` (both), or ``undecided`` (max-N
        reached without confidence, with ``at_max_n: reject``).
    """
    pw = prob_at_most(weak, cfg.weak_max, cfg.prior)
    ps = 1.0 - prob_at_most(strong, cfg.strong_min, cfg.prior)
    sw, ss = _side(pw, weak.n, cfg), _side(ps, strong.n, cfg)
    base = {"weak": sw, "strong": ss, "p_weak_in": round(pw, 6), "p_strong_in": round(ps, 6)}
    if sw == "out" and ss == "out":
        return Decision(status="inverted", **base)
    if sw == "out":
        return Decision(status="too_easy", **base)
    if ss == "out":
        return Decision(status="too_hard", **base)
    if sw == "in" and ss == "in":
        return Decision(status="accepted", **base)
    nw = min(cfg.batch, cfg.max_n - weak.n) if sw == "open" else 0
    ns = min(cfg.batch, cfg.max_n - strong.n) if ss == "open" else 0
    if nw or ns:
        return Decision(status="continue", next_weak=nw, next_strong=ns, **base)
    return Decision(status=_final(weak, strong, cfg), **base)


def fixed_n_status(weak: Counts, strong: Counts, cfg: BandConfig) -> Status:
    """The baseline rule: after a fixed number of episodes, accept on the observed rates."""
    if weak.rate > cfg.weak_max and strong.rate < cfg.strong_min:
        return "inverted"
    if weak.rate > cfg.weak_max:
        return "too_easy"
    if strong.rate < cfg.strong_min:
        return "too_hard"
    return "accepted"


__all__ = ["Counts", "Decision", "beta_cdf", "decide", "fixed_n_status", "prob_at_most"]
