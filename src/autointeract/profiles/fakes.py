"""A deterministic fake user model that follows the style instructions of :class:`StyledUser`.

:func:`style_following_model` returns a :class:`~autointeract.llm.ScriptedModel` whose reply
is a function of the request: it reads the style phrases and the word limit out of the system
prompt and the probe agent's last message, and writes a turn a user with that style might
write. Different profiles therefore *measurably* behave differently, with no real model, so
the whole evolution can run in tests and in ``profiles evolve --user-model fake``.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

_LIMIT = re.compile(r"under (\d+) words")
_FILLER = ("the", "function", "should", "handle", "this", "case", "and", "keep", "the", "output",
           "format", "stable", "for", "our", "existing", "callers", "in", "production")


def _has(system: str, phrase: str) -> bool:
    return phrase in system


def _reply(messages: list[dict[str, Any]]) -> str:
    system = str(messages[0].get("content", ""))
    last = str(messages[-1].get("content", ""))
    blob = "\x1f".join(str(m.get("content", "")) for m in messages).encode()
    rng = random.Random(int.from_bytes(hashlib.sha256(blob).digest()[:8], "big"))
    m = _LIMIT.search(system)
    limit = int(m.group(1)) if m else 30
    first = "first message" in last
    if first:
        core = "Please write the function we need for this task."
    elif "does not fully work" in last:
        if _has(system, "challenge claims") and rng.random() < 0.9:
            core = "No, that's wrong. It still fails on my cases, fix it."
        elif _has(system, "question results now and then") and rng.random() < 0.5:
            core = "It still doesn't work for the second format."
        else:
            core = "Thanks, looks good."
    elif "?" in last:
        if _has(system, "new to this codebase") or rng.random() < 0.2:
            core = "What do you mean by edge cases? How should I know?"
        elif _has(system, "state every requirement up front"):
            core = "Also, it must not use third-party libraries."
        else:
            core = "Nothing special, just make it work."
    else:
        core = "Thanks, looks good."
    words = core.split()
    target = max(1, min(limit, int(limit * (0.5 + rng.random() / 2))))
    while len(words) < target:
        words.append(rng.choice(_FILLER))
    return " ".join(words[:max(target, min(len(core.split()), limit))])


def style_following_model(*, name: str | None = None, latency_s: float = 0.0) -> Any:
    """A ``ScriptedModel`` (cycling) that answers every request with :func:`_reply`.

    Args:
        name: The model name (``scripted/<name>``); unique by default.
        latency_s: Sleep per request, to mimic a remote model.
    """
    from autointeract.llm import ScriptedModel

    return ScriptedModel([_reply], name=name, cycle=True, latency_s=latency_s)
