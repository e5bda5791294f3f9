"""Shared by the CLI and the pipeline stages: loading sessions, running a fidelity evaluation.

Held-out selection: the sessions given are used minus those the fit trained on (recorded in
the model's ``provenance.json``); if that leaves nothing, the fit's own held-out sessions
among them; if still nothing, all of them, flagged ``overlaps_training``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from autointeract.errors import DataError
from autointeract.types import Session
from autointeract.users.adapter import UserPromptAdapter
from autointeract.users.artifact import UserModel
from autointeract.users.examples import extract_examples
from autointeract.users.fidelity import FidelityReport, evaluate_fidelity
from autointeract.users.seed import SEED_BEHAVIOR_PROMPT


def load_sessions(src: str | Path, *, max_sessions: int | None = None,
                  on_item: Callable[[str], None] | None = None) -> list[Session]:
    """Sessions from any source :func:`autointeract.history.corpus.load_corpus` reads.

    Raises:
        DataError: The source is missing, unrecognised, or holds no usable session.
    """
    from autointeract.history.corpus import load_corpus

    try:
        corpus = load_corpus(src, max_sessions=max_sessions, on_item=on_item)
    except FileNotFoundError:
        raise DataError("no such file or folder", file=str(src)) from None
    except ValueError as exc:
        raise DataError(str(exc).split(": ", 1)[-1], file=str(src)) from None
    if not corpus.sessions:
        raise DataError(f"no usable session ({len(corpus.issues)} problem(s) while loading)",
                        file=str(src))
    return corpus.sessions


class HeldOut(BaseModel):
    """The sessions a fidelity evaluation uses and why."""

    sessions: list[str]
    excluded_training: int = 0
    overlaps_training: bool = False


def heldout_sessions(sessions: Sequence[Session], um: UserModel) -> tuple[list[Session], HeldOut]:
    """The sessions to evaluate ``um`` on (see the module docstring)."""
    trained = set(um.train_sessions)
    fresh = [s for s in sessions if s.id not in trained]
    if not fresh:
        held = set(um.provenance.get("sessions", {}).get("heldout", []))
        fresh = [s for s in sessions if s.id in held]
    overlap = not fresh
    chosen = list(sessions) if overlap else fresh
    return chosen, HeldOut(sessions=[s.id for s in chosen],
                           excluded_training=len(sessions) - len(fresh) if fresh else 0,
                           overlaps_training=overlap)


def run_fidelity(sessions: Sequence[Session], um: UserModel, *, client: Any, model: Any,
                 seed: int = 0, max_examples: int = 40, max_per_session: int = 3,
                 max_tokens: int = 60, context_chars: int = 1500,
                 on_progress: Callable[[int, int], None] | None = None
                 ) -> tuple[FidelityReport, HeldOut]:
    """Evaluate the seed and the fitted prompt of ``um`` side by side on held-out sessions.

    Raises:
        DataError: The held-out sessions have no usable user turn.
    """
    from autointeract.history.stats import corpus_vocabulary

    chosen, held = heldout_sessions(sessions, um)
    examples = extract_examples(chosen, max_per_session=max_per_session,
                                max_examples=max_examples, seed=seed,
                                max_context_chars=context_chars)
    if not examples:
        raise DataError("no usable user turns after the first in the held-out sessions",
                        field="sessions")
    prompts = {"seed": um.seed_prompt or SEED_BEHAVIOR_PROMPT, "fitted": um.behavior_prompt}
    adapter = UserPromptAdapter(client, model, max_tokens=max_tokens, seed=seed,
                                stage="users.fidelity")
    total, done = len(examples) * len(set(prompts.values())), [0]

    def tick() -> None:
        done[0] += 1
        if on_progress:
            on_progress(done[0], total)

    report = evaluate_fidelity(examples, prompts, predict=adapter.predict, seed=seed,
                               vocabulary=corpus_vocabulary(chosen), on_progress=tick)
    return report, held
