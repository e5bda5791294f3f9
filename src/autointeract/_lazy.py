"""Lazy package exports: names resolve to their module on first use, so importing a stage
package stays cheap (no litellm, dspy or torch at import time)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(exports: dict[str, str]) -> Callable[[str], Any]:
    """A module-level ``__getattr__`` that imports ``exports[name]`` and returns its ``name``."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            return getattr(importlib.import_module(exports[name]), name)
        raise AttributeError(name)

    return __getattr__
