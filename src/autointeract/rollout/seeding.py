"""Seeds for every random draw of an episode, derived from the episode seed. Pure."""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 31-bit seed for one draw (e.g. ``derive_seed(3, "agent", turn)``).

    The same episode seed and parts give the same value in every process and Python version
    (no ``hash()`` randomization), so LLM calls are reproducible and hit the cache.
    """
    blob = ":".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:4], "big") & 0x7FFFFFFF
