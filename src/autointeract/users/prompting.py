"""The user model's prompt: behavior prompt + (profile) + (task) + transcript -> next turn.

The behavior prompt is the only part GEPA evolves. The frame around it is fixed and short:
it says who speaks as whom and asks for the bare message text, so any chat model (down to the
135M embedded one) can be used, without native tool calling or JSON mode.
"""

from __future__ import annotations

import re
from typing import Any

FRAME = ("You play the human USER in a conversation with an AI coding AGENT. Stay in "
         "character. Reply with only the USER's next message: no quotes, no 'USER:' prefix, "
         "no explanation.")
_PREFIX = re.compile(r"^\s*(\*\*)?(user|developer|human|agent|assistant)(\*\*)?\s*:"
                     r"\s*(\*\*)?\s*", re.IGNORECASE)
_CUT = re.compile(r"\n\s*(\*\*)?(agent|assistant|ai|user|developer)(\*\*)?\s*:", re.IGNORECASE)


def build_messages(behavior_prompt: str, transcript: str, *, profile_text: str = "",
                   task_text: str = "", directive: str = "") -> list[dict[str, Any]]:
    """Chat messages asking for the user's next turn.

    Args:
        behavior_prompt: How the user talks and behaves (the fitted text).
        transcript: The conversation so far (``USER:`` / ``AGENT:`` lines).
        profile_text: The rendered user profile (see :mod:`~autointeract.users.profile_text`).
        task_text: What the user privately wants (simulator only).
        directive: What this turn must do (simulator only), e.g. reveal one requirement.

    Returns:
        ``[system, user]`` messages.
    """
    system = "\n\n".join(p for p in (behavior_prompt.strip(), profile_text.strip(),
                                     task_text.strip(), FRAME) if p)
    parts = [f"Conversation so far:\n{transcript.strip() or '(nothing yet)'}"]
    if directive:
        parts.append(f"In your next message: {directive}")
    parts.append("USER's next message:")
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]


def clean_turn(text: str, *, max_chars: int = 2000) -> str:
    """Strip what models add around a user message: a speaker prefix, wrapping quotes, and
    anything after the model starts writing the next speaker's line."""
    s = text.strip()
    m = _CUT.search(s)
    if m:
        s = s[: m.start()]
    s = _PREFIX.sub("", s, count=1).strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'`":
        s = s[1:-1].strip()
    return s[:max_chars]


def generate_turn(client: Any, model: Any, messages: list[dict[str, Any]], *, stage: str,
                  seed: int | None = None, max_tokens: int | None = None,
                  temperature: float | None = None) -> str:
    """One cleaned user turn from ``client`` (an :class:`~autointeract.llm.LLMClient`)."""
    kw: dict[str, Any] = {"seed": seed}
    if max_tokens is not None:
        kw["max_tokens"] = max_tokens
    if temperature is not None:
        kw["temperature"] = temperature
    return clean_turn(client.complete(model, messages, stage=stage, **kw).content)
