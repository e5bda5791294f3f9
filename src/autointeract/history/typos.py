"""A simple, documented typo-rate estimator.

What counts as a *checked* word: a whitespace token outside code blocks, inline code and
URLs which, after stripping surrounding punctuation, is purely alphabetic (one apostrophe
allowed, then dropped), at least 4 letters long, and not camelCase or an acronym (no capital
after the first letter). Paths, identifiers, numbers and short words are never checked.

What counts as a *typo*: a checked word that is not in the vocabulary (also after stripping
common English suffixes: -s, -es, -ed, -ing, -ly, -er, ...) but is one edit (insertion,
deletion, substitution or transposition of adjacent letters) away from a vocabulary word.
Unknown words that are not near any known word (names, jargon) are not counted: the
estimator trades recall for precision.

The typo rate is typos / checked words. The vocabulary is the built-in list
(:mod:`autointeract.history.vocab`) plus, for a real corpus, words the agent wrote at least
twice (:func:`vocabulary_from_texts`): agents spell reliably and use the project's jargon.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from autointeract.history.vocab import builtin_vocabulary

MIN_LEN = 4
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", re.IGNORECASE)
_WORD = re.compile(r"^[A-Za-z]+(?:'[A-Za-z]+)?$")
_STRIP = ".,!?;:\"()[]{}<>*~…“”‘’-"
_SUFFIXES = ("ies", "ied", "ing", "ed", "es", "s", "ly", "er", "ers", "est", "ment", "ments",
             "ness", "able", "ful", "ation", "ations", "ize", "ized", "izes", "ise")


def checkable_words(text: str) -> list[str]:
    """The lower-cased words of ``text`` that the estimator checks (see the module docs)."""
    text = _URL.sub(" ", _INLINE_CODE.sub(" ", _CODE_BLOCK.sub(" ", text)))
    out = []
    for tok in text.split():
        core = tok.strip(_STRIP)
        if len(core) < MIN_LEN or not _WORD.match(core) or any(c.isupper() for c in core[1:]):
            continue
        out.append(core.lower().replace("'", ""))
    return out


def is_known(word: str, vocabulary: frozenset[str] | set[str]) -> bool:
    """Whether ``word`` or a suffix-stripped form of it is in ``vocabulary``."""
    if word in vocabulary:
        return True
    for suf in _SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 2:
            stem = word[: -len(suf)]
            forms = {stem, stem + "e", stem + "y"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                forms.add(stem[:-1])  # running -> run
            if forms & vocabulary:
                return True
    for pre in ("un", "re", "pre", "sub", "non"):
        if word.startswith(pre) and word[len(pre):] in vocabulary:
            return True
    return False


def _edits1(word: str) -> Iterable[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for a, b in splits:
        if b:
            yield a + b[1:]
            if len(b) > 1:
                yield a + b[1] + b[0] + b[2:]
            for c in _LETTERS:
                yield a + c + b[1:]
        for c in _LETTERS:
            yield a + c + b


def is_typo(word: str, vocabulary: frozenset[str] | set[str]) -> bool:
    """Whether a checked word is unknown but one edit away from a known word."""
    if is_known(word, vocabulary):
        return False
    return any(e != word and e in vocabulary for e in _edits1(word))


@dataclass
class TypoCount:
    """Checked words and typos found, with the typos themselves (for inspection)."""

    checked: int = 0
    typos: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Typos per checked word (0 when nothing was checked)."""
        return len(self.typos) / self.checked if self.checked else 0.0

    def add(self, other: TypoCount) -> None:
        """Accumulate ``other`` into this count."""
        self.checked += other.checked
        self.typos.extend(other.typos)


def count_typos(text: str, *, vocabulary: frozenset[str] | set[str] | None = None) -> TypoCount:
    """Count checked words and typos in one text.

    Args:
        text: A user turn.
        vocabulary: Known words; the built-in vocabulary when omitted.

    Returns:
        The count.
    """
    vocab = vocabulary if vocabulary is not None else builtin_vocabulary()
    words = checkable_words(text)
    return TypoCount(checked=len(words), typos=[w for w in words if is_typo(w, vocab)])


def vocabulary_from_texts(texts: Iterable[str], *, min_count: int = 2,
                          base: frozenset[str] | None = None) -> frozenset[str]:
    """The built-in vocabulary plus every checkable word seen ``min_count`` times in ``texts``.

    Args:
        texts: Well-spelled texts (the agent's messages).
        min_count: How often a word must occur to be trusted.
        base: The vocabulary to extend; the built-in one when omitted.

    Returns:
        The extended vocabulary.
    """
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(checkable_words(t))
    extra = {w for w, n in counts.items() if n >= min_count}
    return frozenset((base if base is not None else builtin_vocabulary()) | extra)
