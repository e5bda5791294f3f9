"""The profile search space: ``UserProfile`` <-> vectors in [0, 1]^7, and seeds from real users.

A profile's numeric parameters (``UserProfile.PARAMS``, in that order) are the solution
vector pyribs evolves; the persona text travels next to it as an extra field. Seeds come from
real sessions: :func:`profile_from_stats` reads each parameter off one session's behavior
statistics with the fixed, documented maps below. These maps only place the seeds; the
archive is organised by what a profile is *measured* to do (:mod:`.measure`), not by them.

Maps (``clip`` to [0, 1]; ``lw(x) = log(1 + x)``):
    verbosity = (lw(words_per_turn_mean) - lw(2)) / (lw(400) - lw(2))
    specificity = (lw(words_per_turn_median) - lw(2)) / (lw(200) - lw(2))
    pushback = pushback_rate / 0.5
    patience = 1 - 3 * interruption_rate - failure_report_rate
    expertise = 0.5 + correction_rate - 0.5 * question_rate
    typo_rate = typo_rate / 0.05  (0.05 typos per word and above -> 1)
    reveal_eagerness = 1 - 3 * new_requirement_rate, halved again when the first new
        requirement comes before mid-session
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from autointeract.types import Session, UserProfile

if TYPE_CHECKING:
    from autointeract.history.stats import BehaviorStats

PARAMS: tuple[str, ...] = UserProfile.PARAMS
DIM = len(PARAMS)
BOUNDS: list[tuple[float, float]] = [(0.0, 1.0)] * DIM


def _clip(x: float) -> float:
    return float(min(1.0, max(0.0, x)))


def _lw(x: float) -> float:
    return math.log1p(max(0.0, x))


def to_vector(profile: UserProfile) -> np.ndarray:
    """The profile's parameters as a float vector in ``PARAMS`` order."""
    return np.asarray(profile.vector(), dtype=np.float64)


def from_vector(vec: Sequence[float] | np.ndarray, *, id: str = "", persona: str | None = None,
                meta: dict | None = None) -> UserProfile:
    """A profile from a vector (values clipped to [0, 1]); persona from the template if omitted.

    Raises:
        ValueError: When ``vec`` does not have one value per parameter.
    """
    v = [float(x) for x in np.asarray(vec, dtype=np.float64).reshape(-1)]
    if len(v) != DIM:
        raise ValueError(f"profile vector must have {DIM} values ({', '.join(PARAMS)}), got {len(v)}")
    prof = UserProfile(id=id, meta=dict(meta or {}), **{p: _clip(x) for p, x in zip(PARAMS, v, strict=True)})
    prof.persona = persona if persona is not None else template_persona(prof)
    return prof


def profile_from_stats(stats: BehaviorStats, *, id: str = "", source: str = "") -> UserProfile:
    """A seed profile fitted to one real session's statistics (see the module docstring).

    Args:
        stats: An ``autointeract.history.stats.BehaviorStats`` of one session.
        id: The profile id.
        source: Where it came from (kept in ``meta.seed_session``).
    """
    s = stats
    fnr = s.reveal.first_new_requirement_position
    eager = 1.0 - 3.0 * s.new_requirement_rate
    if fnr is not None and fnr < 0.5:
        eager *= 0.5
    values = {
        "expertise": 0.5 + s.correction_rate - 0.5 * s.question_rate,
        "verbosity": (_lw(s.words_per_turn_mean) - _lw(2)) / (_lw(400) - _lw(2)),
        "patience": 1.0 - 3.0 * s.interruption_rate - s.failure_report_rate,
        "specificity": (_lw(s.words_per_turn_median) - _lw(2)) / (_lw(200) - _lw(2)),
        "pushback": s.pushback_rate / 0.5,
        "typo_rate": s.typo_rate / 0.05,
        "reveal_eagerness": eager,
    }
    prof = UserProfile(id=id, meta={"seed_session": source} if source else {},
                       **{k: _clip(v) for k, v in values.items()})
    prof.persona = template_persona(prof)
    return prof


def seed_profiles(sessions: Sequence[Session], *, vocabulary: frozenset[str] | None = None,
                  min_user_turns: int = 2) -> list[UserProfile]:
    """One seed profile per real session with at least ``min_user_turns`` genuine user turns.

    Args:
        sessions: ``autointeract.types.Session`` objects (labeled or not).
        vocabulary: The corpus typo vocabulary (see ``history.stats.corpus_vocabulary``).
        min_user_turns: Sessions with fewer user turns say too little about a user's style.
    """
    from autointeract.history.stats import session_stats

    out = []
    for sess in sessions:
        if len(sess.user_turns()) < min_user_turns:
            continue
        st = session_stats(sess, vocabulary=vocabulary)
        sid = str(sess.id)
        out.append(profile_from_stats(st, id=f"seed-{sid[:24]}", source=sid))
    return out


_LEVELS: dict[str, tuple[str, str, str]] = {
    "expertise": ("are new to programming and to this codebase", "are a working developer",
                  "are a senior engineer who knows exactly how it should be done"),
    "verbosity": ("write very short messages, often a few words", "write a sentence or two",
                  "write long, detailed messages with context and examples"),
    "patience": ("get impatient quickly and cut the agent off", "are reasonably patient",
                 "are very patient and let the agent work"),
    "specificity": ("state goals vaguely", "give the main details",
                    "state exact requirements, naming files and functions"),
    "pushback": ("accept what the agent says", "question results now and then",
                 "challenge claims and correct mistakes bluntly"),
    "typo_rate": ("type carefully", "make an occasional typo", "type fast with many typos"),
    "reveal_eagerness": ("hold back requirements until asked or until something fails",
                         "mention most requirements early",
                         "state every requirement up front"),
}


def level(x: float) -> int:
    """0 (low), 1 (mid) or 2 (high) for a parameter value."""
    return 0 if x < 1 / 3 else (1 if x < 2 / 3 else 2)


def describe(profile: UserProfile) -> list[str]:
    """One verb phrase per parameter (``You ...``/``They ...``), from its level."""
    return [_LEVELS[p][level(getattr(profile, p))] for p in PARAMS]


_ROLES = ("backend developer", "data scientist", "student", "startup founder", "DevOps engineer",
          "frontend developer", "researcher", "maintainer of an open-source library")


def template_persona(profile: UserProfile, *, rng: random.Random | None = None) -> str:
    """A short persona text from the profile's parameters (deterministic without ``rng``)."""
    key = sum(level(getattr(profile, p)) * 3 ** i for i, p in enumerate(PARAMS))
    role = _ROLES[(rng.randrange(len(_ROLES)) if rng else key % len(_ROLES))]
    d = describe(profile)
    return (f"A {role}. They {d[0]}. They {d[1]}, {d[4]}, and {d[2]}. "
            f"They {d[3]}, {d[6]}, and {d[5]}.")
