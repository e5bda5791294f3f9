"""Training examples for user models: (conversation so far -> the real next user turn).

A real session becomes one example per genuine user turn after the first (the first turn is
the task itself, with no conversation to react to). Interruption markers and slash commands
are skipped: no text model should produce them. The conversation is rendered as a compact
transcript (``USER:`` / ``AGENT:`` lines, tool use summarised) cut to a character budget,
keeping the opening request and the most recent events.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from pydantic import BaseModel

from autointeract.history.acts import RuleLabeler
from autointeract.history.text import INTERRUPT_MARKER
from autointeract.types import Message, Session


class NextTurnExample(BaseModel):
    """One next-turn prediction example.

    Attributes:
        id: ``<session id>#<turn index>``.
        session_id: The source session.
        turn_index: Index of the target turn among the session's genuine user turns.
        n_turns: How many genuine user turns the session has.
        context: The rendered conversation before the target turn.
        previous_agent: The agent's last message before the target turn ("" if none).
        real_turn: What the real user wrote.
        real_act: The rule label of the real turn.
    """

    id: str
    session_id: str
    turn_index: int
    n_turns: int
    context: str
    previous_agent: str = ""
    real_turn: str
    real_act: str


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split()) if len(text) > limit else text.strip()
    if len(text) <= limit:
        return text
    head = int(limit * 0.7)
    return f"{text[:head]} [...] {text[-(limit - head):]}"


def _is_user_turn(m: Message) -> bool:
    return m.role == "user" and not m.meta.get("tool_result")


def render_events(messages: Sequence[Message], *, per_message_chars: int = 600) -> list[str]:
    """Render messages as transcript lines; runs of tool calls become one summary line."""
    lines: list[str] = []
    tools: list[str] = []

    def flush() -> None:
        if tools:
            names = ", ".join(dict.fromkeys(tools))
            lines.append(f"[agent used {len(tools)} tool call(s): {names}]")
            tools.clear()

    for m in messages:
        if m.role == "assistant":
            tools.extend(tc.name for tc in m.tool_calls)
            if m.content.strip():
                flush()
                lines.append(f"AGENT: {_clip(m.content, per_message_chars)}")
        elif _is_user_turn(m) and m.content.strip():
            flush()
            lines.append(f"USER: {_clip(m.content, per_message_chars)}")
    flush()
    return lines


def render_context(messages: Sequence[Message], *, max_chars: int = 2000,
                   per_message_chars: int = 600) -> str:
    """The transcript of ``messages`` within ``max_chars``: the opening line plus the most
    recent lines that fit, with an elision marker between them."""
    lines = render_events(messages, per_message_chars=per_message_chars)
    if not lines:
        return ""
    first, rest = lines[0], lines[1:]
    budget = max_chars - len(first)
    kept: list[str] = []
    for line in reversed(rest):
        if budget - len(line) - 1 < 0:
            break
        kept.append(line)
        budget -= len(line) + 1
    kept.reverse()
    gap = ["[... earlier conversation omitted ...]"] if len(kept) < len(rest) else []
    return "\n".join([first, *gap, *kept])


def _predictable(m: Message) -> bool:
    s = m.content.strip()
    return bool(s) and not s.startswith(INTERRUPT_MARKER) and m.meta.get("kind") != "slash_command"


def session_examples(session: Session, *, max_context_chars: int = 2000,
                     per_message_chars: int = 600) -> list[NextTurnExample]:
    """Every next-turn example of one session (see the module docstring)."""
    labeler = RuleLabeler()
    user_pos = [i for i, m in enumerate(session.messages) if _is_user_turn(m)]
    out: list[NextTurnExample] = []
    for k, i in enumerate(user_pos):
        m = session.messages[i]
        if k == 0 or not _predictable(m):
            continue
        before = session.messages[:i]
        prev = next((b.content for b in reversed(before) if b.role == "assistant"
                     and b.content.strip()), "")
        act = m.meta.get("act") or labeler.label(m.content, index=k, n_turns=len(user_pos),
                                                 previous=prev).act.value
        out.append(NextTurnExample(
            id=f"{session.id}#{k}", session_id=session.id, turn_index=k,
            n_turns=len(user_pos), real_turn=m.content.strip(), real_act=str(act),
            previous_agent=_clip(prev, per_message_chars),
            context=render_context(before, max_chars=max_context_chars,
                                   per_message_chars=per_message_chars)))
    return out


def extract_examples(sessions: Sequence[Session], *, max_per_session: int | None = None,
                     max_examples: int | None = None, seed: int = 0,
                     max_context_chars: int = 2000, per_message_chars: int = 600,
                     max_turn_chars: int = 1500) -> list[NextTurnExample]:
    """Next-turn examples of many sessions, sampled reproducibly.

    Args:
        sessions: Normalized sessions.
        max_per_session: Keep at most this many examples per session (seeded sample, so
            long sessions do not dominate).
        max_examples: Keep at most this many in total (seeded sample, round-robin over
            sessions so every session contributes).
        seed: Seed of the sampling.
        max_context_chars: Budget of each rendered context.
        per_message_chars: Budget of each message inside a context.
        max_turn_chars: Drop examples whose real turn is longer (pasted logs, specs).

    Returns:
        The examples, ordered by session then turn.
    """
    per: list[list[NextTurnExample]] = []
    for s in sessions:
        ex = [e for e in session_examples(s, max_context_chars=max_context_chars,
                                          per_message_chars=per_message_chars)
              if len(e.real_turn) <= max_turn_chars]
        rng = random.Random(f"{seed}:{s.id}")
        if max_per_session is not None and len(ex) > max_per_session:
            ex = sorted(rng.sample(ex, max_per_session), key=lambda e: e.turn_index)
        else:
            rng.shuffle(ex)
            ex.sort(key=lambda e: e.turn_index)
        per.append(ex)
    if max_examples is None:
        return [e for ex in per for e in ex]
    order = [list(ex) for ex in per]
    for i, ex in enumerate(order):
        random.Random(f"{seed}:rr:{i}").shuffle(ex)
    picked: list[NextTurnExample] = []
    while len(picked) < max_examples and any(order):
        for ex in order:
            if ex and len(picked) < max_examples:
                picked.append(ex.pop())
    keys = {e.id: (i, e.turn_index) for i, ex in enumerate(per) for e in ex}
    return sorted(picked, key=lambda e: keys[e.id])


def split_sessions(sessions: Sequence[Session], *, heldout_fraction: float = 0.3,
                   seed: int = 0) -> tuple[list[Session], list[Session]]:
    """Split sessions into (train, held-out) by a seeded hash of their ids.

    The split of a session does not depend on which other sessions are present, so adding
    sessions to a corpus never moves an old one across the split. At least one session lands
    on each side when there are two or more.
    """
    def h(s: Session) -> float:
        d = hashlib.sha256(f"{seed}:{s.id}".encode()).hexdigest()
        return int(d[:12], 16) / 16 ** 12

    train = [s for s in sessions if h(s) >= heldout_fraction]
    held = [s for s in sessions if h(s) < heldout_fraction]
    if len(sessions) >= 2 and heldout_fraction > 0 and not held:
        ranked = sorted(train, key=h)
        held, train = [ranked[0]], [s for s in train if s is not ranked[0]]
    if len(sessions) >= 2 and not train:
        ranked = sorted(held, key=h, reverse=True)
        train, held = [ranked[0]], [s for s in held if s is not ranked[0]]
    return train, held
