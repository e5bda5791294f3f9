"""slugkit: turn titles into URL slugs."""

from __future__ import annotations

import re

__version__ = "0.3.0"

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text: str, sep: str = "-") -> str:
    """Lowercase ``text`` and join its alphanumeric runs with ``sep``.

    >>> slugify("Hello, World!")
    'hello-world'
    """
    return _NON_ALNUM.sub(sep, text.lower()).strip(sep)
