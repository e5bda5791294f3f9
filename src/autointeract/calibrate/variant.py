"""Task variants: the generator's output schema and how a draft becomes a TaskSpec. Pure.

A :class:`VariantDraft` says how the user opens (``opening``), which of the seed's
requirements it states (``stated``) or holds back (``hidden``), and which edge-case
``constraints`` it adds (each one a new test: input plus expected output). :func:`build_variant`
checks a draft against the seed and the knobs and turns it into a ``TaskSpec``;
:func:`knob_draft` is the deterministic knob-only fallback when the LLM's draft is invalid.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

from pydantic import BaseModel, Field

from autointeract.calibrate.knobs import Knobs
from autointeract.types import Requirement, TaskSpec, TestCase

STYLE_CONSTRAINTS = (
    "Use only the Python standard library.",
    "Keep it in a single self-contained function or script.",
    "Don't print debugging output.",
)


class ExtraConstraint(BaseModel):
    """An added constraint, checked by one extra test (``input``/``output`` in the seed's
    test format). Without a test it is a stated style constraint only."""

    text: str = Field(min_length=5, max_length=400)
    input: str | None = None
    output: str | None = None


class VariantDraft(BaseModel):
    """The generator's output: how the user opens and what it holds back."""

    opening: str = Field(min_length=8, max_length=3000,
                         description="the user's first message to the coding assistant")
    stated: list[int] = Field(default_factory=list,
                              description="indices of requirements stated in the opening")
    hidden: list[int] = Field(default_factory=list,
                              description="indices of requirements held back, in reveal order")
    constraints: list[ExtraConstraint] = Field(default_factory=list)


class DraftError(ValueError):
    """A draft that does not fit its seed or its knobs."""


def n_hidden(knobs: Knobs, n_requirements: int) -> int:
    """How many requirements the knobs hold back."""
    return round(knobs.hidden * n_requirements)


def examples_text(seed: TaskSpec, limit: int = 2) -> str:
    """The seed's public examples as the user would paste them (empty when none)."""
    n_pub = int(seed.verifier.meta.get("n_public", seed.meta.get("n_public", 0)) or 0)
    tests = seed.verifier.tests[: min(n_pub, limit)]
    if not tests:
        return ""
    lines = []
    for t in tests:
        if seed.verifier.kind == "functional" and seed.verifier.func_name:
            args = ", ".join(t.input.splitlines())
            lines.append(f"{seed.verifier.func_name}({args}) -> {t.output.strip()}")
        else:
            lines.append(f"input:\n{t.input.rstrip()}\noutput:\n{t.output.rstrip()}")
    return "For example:\n" + "\n".join(lines)


def _terse(text: str) -> str:
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    words = first.split()
    return " ".join(words[:14]) + ("..." if len(words) > 14 else "")


def opening_text(seed: TaskSpec, knobs: Knobs, stated: list[int],
                 constraints: list[ExtraConstraint]) -> str:
    """The knob-only opening: base text by vagueness, stated requirements, examples."""
    if knobs.vagueness == 0:
        base = seed.hidden_goal.strip()
    elif knobs.vagueness == 3:
        base = _terse(seed.initial_message)
    else:
        base = seed.initial_message.strip()
    parts = [base]
    said = [seed.requirements[i].text for i in stated]
    said += [c.text for c in constraints if c.input is None]
    if said and knobs.vagueness < 3:
        parts.append("Also: " + " ".join(s if s.endswith(".") else s + "." for s in said))
    elif said:
        parts.append(" ".join(said))
    if knobs.examples and knobs.vagueness <= 1:
        ex = examples_text(seed)
        if ex:
            parts.append(ex)
    return "\n\n".join(p for p in parts if p)


def knob_draft(seed: TaskSpec, knobs: Knobs, *, rng: random.Random) -> VariantDraft:
    """The deterministic knob-only variant (the fallback when the LLM's draft is invalid)."""
    n = len(seed.requirements)
    k = n_hidden(knobs, n)
    hidden = sorted(rng.sample(range(n), k)) if k else []
    stated = [i for i in range(n) if i not in hidden]
    cons = [ExtraConstraint(text=t) for t in STYLE_CONSTRAINTS[: knobs.constraints]]
    return VariantDraft(opening=opening_text(seed, knobs, stated, cons), stated=stated,
                        hidden=hidden, constraints=cons)


