"""Difficulty knobs of a task variant, and the ladder the controller climbs.

A variant of a seed problem is shaped by a few knobs:

* ``hidden`` — the share of the seed's requirements held back from the opening message;
* ``vagueness`` — 0: the full statement with examples, 1: the seed's opening plus examples,
  2: the seed's opening, 3: a terse one-line request;
* ``reveal`` — when hidden requirements come out: ``early`` (first reply), ``on_failure``
  (when a check touching them fails), ``on_question`` (only when the agent asks), ``late``
  (after three replies);
* ``constraints`` — extra edge-case constraints added on top of the seed (each one a test);
* ``examples`` — whether the opening shows the public examples.

:data:`LADDER` orders knob settings from the softest (everything stated, with examples: an
easy task for a competent solver) to the hardest. The controller moves along it: too easy
-> up, too hard -> down. Everything here is pure.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from autointeract.config import StrictModel

Reveal = Literal["early", "on_failure", "on_question", "late"]
REVEAL_ORDER: tuple[Reveal, ...] = ("early", "on_failure", "on_question", "late")


class Knobs(StrictModel):
    """One setting of the difficulty knobs (see the module docstring)."""

    hidden: float = Field(default=0.5, ge=0.0, le=1.0)
    vagueness: int = Field(default=1, ge=0, le=3)
    reveal: Reveal = "on_failure"
    constraints: int = Field(default=0, ge=0, le=3)
    examples: bool = True

    def hardness(self) -> float:
        """A scalar in [0, 1]: how much this setting withholds (for plots and fakes)."""
        return round((self.hidden + self.vagueness / 3 + REVEAL_ORDER.index(self.reveal) / 3
                      + self.constraints / 3 + (0.0 if self.examples else 1.0)) / 5, 4)

    def key(self) -> str:
        """A short stable label, e.g. ``h0.5-v1-on_failure-c0-ex``."""
        return (f"h{self.hidden:g}-v{self.vagueness}-{self.reveal}-c{self.constraints}-"
                f"{'ex' if self.examples else 'noex'}")


LADDER: tuple[Knobs, ...] = (
    Knobs(hidden=0.0, vagueness=0, reveal="early", constraints=0, examples=True),
    Knobs(hidden=0.0, vagueness=1, reveal="early", constraints=0, examples=True),
    Knobs(hidden=0.5, vagueness=1, reveal="early", constraints=0, examples=True),
    Knobs(hidden=0.5, vagueness=2, reveal="on_failure", constraints=0, examples=False),
    Knobs(hidden=1.0, vagueness=2, reveal="on_failure", constraints=0, examples=False),
    Knobs(hidden=1.0, vagueness=2, reveal="on_question", constraints=1, examples=False),
    Knobs(hidden=1.0, vagueness=3, reveal="on_question", constraints=1, examples=False),
    Knobs(hidden=1.0, vagueness=3, reveal="late", constraints=2, examples=False),
)
"""Knob settings from the softest (index 0) to the hardest."""


def ladder_knobs(level: int) -> Knobs:
    """The knobs of ``level`` (clipped into the ladder)."""
    return LADDER[max(0, min(len(LADDER) - 1, level))].model_copy()


__all__ = ["LADDER", "REVEAL_ORDER", "Knobs", "Reveal", "ladder_knobs"]
