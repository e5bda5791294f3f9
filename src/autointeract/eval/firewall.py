"""The evaluation firewall: benchmark items never become generation seeds or training rows.

Each registered benchmark item is fingerprinted from its texts (statement, instruction,
tests, reference patch): a hash of the normalized text for exact matches and a set of hashed
word n-grams (shingles) for near-duplicates. ``check`` scores a candidate by containment — the
share of the candidate's shingles found in one benchmark item — and refuses it at or above
``threshold``. Refusals are counted per benchmark for the dataset card.

    fw = Firewall(threshold=0.5)
    fw.register("builtin", [BenchmarkItem(item_id="p1", texts=[statement, tests])])
    fw.check_texts([candidate_statement])  # -> FirewallMatch | None
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.types import TaskSpec

_WORD = re.compile(r"[a-z0-9_]+")


def normalize(text: str) -> str:
    """Lower-case, strip accents and punctuation, collapse whitespace."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(_WORD.findall(text.lower()))


def shingles(text: str, n: int) -> set[int]:
    """Hashed word n-grams of the normalized text (a short text gives one shingle of itself)."""
    words = normalize(text).split()
    if not words:
        return set()
    if len(words) < n:
        return {_h(" ".join(words))}
    return {_h(" ".join(words[i:i + n])) for i in range(len(words) - n + 1)}


def _h(s: str) -> int:
    return int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "little")


@dataclass
class BenchmarkItem:
    item_id: str
    texts: list[str]
    contest_date: str | None = None


@dataclass
class FirewallMatch:
    benchmark: str
    item_id: str
    score: float
    exact: bool


@dataclass
class _Entry:
    benchmark: str
    item_id: str
    size: int


@dataclass
class Firewall:
    """Fingerprints of registered benchmarks, and the refusal counts.

    Args:
        threshold: containment (0–1) at or above which a candidate is refused.
        ngram: words per shingle.
    """

    threshold: float = 0.5
    ngram: int = 8
    refused: Counter = field(default_factory=Counter)
    checked: int = 0
    _exact: dict[str, tuple[str, str]] = field(default_factory=dict)
    _index: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    _entries: list[_Entry] = field(default_factory=list)
    _benchmarks: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def register(self, benchmark: str, items: Iterable[BenchmarkItem]) -> int:
        """Add a benchmark's items; returns how many were registered."""
        n = 0
        for item in items:
            idx = len(self._entries)
            grams: set[int] = set()
            for t in item.texts:
                if not t:
                    continue
                norm = normalize(t)
                if len(norm) >= 20:
                    self._exact[hashlib.sha256(norm.encode()).hexdigest()] = (benchmark, item.item_id)
                grams |= shingles(t, self.ngram)
            self._entries.append(_Entry(benchmark, item.item_id, len(grams)))
            for g in grams:
                self._index[g].add(idx)
            n += 1
        self._benchmarks[benchmark] += n
        return n

    @property
    def benchmarks(self) -> dict[str, int]:
        return dict(self._benchmarks)

    def match(self, texts: Iterable[str]) -> FirewallMatch | None:
        """The strongest benchmark match of ``texts`` at or above the threshold (no counting)."""
        texts = [t for t in texts if t]
        for t in texts:
            hit = self._exact.get(hashlib.sha256(normalize(t).encode()).hexdigest())
            if hit:
                return FirewallMatch(hit[0], hit[1], 1.0, True)
        best: FirewallMatch | None = None
        for t in texts:
            grams = shingles(t, self.ngram)
            if not grams:
                continue
            counts: Counter = Counter()
            for g in grams:
                for idx in self._index.get(g, ()):
                    counts[idx] += 1
            for idx, c in counts.items():
                score = c / len(grams)
                if score >= self.threshold and (best is None or score > best.score):
                    e = self._entries[idx]
                    best = FirewallMatch(e.benchmark, e.item_id, round(score, 4), False)
        return best

    def check_texts(self, texts: Iterable[str]) -> FirewallMatch | None:
        """Like :meth:`match`, and counts the candidate (and its refusal)."""
        m = self.match(texts)
        with self._lock:
            self.checked += 1
            if m:
                self.refused[m.benchmark] += 1
        return m

    def check_task(self, task: TaskSpec) -> FirewallMatch | None:
        return self.check_texts(task_texts(task))

    def card_section(self) -> dict[str, Any]:
        """What a dataset card states: benchmarks firewalled, candidates checked and refused."""
        return {"benchmarks": self.benchmarks, "threshold": self.threshold, "ngram": self.ngram,
                "candidates_checked": self.checked, "refused": dict(self.refused),
                "refused_total": sum(self.refused.values())}

    def save(self, path: str | Path) -> None:
        """Save the fingerprints (hashes only, no benchmark text)."""
        data = {"threshold": self.threshold, "ngram": self.ngram, "exact": self._exact,
                "entries": [asdict(e) for e in self._entries],
                "index": {str(g): sorted(ix) for g, ix in self._index.items()},
                "benchmarks": dict(self._benchmarks)}
        Path(path).write_text(json.dumps(data))

    @classmethod
    def load(cls, path: str | Path) -> Firewall:
        data = json.loads(Path(path).read_text())
        fw = cls(threshold=data["threshold"], ngram=data["ngram"])
        fw._exact = {k: tuple(v) for k, v in data["exact"].items()}  # type: ignore[misc]
        fw._entries = [_Entry(**e) for e in data["entries"]]
        for g, ix in data["index"].items():
            fw._index[int(g)] = set(ix)
        fw._benchmarks = Counter(data["benchmarks"])
        return fw


