"""Leak guard: catch user turns that reveal hidden tests or the reference solution.

A simulated user knows the hidden task; it must never paste a hidden test's input or expected
output, or the reference code. The guard tokenizes text (lower-cased words, numbers and
single punctuation marks) and compares token n-grams. For each secret (a test input, a test
output, the reference solution) it computes

    overlap = |G(turn) ∩ G(secret)| / min(|G(turn)|, |G(secret)|)

over n-gram sets ``G`` after removing n-grams the user may say (those of the task's initial
message, hidden goal and requirement texts). A turn leaks when some secret has
``overlap >= threshold`` with at least ``min_shared`` shared n-grams. Secrets shorter than one
n-gram cannot be detected and are ignored.

:func:`guarded_generate` regenerates a leaking turn a bounded number of times, then falls
back to a safe text; :class:`LeakStats` counts checks, leaks and fallbacks for the leak rate.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from autointeract.types import TaskSpec

_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """Lower-cased word, number and punctuation tokens."""
    return _TOKEN.findall(text.lower())


def ngrams(text: str, n: int) -> set[tuple[str, ...]]:
    """The set of token ``n``-grams of ``text``."""
    t = tokens(text)
    return {tuple(t[i:i + n]) for i in range(len(t) - n + 1)}


@dataclass(frozen=True)
class LeakVerdict:
    """Whether a text leaks, the worst overlap found and which secret it came from."""

    leaked: bool
    overlap: float = 0.0
    shared: int = 0
    source: str = ""


@dataclass
class LeakStats:
    """Counts of guard checks over an episode or a run."""

    checks: int = 0
    leaks: int = 0
    regenerations: int = 0
    fallbacks: int = 0
    sources: list[str] = field(default_factory=list)

    @property
    def leak_rate(self) -> float:
        """Leaking generations per check (0 when nothing was checked)."""
        return self.leaks / self.checks if self.checks else 0.0

    def to_dict(self) -> dict[str, float | int]:
        """A JSON-ready summary."""
        return {"checks": self.checks, "leaks": self.leaks, "regenerations": self.regenerations,
                "fallbacks": self.fallbacks, "leak_rate": round(self.leak_rate, 4)}


class LeakGuard:
    """Detects turns that overlap hidden secrets.

    Args:
        secrets: ``(name, text)`` pairs that must not be revealed.
        allowed: Texts the user may repeat (their n-grams never count as a leak).
        n: The n-gram size.
        threshold: Overlap at or above which a turn leaks.
        min_shared: Fewest shared n-grams for a leak (guards against one common phrase).
    """

    def __init__(self, secrets: Iterable[tuple[str, str]], *, allowed: Iterable[str] = (),
                 n: int = 4, threshold: float = 0.3, min_shared: int = 2):
        self.n, self.threshold, self.min_shared = n, threshold, min_shared
        ok: set[tuple[str, ...]] = set()
        for a in allowed:
            ok |= ngrams(a, n)
        self._secrets = [(name, g - ok) for name, text in secrets
                         if (g := ngrams(text, n)) and g - ok]

    @classmethod
    def for_task(cls, task: TaskSpec, **kw: float) -> LeakGuard:
        """A guard over ``task``'s hidden test inputs/outputs and reference solution."""
        secrets = []
        for i, t in enumerate(task.verifier.tests):
            secrets += [(f"test[{i}].input", t.input), (f"test[{i}].output", t.output)]
        if task.reference_solution:
            secrets.append(("reference_solution", task.reference_solution))
        allowed = [task.initial_message, task.hidden_goal, *(r.text for r in task.requirements)]
        return cls(secrets, allowed=allowed, **kw)  # type: ignore[arg-type]

    @property
    def n_secrets(self) -> int:
        """How many secrets are long enough to be checked."""
        return len(self._secrets)

    def check(self, text: str) -> LeakVerdict:
        """The verdict on one text (the secret with the highest overlap is reported)."""
        g = ngrams(text, self.n)
        best = LeakVerdict(False)
        if not g:
            return best
        for name, s in self._secrets:
            shared = len(g & s)
            if not shared:
                continue
            overlap = shared / min(len(g), len(s))
            leaked = overlap >= self.threshold and shared >= min(self.min_shared, len(s))
            if (leaked, overlap) > (best.leaked, best.overlap):
                best = LeakVerdict(leaked, round(overlap, 4), shared, name)
        return best


async def guarded_generate(generate: Callable[[int], Awaitable[str]], guard: LeakGuard | None, *,
                     max_regenerations: int = 2, fallback: str = "",
                     stats: LeakStats | None = None) -> tuple[str, list[LeakVerdict]]:
    """Generate a turn, regenerating while it leaks.

    Args:
        generate: Awaited with the attempt number (0, 1, ...); returns a candidate turn;
            later attempts should vary (another seed, a stronger warning).
        guard: The guard (``None`` accepts the first candidate).
        max_regenerations: Extra attempts after the first.
        fallback: Returned when every attempt leaks.
        stats: Counters to update.

    Returns:
        The accepted text and the verdict of every attempt.
    """
    verdicts: list[LeakVerdict] = []
    for attempt in range(max_regenerations + 1):
        text = await generate(attempt)
        if guard is None:
            return text, verdicts
        v = guard.check(text)
        verdicts.append(v)
        if stats is not None:
            stats.checks += 1
            stats.regenerations += attempt > 0
        if not v.leaked:
            return text, verdicts
        if stats is not None:
            stats.leaks += 1
            stats.sources.append(v.source)
    if stats is not None:
        stats.fallbacks += 1
    return fallback, verdicts
