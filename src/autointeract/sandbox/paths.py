"""Path checks shared by the sandbox backends."""

from __future__ import annotations

import os
import posixpath
from pathlib import Path


def inside(root: Path, rel: str) -> Path:
    """Resolve ``rel`` under ``root``; refuse absolute paths, ``..`` and symlink escapes.

    Args:
        root: the (already resolved) work dir.
        rel: a path relative to it.

    Raises:
        ValueError: the path would leave ``root``.
    """
    if not rel or os.path.isabs(rel):
        raise ValueError(f"path must be relative to the work dir: {rel!r}")
    norm = posixpath.normpath(rel)
    if norm == ".." or norm.startswith("../"):
        raise ValueError(f"path escapes the work dir: {rel!r}")
    target = root / norm
    real_parent = Path(os.path.realpath(target.parent))
    if real_parent != root and root not in real_parent.parents:
        raise ValueError(f"path escapes the work dir through a link: {rel!r}")
    return real_parent / target.name if norm != "." else root


def inside_posix(root: str, rel: str) -> str:
    """Lexical version of :func:`inside` for paths in another machine (a container)."""
    if not rel or posixpath.isabs(rel):
        raise ValueError(f"path must be relative to the work dir: {rel!r}")
    norm = posixpath.normpath(rel)
    if norm == ".." or norm.startswith("../"):
        raise ValueError(f"path escapes the work dir: {rel!r}")
    return posixpath.join(root, norm)
