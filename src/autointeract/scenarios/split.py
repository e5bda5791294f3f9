"""Split a competitive-programming statement into a vague opening request and the
requirements a simulated user holds back. Pure and deterministic given the seed.

A statement is cut into sections by its headings (``Input``, ``Output``, ``Constraints``,
``Example 1:``, ``Note``, markdown ``##`` or ``**bold**`` forms included); inside an
example block the ``Input:``/``Output:`` lines of LeetCode-style statements stay in the
example. The legend (the text before the first heading) gives the opening request: its
core sentence (the first one stating what to find, print or return), with formulas,
parentheticals and bounds removed. What the opening leaves out becomes requirements:

=============  ===========  ==================================================
requirement    trigger      tests it covers
=============  ===========  ==================================================
input/output   ``asked``    every test (a wrong format fails them all)
constraints    failed_test  the largest third of the tests (by input size)
details        failed_test  the smallest third (edge cases live there)
notes          failed_test  the smallest third
example        ``asked``    the public tests
=============  ===========  ==================================================
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from autointeract.types import Requirement, TestCase

_HEADINGS: dict[str, str] = {
    "input": "input", "input format": "input", "input specification": "input",
    "interaction": "input", "output": "output", "output format": "output",
    "output specification": "output", "constraints": "constraints", "constraint": "constraints",
    "limits": "constraints", "note": "notes", "notes": "notes", "follow-up": "notes",
    "follow up": "notes", "explanation": "examples", "sample input": "examples",
    "sample output": "examples", "example": "examples", "examples": "examples",
    "sample": "examples", "samples": "examples", "sample explanation": "examples",
}
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s*|\*\*|__)?\s*([A-Za-z][A-Za-z -]{1,30}?)\s*(\d+)?\s*"
                         r"(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$")
_SENT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z$\\(\"'])")
_TASK_VERB = re.compile(r"\b(find|return|print|output|determine|compute|count|calculate|check|"
                        r"decide|answer|report|minimi[sz]e|maximi[sz]e|how many|what is|wants? to know|"
                        r"smallest|largest|minimum|maximum|whether)\b", re.I)
_DETAIL = re.compile(r"\d|\b(if|otherwise|unless|must|at most|at least|exactly|only|distinct|"
                     r"modulo|empty|negative|ties?|case-?insensitive|round|-1|each|every)\b", re.I)
_MATH = re.compile(r"\$[^$]*\$|\\\([^)]*\\\)")
_NUMBER_SIDE = re.compile(r"(?:^|[\s<>=≤≥])-?\d[\d^*.]*(?:$|[\s<>=≤≥,])")
_PAREN = re.compile(r"\s*\([^()]*\)")
_BOUND = re.compile(
    r"(?:\b(?:where|with|such that)\s+)?[-\w^*.|]+\s*(?:<=|>=|≤|≥|<|>)\s*[-\w^*.|\[\]]+"
    r"(?:\s*(?:<=|>=|≤|≥|<|>)\s*[-\w^*.|]+)?"
    r"|\b(?:at most|at least|up to|no more than|not exceeding)\s+[-\d^*., ]*\d")
_OPENERS = (
    "Can you write a program for me? {core}",
    "I need some code for this: {core}",
    "Could you help me solve this? {core}",
    "Please write a solution. {core}",
    "Quick one: {core}",
)


@dataclass(frozen=True)
class Section:
    """One part of a statement: ``kind`` is legend/input/output/constraints/examples/notes."""

    kind: str
    title: str
    text: str


def _heading(line: str, current: str) -> str | None:
    m = _HEADING_RE.match(line)
    if not m or len(line.strip()) > 40:
        return None
    kind = _HEADINGS.get(m.group(1).strip().lower())
    if kind is None:
        return None
    if current == "examples" and kind in ("input", "output", "examples"):
        return None  # "Input:" inside an example block stays in the example
    return kind


def split_sections(statement: str) -> list[Section]:
    """Cut a statement at its headings; text before the first heading is the legend.

    Inline LeetCode forms ("Input: nums = [1]") inside examples are not headings; a heading
    line with text after the colon ("Constraints: 1 <= n") starts the section with it.
    """
    sections: list[Section] = []
    kind, title, buf = "legend", "", []
    for raw in statement.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        new, first = _heading(line, kind), ""
        if new is None and ":" in line:
            head, _, rest = line.partition(":")
            new, first = _heading(head + ":", kind), rest.strip()
        if new is None:
            buf.append(line)
            continue
        sections.append(Section(kind, title, "\n".join(buf).strip()))
        kind, title, buf = new, line.split(":")[0].strip(" #*_"), [first] if first else []
    sections.append(Section(kind, title, "\n".join(buf).strip()))
    return [s for s in sections if s.text or s.kind != "legend"]


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph-ish text (newlines inside paragraphs are joined)."""
    flat = re.sub(r"\s*\n\s*", " ", text.strip())
    return [s.strip() for s in _SENT_RE.split(flat) if s.strip()]