def task_texts(task: TaskSpec) -> list[str]:
    """The texts of a task that identify it: statement, opening, requirements, tests, solution."""
    tests = "\n".join(f"{t.input}\n{t.output}" for t in task.verifier.tests)
    return [task.hidden_goal, task.initial_message, "\n".join(r.text for r in task.requirements),
            tests, task.reference_solution or "", str(task.meta.get("reference_patch") or "")]


def task_item(task: TaskSpec) -> BenchmarkItem:
    return BenchmarkItem(task.task_id, task_texts(task), task.meta.get("contest_date"))


# -- configuration --------------------------------------------------------------------------
class BenchmarkRegistration(StrictModel):
    """A benchmark to keep out of generation and training: a scenario family and its source."""

    name: str
    family: str
    source: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class FirewallConfig(StrictModel):
    """Firewall registrations are part of every run config."""

    benchmarks: list[BenchmarkRegistration] = Field(default_factory=list)
    threshold: float = Field(0.5, ge=0.0, le=1.0)
    ngram: int = Field(8, ge=2)
    cutoff_date: str | None = None  # ISO date: seeds from before, evaluation items from after


def build_firewall(cfg: FirewallConfig) -> Firewall:
    """Load every registered benchmark through its scenario and fingerprint its items."""
    from autointeract.scenarios import load_tasks

    fw = Firewall(threshold=cfg.threshold, ngram=cfg.ngram)
    for reg in cfg.benchmarks:
        tasks = load_tasks(reg.family, reg.source, **reg.options)
        fw.register(reg.name, [task_item(t) for t in tasks])
    return fw


def _as_date(value: Any) -> date | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).date()


def split_by_date(tasks: Iterable[TaskSpec], cutoff: str) -> tuple[list[TaskSpec], list[TaskSpec]]:
    """Time-segmented split: (before the cut-off: seeds/training, on or after: evaluation).

    Tasks without a ``contest_date`` go to neither side and are dropped: an undated item
    cannot be proven to precede the cut-off.
    """
    cut = _as_date(cutoff)
    before, after = [], []
    for t in tasks:
        d = _as_date(t.meta.get("contest_date"))
        if d is None:
            continue
        (before if d < cut else after).append(t)  # type: ignore[operator]
    return before, after
