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
from pathlib import Path
from typing import Any

from pydantic import Field

from autointeract.config import StrictModel
from autointeract.eval.timesplit import as_date, split_by_date
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
    """The benchmark item a candidate matched, and how strongly (containment, 0–1)."""

    benchmark: str
    item_id: str
    score: float
    exact: bool

    def __str__(self) -> str:
        how = "exact copy" if self.exact else f"containment {self.score:.2f}"
        return f"{self.benchmark}:{self.item_id} ({how})"


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
        short_ngram: words per shingle for a candidate text shorter than ``short_words``
            words (long shingles make short statements escape after a few edited words).
        short_words: below this many words a candidate text uses ``short_ngram``.
        cutoff_date: ISO date; :meth:`check_task` refuses tasks dated on or after it.
        common_items: a shingle found in this many registered items is boilerplate and
            ignored (template wording such as "for example, on input").
        min_shingles: a text with fewer informative shingles is only checked for exact
            copies.
    """

    threshold: float = 0.5
    ngram: int = 8
    short_ngram: int = 4
    short_words: int = 80
    cutoff_date: str | None = None
    common_items: int = 3
    min_shingles: int = 12
    refused: Counter = field(default_factory=Counter)
    checked: int = 0
    _exact: dict[str, tuple[str, str]] = field(default_factory=dict)
    _index: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    _index_short: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    _entries: list[_Entry] = field(default_factory=list)
    _benchmarks: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def register(self, benchmark: str, items: Iterable[BenchmarkItem]) -> int:
        """Add a benchmark's items; returns how many were registered."""
        n = 0
        for item in items:
            idx = len(self._entries)
            grams: set[int] = set()
            short: set[int] = set()
            for t in item.texts:
                if not t:
                    continue
                norm = normalize(t)
                if len(norm) >= 20:
                    self._exact[hashlib.sha256(norm.encode()).hexdigest()] = (benchmark, item.item_id)
                grams |= shingles(t, self.ngram)
                short |= shingles(t, self.short_ngram)
            self._entries.append(_Entry(benchmark, item.item_id, len(grams)))
            for g in grams:
                self._index[g].add(idx)
            for g in short:
                self._index_short[g].add(idx)
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
            is_short = len(normalize(t).split()) < self.short_words
            grams = shingles(t, self.short_ngram if is_short else self.ngram)
            index = self._index_short if is_short else self._index
            # boilerplate (a shingle of many registered items) says nothing about identity
            grams = {g for g in grams if len(index.get(g, ())) < self.common_items}
            if len(grams) < self.min_shingles:
                continue
            counts: Counter = Counter()
            for g in grams:
                for idx in index.get(g, ()):
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
        """Check every identifying text of ``task`` (see :func:`task_texts`), counted; with a
        ``cutoff_date``, a task dated on or after it is refused too."""
        when = as_date(task.meta.get("contest_date"))
        if self.cutoff_date and when is not None:
            if when >= as_date(self.cutoff_date):  # type: ignore[operator]
                m = FirewallMatch("after_cutoff", task.task_id, 1.0, False)
                with self._lock:
                    self.checked += 1
                    self.refused[m.benchmark] += 1
                return m
        return self.check_texts(task_texts(task))

    def check(self, item: str | TaskSpec | Iterable[str]) -> FirewallMatch | None:
        """Check a text, a task or several texts (counted); the match or None.

        This is the hook the generator, the dataset writer and the trainer call.
        """
        if isinstance(item, TaskSpec):
            return self.check_task(item)
        return self.check_texts([item] if isinstance(item, str) else item)

    def filter_tasks(self, tasks: Iterable[TaskSpec]
                     ) -> tuple[list[TaskSpec], list[tuple[TaskSpec, FirewallMatch]]]:
        """(tasks kept, tasks refused with their match), e.g. for generation seeds."""
        kept, refused = [], []
        for t in tasks:
            m = self.check_task(t)
            if m is None:
                kept.append(t)
            else:
                refused.append((t, m))
        return kept, refused

    def card_section(self) -> dict[str, Any]:
        """What a dataset card states: benchmarks firewalled, candidates checked and refused."""
        return {"benchmarks": self.benchmarks, "threshold": self.threshold, "ngram": self.ngram,
                "short_ngram": self.short_ngram, "short_words": self.short_words,
                "cutoff_date": self.cutoff_date, "candidates_checked": self.checked,
                "refused": dict(self.refused),
                "refused_total": sum(self.refused.values())}

    def save(self, path: str | Path) -> None:
        """Save the fingerprints (hashes only, no benchmark text)."""
        data = {"threshold": self.threshold, "ngram": self.ngram,
                "short_ngram": self.short_ngram, "short_words": self.short_words,
                "cutoff_date": self.cutoff_date, "exact": self._exact,
                "entries": [asdict(e) for e in self._entries],
                "index": {str(g): sorted(ix) for g, ix in self._index.items()},
                "index_short": {str(g): sorted(ix) for g, ix in self._index_short.items()},
                "benchmarks": dict(self._benchmarks)}
        tmp = Path(path).with_name(f".{Path(path).name}.tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Firewall:
        data = json.loads(Path(path).read_text())
        fw = cls(threshold=data["threshold"], ngram=data["ngram"],
                 short_ngram=data.get("short_ngram", 4), short_words=data.get("short_words", 80),
                 cutoff_date=data.get("cutoff_date"))
        fw._exact = {k: tuple(v) for k, v in data["exact"].items()}  # type: ignore[misc]
        fw._entries = [_Entry(**e) for e in data["entries"]]
        for g, ix in data["index"].items():
            fw._index[int(g)] = set(ix)
        for g, ix in data.get("index_short", {}).items():
            fw._index_short[int(g)] = set(ix)
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
    short_ngram: int = Field(4, ge=2)
    short_words: int = Field(80, ge=0)
    cutoff_date: str | None = None  # ISO date: seeds from before, evaluation items from after


def build_firewall(cfg: FirewallConfig) -> Firewall:
    """Load every registered benchmark through its scenario and fingerprint its items.

    With ``cutoff_date``, dated items from before the cut-off are not registered (they may
    seed training: the time-segmented split) and any task dated on or after it is refused.
    A ``source`` written ``$VAR`` is read from that environment variable.

    Raises:
        ConfigError: an unset ``$VAR`` source, or a scenario's own config errors.
    """
    import os

    from autointeract.errors import ConfigError
    from autointeract.scenarios import load_tasks

    fw = Firewall(threshold=cfg.threshold, ngram=cfg.ngram, short_ngram=cfg.short_ngram,
                  short_words=cfg.short_words, cutoff_date=cfg.cutoff_date)
    for i, reg in enumerate(cfg.benchmarks):
        src = reg.source
        if src and src.startswith("$"):
            src = os.environ.get(src[1:])
            if not src:
                raise ConfigError(f"environment variable {reg.source[1:]} is not set",
                                  field=f"firewall.benchmarks.{i}.source")
        tasks = load_tasks(reg.family, src, **reg.options)
        if cfg.cutoff_date:
            _, after = split_by_date([t for t in tasks if t.meta.get("contest_date")],
                                     cfg.cutoff_date)
            tasks = after + [t for t in tasks if not t.meta.get("contest_date")]
        fw.register(reg.name, [task_item(t) for t in tasks])
    return fw


__all__ = ["BenchmarkItem", "BenchmarkRegistration", "Firewall", "FirewallConfig",
           "FirewallMatch", "build_firewall", "normalize", "shingles", "split_by_date",
           "task_item", "task_texts"]
