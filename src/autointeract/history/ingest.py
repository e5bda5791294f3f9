"""Ingest = load (normalize + redact) + label; shared by the CLI and the pipeline stage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from autointeract.history.acts import ActLabeler, RuleLabeler, label_session
from autointeract.history.corpus import Corpus, Format, load_corpus, write_sessions_jsonl
from autointeract.history.stats import BehaviorStats, corpus_stats
from autointeract.history.text import DEFAULT_MAX_CHARS

LabelerName = Literal["rules", "llm"]


def make_labeler(name: LabelerName, *, lm: Any = None) -> ActLabeler:
    """The rule labeler, or the dspy labeler around ``lm`` (required for ``llm``).

    Raises:
        ValueError: For ``llm`` without an LM.
    """
    if name == "rules":
        return RuleLabeler()
    if lm is None:
        raise ValueError("the llm labeler needs an LM (make_dspy_lm(client, model, stage=...))")
    from autointeract.history.llm_labeler import DspyActLabeler

    return DspyActLabeler(lm)


def ingest(src: str | Path, *, labeler: ActLabeler | None = None, format: Format = "auto",
           max_sessions: int | None = None, max_chars: int = DEFAULT_MAX_CHARS,
           on_item: Callable[[str], None] | None = None) -> Corpus:
    """Load a corpus and label every genuine user turn.

    Args:
        src: Any source :func:`~autointeract.history.corpus.load_corpus` accepts.
        labeler: The act labeler (rules when omitted).
        format: Force a source format.
        max_sessions: Keep at most this many sessions.
        max_chars: Size limit of each stored text.
        on_item: Progress callback (once per loaded item).

    Returns:
        The corpus with labeled sessions.
    """
    corpus = load_corpus(src, format=format, max_sessions=max_sessions, max_chars=max_chars,
                         on_item=on_item)
    lab = labeler or RuleLabeler()
    corpus.sessions = [label_session(s, labeler=lab) for s in corpus.sessions]
    return corpus


def write_outputs(corpus: Corpus, out_dir: str | Path, *,
                  sessions_name: str = "sessions.jsonl") -> tuple[dict[str, str], BehaviorStats]:
    """Write ``sessions.jsonl``, ``stats.json`` and ``issues.jsonl`` into ``out_dir``.

    Returns:
        The written paths by name, and the corpus statistics.
    """
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    paths = {"sessions_path": str(d / sessions_name), "stats_path": str(d / "stats.json"),
             "issues_path": str(d / "issues.jsonl")}
    write_sessions_jsonl(corpus.sessions, paths["sessions_path"])
    stats = corpus_stats(corpus.sessions)
    Path(paths["stats_path"]).write_text(stats.model_dump_json(indent=2), encoding="utf-8")
    Path(paths["issues_path"]).write_text("".join(i.model_dump_json() + "\n" for i in corpus.issues),
                                     encoding="utf-8")
    return paths, stats
