"""Deterministic stand-ins for the simulator and reflection models (tests and offline demos).

Use them with :class:`~autointeract.llm.ScriptedModel`, so they run through the same litellm
path as real models::

    sim = ScriptedModel([directive_following_user], cycle=True)
    refl = ScriptedModel([feedback_reflector], cycle=True)

- :func:`directive_following_user` writes a polite, verbose user message and obeys a few
  style words in the system prompt ("terse", "lowercase", "push back", "no punctuation").
- :func:`feedback_reflector` reads gepa's reflection prompt and adds one rule per kind of
  feedback it sees, so a fit with both fakes improves its prompt in a known way.
"""

from __future__ import annotations

import re
from typing import Any

POLITE_REPLY = ("Thank you so much for your help! Could you please double-check that "
                "everything works correctly and make sure the tests are passing?")
PUSHBACK_REPLY = "No, that is still broken. The tests are still failing, fix it."

# feedback phrase (from autointeract.users.scoring) -> rule the reflector adds
RULES = {
    "too cooperative": "Push back when the work is wrong.",
    "be much shorter": "Be terse: a few words.",
    "the real turn starts lowercase": "Write in lowercase.",
    "the real turn ends without punctuation": "Use no punctuation at the end.",
}


def _system(messages: list[dict[str, Any]]) -> str:
    return next((str(m.get("content") or "") for m in messages if m.get("role") == "system"), "")


def directive_following_user(messages: list[dict[str, Any]]) -> str:
    """A fake user model whose output depends only on style words in its system prompt."""
    sp = _system(messages).lower()
    text = PUSHBACK_REPLY if "push back" in sp else POLITE_REPLY
    if "terse" in sp:
        text = " ".join(text.split()[:6]).rstrip(",")
    if "lowercase" in sp:
        text = text.lower()
    if "no punctuation" in sp:
        text = text.rstrip(".!?,")
    return text


def feedback_reflector(messages: list[dict[str, Any]]) -> str:
    """A fake reflection model: the current prompt plus a rule for each feedback it reads."""
    prompt = "\n".join(str(m.get("content") or "") for m in messages)
    blocks = re.findall(r"```\n?(.*?)```", prompt, re.S)
    current = blocks[0].strip() if blocks else ""
    feedback = prompt.lower()
    added = [rule for phrase, rule in RULES.items()
             if phrase in feedback and rule.lower() not in current.lower()]
    return "```\n" + "\n".join([current, *added[:1]]).strip() + "\n```"
