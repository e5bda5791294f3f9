"""The objective: how likely a measured behavior is among real users.

:class:`RealismModel` is a Gaussian kernel density over real sessions' feature vectors
(features standardised by the real data's spread, Scott's bandwidth). A density is not a
score, so it is calibrated against the real users themselves: ``realism(x)`` is the share of
real sessions whose leave-one-out log-density is at most ``log p(x)`` (linearly
interpolated), and below the least typical real user it decays as ``exp(log p(x) - min)``.
So 0.5 means "as typical as the median real user"; values near 0 mean behavior no real user
showed. The model stores its data, so it reloads exactly from JSON.

An optional LLM judge (:func:`judge_plausibility`) rates a transcript's plausibility;
:func:`combine` mixes the two.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, Field

from autointeract.errors import DataError, LLMError
from autointeract.profiles.measure import check_features, features_of

if TYPE_CHECKING:
    from autointeract.config import ModelConfig
    from autointeract.llm.client import LLMClient
    from autointeract.types import Session

DEFAULT_FEATURES = ("pushback_rate", "log_words_per_turn", "question_rate", "approval_rate")


def _logsumexp(a: np.ndarray, axis: int) -> np.ndarray:
    m = np.max(a, axis=axis, keepdims=True)
    return (m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True))).squeeze(axis)


class RealismModel:
    """A calibrated density over real users' behavior features.

    Args:
        data: ``(n, d)`` real feature vectors (one row per real session).
        features: The feature names, one per column.
        bandwidth: Kernel width in standardised units (Scott's rule when omitted).
        min_scale: Floor on each feature's standard deviation.

    Raises:
        ValueError: Fewer than 3 rows, or a column count that does not match ``features``.
    """

    def __init__(self, data: np.ndarray | Sequence[Sequence[float]], *, features: Sequence[str],
                 bandwidth: float | None = None, min_scale: float = 0.02):
        x = np.asarray(data, dtype=np.float64)
        if x.ndim != 2 or x.shape[0] < 3 or x.shape[1] != len(features):
            raise ValueError(f"need (n >= 3, {len(features)}) real feature rows, got {x.shape}")
        self.features = check_features(features)
        self.data = x
        self.scale = np.maximum(x.std(axis=0), min_scale)
        n, d = x.shape
        self.bandwidth = float(bandwidth) if bandwidth else float(n ** (-1.0 / (d + 4)))
        self._z = x / self.scale
        loo = self._log_kernel(self._z)
        np.fill_diagonal(loo, -np.inf)
        self.reference = np.sort(_logsumexp(loo, axis=1) - math.log(n - 1))

    def _log_kernel(self, z: np.ndarray) -> np.ndarray:
        h, d = self.bandwidth, self._z.shape[1]
        sq = ((z[:, None, :] - self._z[None, :, :]) ** 2).sum(-1)
        return -0.5 * sq / h ** 2 - d * math.log(h * math.sqrt(2 * math.pi))

    def log_density(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Log-density (in standardised units) of each row of ``x``."""
        z = np.atleast_2d(np.asarray(x, dtype=np.float64)) / self.scale
        return _logsumexp(self._log_kernel(z), axis=1) - math.log(len(self._z))

    def score(self, x: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        """Realism in (0, 1] of each row of ``x`` (see the module docstring)."""
        lp = self.log_density(x)
        ref = self.reference
        q = np.arange(1, len(ref) + 1) / len(ref)
        out = np.interp(lp, ref, q)
        low = lp < ref[0]
        out[low] = q[0] * np.exp(lp[low] - ref[0])
        return out

    def score_features(self, feats: dict[str, float]) -> float:
        """Realism of one feature dict (must hold every model feature)."""
        return float(self.score([[feats[f] for f in self.features]])[0])

    @classmethod
    def from_sessions(cls, sessions: Sequence[Session], *, features: Sequence[str] = DEFAULT_FEATURES,
                      vocabulary: frozenset[str] | None = None, min_user_turns: int = 2,
                      bandwidth: float | None = None) -> RealismModel:
        """Fit on real sessions with at least ``min_user_turns`` genuine user turns.

        Raises:
            DataError: Fewer than 3 usable sessions.
        """
        rows = real_feature_rows(sessions, vocabulary=vocabulary, min_user_turns=min_user_turns)
        if len(rows) < 3:
            raise DataError(f"need at least 3 real sessions with {min_user_turns}+ user turns "
                            f"to fit the realism model, got {len(rows)}", field="sessions")
        return cls([[r[f] for f in features] for r in rows.values()], features=features,
                   bandwidth=bandwidth)

    def to_json(self) -> dict[str, Any]:
        return {"features": self.features, "bandwidth": self.bandwidth,
                "data": self.data.round(6).tolist()}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> RealismModel:
        return cls(obj["data"], features=obj["features"], bandwidth=obj["bandwidth"])

    def save(self, path: str | Path) -> None:
        p = Path(path)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json()), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | Path) -> RealismModel:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def real_feature_rows(sessions: Sequence[Session], *, vocabulary: frozenset[str] | None = None,
                      min_user_turns: int = 2) -> dict[str, dict[str, float]]:
    """Session id -> all features, for sessions with at least ``min_user_turns`` user turns."""
    from autointeract.history.stats import session_stats

    return {s.id: features_of(session_stats(s, vocabulary=vocabulary)) for s in sessions
            if len(s.user_turns()) >= min_user_turns}


class Plausibility(BaseModel):
    """The judge's verdict on a simulated user."""

    plausibility: float = Field(ge=0.0, le=1.0)
    reason: str = ""


async def judge_plausibility(client: LLMClient, model: ModelConfig | str,
                             user_turns: Sequence[Sequence[str]], *, seed: int = 0) -> float | None:
    """An LLM's 0-1 rating of how plausible these user turns are for a real developer.

    Returns ``None`` when the judge fails (callers then use the density alone).
    """
    from autointeract.llm.structured import astructured_call

    convo = "\n\n".join("\n".join(f"USER: {t}" for t in conv) for conv in user_turns)
    msgs = [{"role": "system", "content": "You rate simulated users of a coding assistant."},
            {"role": "user", "content": "How plausible is it that a real developer wrote these "
                                        "messages (1 = indistinguishable from real, 0 = "
                                        f"clearly fake)?\n\n{convo[:3000]}"}]
    try:
        out = await astructured_call(client, model, msgs, Plausibility, stage="profiles.judge",
                                     seed=seed, temperature=0.0)
    except LLMError:
        return None
    return out.plausibility


def combine(density_realism: float, judge: float | None, *, judge_weight: float) -> float:
    """``(1 - w) * density + w * judge``; the density alone when there is no judge score."""
    if judge is None or judge_weight <= 0:
        return density_realism
    return (1 - judge_weight) * density_realism + judge_weight * judge