def soften(sentence: str) -> str:
    """Drop formulas, parentheticals and numeric bounds, so the request states no limits."""
    s = _MATH.sub(lambda m: m.group().strip("$\\()") if re.fullmatch(
        r"\$?\\?\(?[A-Za-z]\w{0,3}\\?\)?\$?", m.group()) else "", sentence)
    s = _PAREN.sub("", s)
    s = _BOUND.sub(lambda m: "" if _NUMBER_SIDE.search(m.group()) else m.group(), s)
    s = re.sub(r"\s+([,;.?!])", r"\1", re.sub(r"\s{2,}", " ", s))
    s = re.sub(r"([,;])\s*(?=[,;.]|$)", "", s).strip(" ,;")
    return s if s.endswith((".", "?", "!")) else s + "."


_DEICTIC = re.compile(r"\b(this|that|it|such|them|these|those)\b", re.I)


def core_sentences(legend: str, *, title: str = "") -> list[str]:
    """The legend's sentence that says what to compute (else its first sentence, else the
    title), preceded by the sentence before it when it is short or leans on it ("Determine
    whether this is possible.")."""
    sents = sentences(legend)
    if not sents:
        return [title or "Solve this problem."]
    i = next((k for k, s in enumerate(sents) if _TASK_VERB.search(s)), 0)
    short = len(sents[i].split()) < 8 or _DEICTIC.search(sents[i]) is not None
    return sents[i - 1:i + 1] if i > 0 and short else [sents[i]]


def core_sentence(legend: str, *, title: str = "") -> str:
    """:func:`core_sentences` joined by a space."""
    return " ".join(core_sentences(legend, title=title))


def vague_request(statement: str, *, title: str = "", seed: int = 0,
                  func_name: str | None = None) -> str:
    """The opening user message: the core task, softened, in one of a few seeded wordings."""
    legend = next((s.text for s in split_sections(statement) if s.kind == "legend"), "")
    core = soften(core_sentence(legend or statement, title=title))
    msg = _OPENERS[random.Random(seed).randrange(len(_OPENERS))].format(core=core)
    if func_name:
        msg += f" The function should be called `{func_name}`."
    return msg


def _by_size(tests: list[TestCase]) -> list[int]:
    return sorted(range(len(tests)), key=lambda i: (len(tests[i].input), i))


def _third(order: list[int], *, largest: bool) -> list[int]:
    if not order:
        return []
    k = max(1, len(order) // 3)
    return sorted(order[-k:] if largest else order[:k])


def _condense(text: str, limit: int = 600) -> str:
    text = re.sub(r"\n{2,}", "\n", text.strip())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def statement_requirements(statement: str, *, tests: list[TestCase], n_public: int = 0,
                           seed: int = 0, title: str = "",
                           max_details: int = 3) -> list[Requirement]:
    """Requirements held back from the opening request (see the module table).

    Args:
        statement: the full problem statement.
        tests: the verifier's tests (public first), used for the ``tests`` index lists.
        n_public: how many of ``tests`` are public examples.
        seed: orders the legend details and sets ``reveal_after_turn`` deterministically.
        title: used when the legend has no sentence.
        max_details: at most this many legend sentences become their own requirement.

    Returns:
        Requirements in reveal order; ``reveal_after_turn`` counts from 1.
    """
    sections = split_sections(statement)
    legend = " ".join(s.text for s in sections if s.kind == "legend")
    cores = core_sentences(legend, title=title) if legend else []
    order = _by_size(tests)
    everything, large, small = list(range(len(tests))), _third(order, largest=True), \
        _third(order, largest=False)
    reqs: list[Requirement] = []
    details = [s for s in sentences(legend) if s not in cores and _DETAIL.search(s)]
    details[:0] = [c for c in cores if soften(c) != c]  # softening dropped a detail of it
    random.Random(seed).shuffle(details)
    reqs += [Requirement(text=d, trigger="failed_test", tests=small) for d in details[:max_details]]
    labels = {"input": "Input format", "output": "Output format", "constraints": "Constraints",
              "notes": "Note"}
    for sec in sections:
        if sec.kind not in labels or not sec.text:
            continue
        covers = {"input": everything, "output": everything, "constraints": large,
                  "notes": small}[sec.kind]
        trigger = "asked" if sec.kind in ("input", "output") else "failed_test"
        reqs.append(Requirement(text=f"{labels[sec.kind]}: {_condense(sec.text)}",
                                trigger=trigger, tests=covers))
    examples = next((s.text for s in sections if s.kind == "examples" and s.text), "")
    if not n_public and examples and tests:
        reqs.append(Requirement(text=f"Example: {_condense(examples)}", trigger="asked",
                                tests=[0]))  # archives put the sample first
    elif n_public and tests:
        ex = tests[0]
        reqs.append(Requirement(
            text=f"For example, on input\n{ex.input.strip()}\nthe answer is\n{ex.output.strip()}",
            trigger="asked", tests=list(range(min(n_public, len(tests))))))
    return [r.model_copy(update={"reveal_after_turn": i + 1}) for i, r in enumerate(reqs)]
