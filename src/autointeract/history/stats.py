"""Behavior statistics of user turns: pure functions, for real and simulated conversations.

The same numbers describe a real corpus (:func:`corpus_stats`) and simulated conversations
(:func:`conversation_stats` on lists of user-turn strings), so profiles and fidelity metrics
can compare them directly. Rates are pooled over all user turns (micro-averages);
``turns_per_session_*`` are over conversations.

Definitions:
    pushback_rate: share of turns that are correction, failure_report or interruption.
    words_per_turn: whitespace tokens per turn, interruption markers excluded.
    typo_rate: typos per checked word (see :mod:`autointeract.history.typos`).
    reveal: how requirements come out over a conversation. Each turn gets a normalized
        position ``i / (n - 1)`` (0 for a single turn), binned into ``bins`` equal bins;
        ``reveal_by_position[b]`` is the share of turns in bin ``b`` that are new_requirement
        or correction; ``first_new_requirement_position`` is the mean normalized position of
        the first new_requirement, over conversations that have one.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, Field

from autointeract.history.acts import PUSHBACK_ACTS, label_turns, session_acts
from autointeract.history.text import INTERRUPT_MARKER
from autointeract.history.typos import TypoCount, count_typos, vocabulary_from_texts
from autointeract.types import Session, UserAct

REVEAL_ACTS = frozenset({UserAct.NEW_REQUIREMENT, UserAct.CORRECTION})


class RevealStats(BaseModel):
    """How requirements are revealed over normalized conversation position."""

    bins: int = 4
    reveal_by_position: list[float] = Field(default_factory=list)
    new_requirement_by_position: list[float] = Field(default_factory=list)
    pushback_by_position: list[float] = Field(default_factory=list)
    first_new_requirement_position: float | None = None
    sessions_with_new_requirement: float = 0.0


class BehaviorStats(BaseModel):
    """User-behavior statistics of one or many conversations (see the module docstring)."""

    n_sessions: int = 0
    n_user_turns: int = 0
    turns_per_session_mean: float = 0.0
    turns_per_session_median: float = 0.0
    words_per_turn_mean: float = 0.0
    words_per_turn_median: float = 0.0
    pushback_rate: float = 0.0
    interruption_rate: float = 0.0
    question_rate: float = 0.0
    approval_rate: float = 0.0
    correction_rate: float = 0.0
    failure_report_rate: float = 0.0
    new_requirement_rate: float = 0.0
    typo_rate: float = 0.0
    typo_checked_words: int = 0
    act_distribution: dict[str, float] = Field(default_factory=dict)
    reveal: RevealStats = Field(default_factory=RevealStats)

    def key_stats(self) -> dict[str, float | int | None]:
        """A flat dict of the headline numbers (rounded), for summaries and tables."""
        keys = ("n_sessions", "n_user_turns", "turns_per_session_mean", "words_per_turn_mean",
                "words_per_turn_median", "pushback_rate", "interruption_rate", "question_rate",
                "approval_rate", "new_requirement_rate", "typo_rate")
        out: dict[str, float | int | None] = {
            k: round(v, 4) if isinstance(v, float) else v
            for k, v in ((k, getattr(self, k)) for k in keys)}
        fnr = self.reveal.first_new_requirement_position
        out["first_new_requirement_position"] = None if fnr is None else round(fnr, 4)
        return out


def _share(n: int, d: int) -> float:
    return n / d if d else 0.0


def _position_bin(i: int, n: int, bins: int) -> int:
    pos = i / (n - 1) if n > 1 else 0.0
    return min(int(pos * bins), bins - 1)


def conversation_stats(conversations: Sequence[Sequence[str]],
                       acts: Sequence[Sequence[UserAct | str]] | None = None, *,
                       vocabulary: frozenset[str] | None = None, bins: int = 4) -> BehaviorStats:
    """Statistics of many conversations given as lists of user-turn strings.

    Args:
        conversations: For each conversation, its genuine user turns in order.
        acts: For each conversation, one act per turn; rule-labeled when omitted.
        vocabulary: Known words for the typo estimator (built-in when omitted).
        bins: Number of position bins for the reveal statistics.

    Returns:
        The statistics.

    Raises:
        ValueError: When ``acts`` does not match ``conversations`` in shape.
    """
    if acts is None:
        acts = [[lab.act for lab in label_turns(list(c))] for c in conversations]
    if len(acts) != len(conversations) or any(len(a) != len(c) for a, c in zip(acts, conversations, strict=False)):
        raise ValueError("acts must give one act per turn of every conversation")
    act_lists = [[UserAct(a) for a in conv] for conv in acts]
    all_acts = [a for conv in act_lists for a in conv]
    n = len(all_acts)
    counts = Counter(all_acts)
    words = [len(t.split()) for conv in conversations for t in conv
             if not t.strip().startswith(INTERRUPT_MARKER)]
    typos = TypoCount()
    for conv in conversations:
        for t in conv:
            if not t.strip().startswith(INTERRUPT_MARKER):
                typos.add(count_typos(t, vocabulary=vocabulary))
    lengths = [len(c) for c in conversations]

    in_bin, reveal, newreq, push = ([0] * bins for _ in range(4))
    firsts: list[float] = []
    for conv in act_lists:
        for i, a in enumerate(conv):
            b = _position_bin(i, len(conv), bins)
            in_bin[b] += 1
            reveal[b] += a in REVEAL_ACTS
            newreq[b] += a == UserAct.NEW_REQUIREMENT
            push[b] += a in PUSHBACK_ACTS
        first = next((i for i, a in enumerate(conv) if a == UserAct.NEW_REQUIREMENT), None)
        if first is not None:
            firsts.append(first / (len(conv) - 1) if len(conv) > 1 else 0.0)
    return BehaviorStats(
        n_sessions=len(conversations),
        n_user_turns=n,
        turns_per_session_mean=statistics.fmean(lengths) if lengths else 0.0,
        turns_per_session_median=float(statistics.median(lengths)) if lengths else 0.0,
        words_per_turn_mean=statistics.fmean(words) if words else 0.0,
        words_per_turn_median=float(statistics.median(words)) if words else 0.0,
        pushback_rate=_share(sum(counts[a] for a in PUSHBACK_ACTS), n),
        interruption_rate=_share(counts[UserAct.INTERRUPTION], n),
        question_rate=_share(counts[UserAct.QUESTION], n),
        approval_rate=_share(counts[UserAct.APPROVAL], n),
        correction_rate=_share(counts[UserAct.CORRECTION], n),
        failure_report_rate=_share(counts[UserAct.FAILURE_REPORT], n),
        new_requirement_rate=_share(counts[UserAct.NEW_REQUIREMENT], n),
        typo_rate=typos.rate,
        typo_checked_words=typos.checked,
        act_distribution={a.value: _share(counts[a], n) for a in UserAct},
        reveal=RevealStats(
            bins=bins,
            reveal_by_position=[_share(r, d) for r, d in zip(reveal, in_bin, strict=True)],
            new_requirement_by_position=[_share(r, d) for r, d in zip(newreq, in_bin, strict=True)],
            pushback_by_position=[_share(r, d) for r, d in zip(push, in_bin, strict=True)],
            first_new_requirement_position=statistics.fmean(firsts) if firsts else None,
            sessions_with_new_requirement=_share(len(firsts), len(conversations)),
        ),
    )


def turn_stats(turns: Sequence[str], acts: Sequence[UserAct | str] | None = None, *,
               vocabulary: frozenset[str] | None = None) -> BehaviorStats:
    """Statistics of one conversation's user turns (e.g. a simulated user's messages).

    Args:
        turns: The user turns in order.
        acts: One act per turn; rule-labeled when omitted.
        vocabulary: Known words for the typo estimator.

    Returns:
        The statistics (``n_sessions == 1``).
    """
    return conversation_stats([list(turns)], None if acts is None else [list(acts)],
                              vocabulary=vocabulary)


def corpus_vocabulary(sessions: Iterable[Session], *, min_count: int = 2) -> frozenset[str]:
    """The typo vocabulary of a corpus: built-in words plus words its agents and tools wrote
    at least ``min_count`` times. Pass it to :func:`conversation_stats` to measure simulated
    turns with the same estimator as the real corpus."""
    return vocabulary_from_texts((m.content for s in sessions for m in s.messages
                                  if m.role in ("assistant", "tool")), min_count=min_count)


def session_stats(session: Session, *, vocabulary: frozenset[str] | None = None) -> BehaviorStats:
    """Statistics of one session (acts from ``meta.act`` where labeled, else rules)."""
    return corpus_stats([session], vocabulary=vocabulary)


def corpus_stats(sessions: Sequence[Session], *,
                 vocabulary: frozenset[str] | None = None) -> BehaviorStats:
    """Statistics of a corpus of sessions.

    Args:
        sessions: Normalized sessions (labeled or not).
        vocabulary: Known words for the typo estimator; :func:`corpus_vocabulary` of the
            sessions when omitted.

    Returns:
        The statistics.
    """
    vocab = vocabulary if vocabulary is not None else corpus_vocabulary(sessions)
    convs = [[m.content for m in s.user_turns()] for s in sessions]
    return conversation_stats(convs, [session_acts(s) for s in sessions], vocabulary=vocab)