def check_draft(seed: TaskSpec, draft: VariantDraft, knobs: Knobs) -> None:
    """Raise :class:`DraftError` when the draft does not fit the seed and the knobs."""
    n = len(seed.requirements)
    idx = draft.stated + draft.hidden
    if any(not 0 <= i < n for i in idx):
        raise DraftError(f"requirement index out of range 0..{n - 1}: {idx}")
    if len(set(idx)) != len(idx) or set(idx) != set(range(n)):
        raise DraftError("stated and hidden must split the requirements exactly once each")
    if len(draft.hidden) != n_hidden(knobs, n):
        raise DraftError(f"knobs hide {n_hidden(knobs, n)} requirements, draft hides "
                         f"{len(draft.hidden)}")
    tested = [c for c in draft.constraints if c.input is not None]
    if len(tested) > knobs.constraints:
        raise DraftError(f"knobs allow {knobs.constraints} added constraints, draft has "
                         f"{len(tested)}")
    if any(c.output is None for c in tested):
        raise DraftError("an added constraint with an input needs its expected output")
    low = draft.opening.lower()
    leaked = [t.output.strip() for t in seed.verifier.tests[int(seed.verifier.meta.get(
        "n_public", 0) or 0):] if len(t.output.strip()) > 12 and t.output.strip().lower() in low]
    if leaked:
        raise DraftError("the opening quotes a hidden test's expected output")


def _reveal(knobs: Knobs, order: int) -> tuple[int | None, str | None]:
    if knobs.reveal == "early":
        return 1 + order, None
    if knobs.reveal == "late":
        return 3 + order, "turn"
    return None, {"on_failure": "failed_test", "on_question": "asked"}[knobs.reveal]


def variant_id(seed: TaskSpec, task: TaskSpec) -> str:
    """``<seed id>~<8 hex of the variant's content>`` (same content, same id)."""
    blob = json.dumps([task.initial_message, [r.model_dump() for r in task.requirements],
                       [t.model_dump() for t in task.verifier.tests]], sort_keys=True)
    return f"{seed.task_id}~{hashlib.sha256(blob.encode()).hexdigest()[:8]}"


def build_variant(seed: TaskSpec, draft: VariantDraft, knobs: Knobs, *,
                  meta: dict[str, object] | None = None) -> TaskSpec:
    """The variant TaskSpec of ``draft`` (checked with :func:`check_draft` first).

    Raises:
        DraftError: the draft does not fit the seed or the knobs.
    """
    check_draft(seed, draft, knobs)
    spec = seed.verifier.model_copy(deep=True)
    reqs = []
    for i in draft.stated:
        r = seed.requirements[i]
        reqs.append(Requirement(text=r.text, trigger="failed_test", tests=list(r.tests)))
    for order, i in enumerate(draft.hidden):
        r = seed.requirements[i]
        after, trig = _reveal(knobs, order)
        reqs.append(Requirement(text=r.text, tests=list(r.tests), reveal_after_turn=after,
                                trigger=trig))
    added = []
    for c in draft.constraints:
        if c.input is None:
            continue
        spec.tests.append(TestCase(input=c.input, output=c.output or "",
                                   testtype=spec.tests[0].testtype if spec.tests else "stdin"))
        after, trig = _reveal(knobs, len(draft.hidden) + len(added))
        reqs.append(Requirement(text=c.text, tests=[len(spec.tests) - 1],
                                reveal_after_turn=after, trigger=trig))
        added.append(c.text)
    goal = seed.hidden_goal.strip()
    extra = added + [c.text for c in draft.constraints if c.input is None]
    if extra:
        goal += "\n\nAdditional constraints:\n" + "\n".join(f"- {t}" for t in extra)
    task = TaskSpec(task_id=seed.task_id, family=seed.family,
                    initial_message=draft.opening.strip(), hidden_goal=goal, requirements=reqs,
                    verifier=spec, reference_solution=seed.reference_solution,
                    starter_code=seed.starter_code, difficulty=seed.difficulty,
                    knobs=knobs.model_dump(), meta={**seed.meta, "seed_id": seed.task_id,
                                                    **(meta or {})})
    task.task_id = variant_id(seed, task)
    return task


__all__ = ["DraftError", "ExtraConstraint", "STYLE_CONSTRAINTS", "VariantDraft",
           "build_variant", "check_draft", "examples_text", "knob_draft", "n_hidden",
           "opening_text", "variant_id"]
