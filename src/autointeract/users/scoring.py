"""How well a simulated user turn matches the real one: pure functions, with feedback.

The score (higher is better, in [0, 1]) is a weighted mean of:

- ``act``: 1 if the rule labeler gives both turns the same act, 0.5 if both are pushback
  (correction / failure report / interruption), else 0;
- ``length``: ``min(a, b) / max(a, b)`` of the word counts;
- ``style``: the share of style markers (lowercase start, final punctuation, question mark,
  markdown, politeness, exclamation, several lines, a typo) on which the two turns agree;
- ``lexical``: overlap coefficient of their content words (``|A∩B| / min(|A|, |B|)``);
- ``judge`` (optional): an LLM judge's realism score, mapped to [0, 1].

Each miss is explained in one feedback sentence, which GEPA's reflection model reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import BaseModel, Field

from autointeract.history.acts import PUSHBACK_ACTS, RuleLabeler
from autointeract.history.typos import count_typos
from autointeract.types import UserAct

DEFAULT_WEIGHTS: dict[str, float] = {"act": 0.4, "length": 0.2, "style": 0.25, "lexical": 0.15}
_PUSHBACK = {a.value for a in PUSHBACK_ACTS}
_MARKDOWN = re.compile(r"(^|\n)\s*([-*+] |#{1,6} |\d+\. )|\*\*|```")
_POLITE = re.compile(r"\b(please|thanks?|thank you|appreciate|sorry|kindly|would you mind|"
                     r"happy to|great job|awesome)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z0-9_'-]{2,}")
_STOP = frozenset(
    "the and for that this with you your are was were have has had not but can could would "
    "should will just then than them they its it's into from what when where which who how "
    "all any some there here also now please let let's lets okay yes our out get got use "
    "make sure need want like one two see".split())

STYLE_MARKERS = ("lowercase_start", "final_punctuation", "question", "markdown", "polite",
                 "exclamation", "multiline", "typo")
_MARKER_ADVICE = {
    "lowercase_start": ("starts lowercase", "starts with a capital"),
    "final_punctuation": ("ends with punctuation", "ends without punctuation"),
    "question": ("asks a question", "asks no question"),
    "markdown": ("uses markdown/lists", "uses no markdown"),
    "polite": ("uses politeness words (please/thanks)", "has no politeness words"),
    "exclamation": ("uses '!'", "uses no '!'"),
    "multiline": ("spans several lines", "is one line"),
    "typo": ("contains a typo", "has no typos"),
}


class TurnScore(BaseModel):
    """The score of one simulated turn against the real one, with its parts and feedback."""

    score: float
    parts: dict[str, float] = Field(default_factory=dict)
    sim_act: str = ""
    real_act: str = ""
    feedback: str = ""


def words(text: str) -> int:
    """Whitespace tokens of ``text``."""
    return len(text.split())


def style_markers(text: str, *, vocabulary: frozenset[str] | None = None) -> dict[str, bool]:
    """The binary style markers of one turn (see :data:`STYLE_MARKERS`)."""
    s = text.strip()
    first = next((c for c in s if c.isalpha()), "")
    return {
        "lowercase_start": first.islower(),
        "final_punctuation": s[-1:] in (".", "!", "?") if s else False,
        "question": "?" in s,
        "markdown": bool(_MARKDOWN.search(s)),
        "polite": bool(_POLITE.search(s)),
        "exclamation": "!" in s,
        "multiline": "\n" in s,
        "typo": bool(count_typos(s, vocabulary=vocabulary).typos) if s else False,
    }


def content_words(text: str) -> set[str]:
    """Lower-cased words of 3+ characters, minus common function words."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def act_agreement(sim_act: str, real_act: str) -> float:
    """1 for the same act, 0.5 when both are pushback acts, else 0."""
    if sim_act == real_act:
        return 1.0
    return 0.5 if sim_act in _PUSHBACK and real_act in _PUSHBACK else 0.0


def label_act(text: str, *, turn_index: int = 1, n_turns: int = 2) -> str:
    """The rule labeler's act for a turn at ``turn_index``."""
    return RuleLabeler().label(text, index=turn_index, n_turns=n_turns).act.value


