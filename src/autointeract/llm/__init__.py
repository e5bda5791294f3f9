"""The LLM layer: litellm with a disk cache, retries, concurrency, accounting; fakes; local models.

Names are imported lazily so ``import autointeract.llm`` does not import litellm.
"""

from __future__ import annotations

from autointeract._lazy import lazy_exports

_EXPORTS = {
    "LLMClient": "autointeract.llm.client",
    "Completion": "autointeract.llm.client",
    "ResponseCache": "autointeract.llm.cache",
    "ScriptedModel": "autointeract.llm.fakes",
    "ReplayModel": "autointeract.llm.fakes",
    "FaultyModel": "autointeract.llm.fakes",
    "make_dspy_lm": "autointeract.llm.dspy_lm",
    "extract_json": "autointeract.llm.structured",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(_EXPORTS)
