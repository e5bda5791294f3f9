"""Test-case archives: a zip, a tar (``.tar``, ``.tar.gz``, ``.tgz``) or a folder of
input/output files -> ordered ``(input, output)`` pairs. Read in memory, never extracted.

Files pair up by name once the role is removed, whatever the convention:

* ``1.in`` / ``1.out`` (or ``.ans``, ``.a``, ``.output``; ``.input`` for inputs);
* ``input/1.txt`` / ``output/1.txt`` (role as a folder);
* ``input1.txt`` / ``output1.txt``, ``1_input.txt`` / ``1_output.txt`` (role in the name).

Pairs are ordered naturally (``2`` before ``10``). An input without an output (or the
reverse) is an error, as is an archive with no pair at all.
"""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

from autointeract.errors import DataError

_IN_EXT = {".in", ".input"}
_OUT_EXT = {".out", ".ans", ".a", ".output", ".answer"}
_IN_TOK = re.compile(r"(^|[^a-z])(input|in)(?=$|[^a-z])")
_OUT_TOK = re.compile(r"(^|[^a-z])(output|out|answer|ans|expected)(?=$|[^a-z])")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz")


def _natural(key: str) -> list[object]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", key)]


def classify(name: str) -> tuple[str, str] | None:
    """``(role, key)`` of an archive member, role ``in``/``out``; None when neither."""
    p = PurePosixPath(name.lower())
    if any(part.startswith(".") or part == "__macosx" for part in p.parts):
        return None
    if p.suffix in _IN_EXT:
        return "in", str(p.with_suffix(""))
    if p.suffix in _OUT_EXT:
        return "out", str(p.with_suffix(""))
    if p.suffix not in ("", ".txt", ".dat"):
        return None
    text = str(p.with_suffix("")) if p.suffix else str(p)
    for role, tok in (("out", _OUT_TOK), ("in", _IN_TOK)):
        if tok.search(text):
            return role, tok.sub(lambda m: m.group(1) + "#", text)
    return None


def _members(path: Path, max_bytes: int) -> dict[str, bytes]:
    name = path.name.lower()
    out: dict[str, bytes] = {}
    total = 0
    if path.is_dir():
        items = [(str(f.relative_to(path)), f) for f in sorted(path.rglob("*")) if f.is_file()]
        for rel, f in items:
            total += f.stat().st_size
            if total > max_bytes:
                raise DataError(f"test files exceed {max_bytes >> 20} MiB", file=str(path))
            out[rel.replace("\\", "/")] = f.read_bytes()
        return out
    if name.endswith(".zip"):
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                if info.is_dir():
                    continue
                total += info.file_size
                if total > max_bytes:
                    raise DataError(f"archive exceeds {max_bytes >> 20} MiB unpacked",
                                    file=str(path))
                out[info.filename] = zf.read(info)
        return out
    with tarfile.open(path) as tf:
        for m in tf.getmembers():
            if not m.isfile():
                continue
            total += m.size
            if total > max_bytes:
                raise DataError(f"archive exceeds {max_bytes >> 20} MiB unpacked", file=str(path))
            fh = tf.extractfile(m)
            if fh is not None:
                out[m.name] = fh.read()
    return out


def read_test_pairs(path: str | Path, *, max_bytes: int = 256 << 20) -> list[tuple[str, str]]:
    """Ordered ``(input, output)`` text pairs of an archive or folder.

    Raises:
        DataError: unreadable archive, unmatched file, no pairs, or too large.
    """
    p = Path(path)
    try:
        members = _members(p, max_bytes)
    except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as exc:
        raise DataError(f"unreadable test archive: {exc}", file=str(p)) from None
    ins: dict[str, bytes] = {}
    outs: dict[str, bytes] = {}
    for name, data in members.items():
        c = classify(name)
        if c is not None:
            (ins if c[0] == "in" else outs)[c[1]] = data
    lonely = sorted(set(ins) ^ set(outs), key=_natural)
    if lonely:
        raise DataError(f"test '{lonely[0]}' has no matching {'output' if lonely[0] in ins else 'input'}",
                        file=str(p))
    if not ins:
        raise DataError("no input/output test files found (see autointeract.scenarios.archives)",
                        file=str(p))
    keys = sorted(ins, key=_natural)
    return [(ins[k].decode("utf-8", "replace"), outs[k].decode("utf-8", "replace")) for k in keys]


def find_archive(folder: str | Path, problem_id: str) -> Path | None:
    """The archive (or folder) of ``problem_id`` in ``folder``, trying every known suffix."""
    base = Path(folder)
    for suffix in ARCHIVE_SUFFIXES:
        cand = base / f"{problem_id}{suffix}"
        if cand.is_file():
            return cand
    cand = base / problem_id
    return cand if cand.is_dir() else None