def _feedback(sim: str, real: str, sim_act: str, real_act: str, parts: Mapping[str, float],
              sm: Mapping[str, bool], rm: Mapping[str, bool]) -> str:
    notes: list[str] = []
    if parts["act"] < 1.0:
        notes.append(f"The real user's turn was a {real_act.replace('_', ' ')} but the "
                     f"simulated one reads as a {sim_act.replace('_', ' ')}.")
        if real_act in _PUSHBACK and sim_act not in _PUSHBACK:
            notes.append("Real users push back here; the simulation was too cooperative.")
        if sim_act == UserAct.APPROVAL.value and real_act != sim_act:
            notes.append("Do not approve or thank unless the work is clearly done.")
    ws, wr = words(sim), words(real)
    if parts["length"] < 0.6:
        advice = "be much shorter and terser" if ws > wr else "give more detail"
        notes.append(f"The simulated turn has {ws} words, the real one {wr}: {advice}.")
    for k in STYLE_MARKERS:
        if sm[k] != rm[k]:
            yes, no = _MARKER_ADVICE[k]
            notes.append(f"Style: the real turn {yes if rm[k] else no}; "
                         f"the simulated one {yes if sm[k] else no}.")
    if parts["lexical"] < 0.2 and content_words(real):
        key = ", ".join(sorted(content_words(real))[:8])
        notes.append(f"The real turn talks about: {key}.")
    if "judge" in parts and parts["judge"] < 0.5:
        notes.append("A judge found the simulated turn unlike a real developer's message.")
    return " ".join(notes) if notes else "Good match in act, length and style."


def score_turn(sim: str, real: str, *, real_act: str | None = None, turn_index: int = 1,
               n_turns: int = 2, weights: Mapping[str, float] | None = None,
               judge: float | None = None,
               vocabulary: frozenset[str] | None = None) -> TurnScore:
    """Score a simulated user turn against the real turn at the same point.

    Args:
        sim: The simulated turn.
        real: The real turn.
        real_act: The real turn's act (rule-labeled when omitted).
        turn_index: Position of the turn among the session's user turns.
        n_turns: How many user turns the session has.
        weights: Weights of ``act``, ``length``, ``style``, ``lexical`` (and ``judge``);
            :data:`DEFAULT_WEIGHTS` when omitted, plus 0.2 for ``judge`` when it is given.
        judge: An optional judge score in [0, 1].
        vocabulary: Known words for the typo marker.

    Returns:
        The score in [0, 1], its parts, both acts and the feedback text.
    """
    sim, real = sim.strip(), real.strip()
    ra = real_act or label_act(real, turn_index=turn_index, n_turns=n_turns)
    sa = label_act(sim, turn_index=turn_index, n_turns=n_turns) if sim else "empty"
    ws, wr = words(sim), words(real)
    sm = style_markers(sim, vocabulary=vocabulary)
    rm = style_markers(real, vocabulary=vocabulary)
    cs, cr = content_words(sim), content_words(real)
    parts = {
        "act": act_agreement(sa, ra),
        "length": min(ws, wr) / max(ws, wr) if max(ws, wr) else 1.0,
        "style": sum(sm[k] == rm[k] for k in STYLE_MARKERS) / len(STYLE_MARKERS),
        "lexical": (len(cs & cr) / min(len(cs), len(cr)) if cs and cr
                    else 1.0 if not cs and not cr else 0.0),
    }
    w = dict(weights or DEFAULT_WEIGHTS)
    if judge is not None:
        parts["judge"] = min(max(judge, 0.0), 1.0)
        w.setdefault("judge", 0.2)
    total = sum(w.get(k, 0.0) for k in parts)
    score = sum(w.get(k, 0.0) * v for k, v in parts.items()) / total if total else 0.0
    if not sim:
        score = 0.0
    return TurnScore(score=round(score, 6), parts={k: round(v, 4) for k, v in parts.items()},
                     sim_act=sa, real_act=ra,
                     feedback=("The simulated turn was empty." if not sim else
                               _feedback(sim, real, sa, ra, parts, sm, rm)))
