"""A minimal reader of a GGUF file's header and metadata (no tensors), for verification."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, BinaryIO

from autointeract.errors import ModelFileError

_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
            10: "<Q", 11: "<q", 12: "<d"}
STRING, ARRAY = 8, 9


def _read(f: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize(fmt)
    buf = f.read(size)
    if len(buf) != size:
        raise ModelFileError(f"{getattr(f, 'name', 'gguf')}: truncated GGUF header")
    return struct.unpack(fmt, buf)[0]


def _string(f: BinaryIO) -> str:
    n = _read(f, "<Q")
    if n > 1 << 26:
        raise ModelFileError(f"{getattr(f, 'name', 'gguf')}: implausible string length {n}")
    return f.read(n).decode("utf-8", errors="replace")


def _value(f: BinaryIO, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return _read(f, _SCALARS[vtype])
    if vtype == STRING:
        return _string(f)
    if vtype == ARRAY:
        etype, n = _read(f, "<I"), _read(f, "<Q")
        if etype in _SCALARS and not keep:  # skip big numeric arrays without decoding
            f.seek(struct.calcsize(_SCALARS[etype]) * n, 1)
            return n
        items = [_value(f, etype, keep) for _ in range(n)]
        return items if keep else n
    raise ModelFileError(f"{getattr(f, 'name', 'gguf')}: unknown GGUF value type {vtype}")


def read_metadata(path: str | Path, *, keys: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Key/value metadata of a GGUF file (arrays are returned as their length).

    Raises:
        ModelFileError: not a GGUF file, or the header is truncated/corrupt.
    """
    p = Path(path)
    with p.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelFileError(f"{p}: not a GGUF file (bad magic)")
        version = _read(f, "<I")
        if version < 2:
            raise ModelFileError(f"{p}: unsupported GGUF version {version}")
        _read(f, "<Q")  # tensor count
        n_kv = _read(f, "<Q")
        meta: dict[str, Any] = {"gguf.version": version}
        for _ in range(n_kv):
            key = _string(f)
            vtype = _read(f, "<I")
            meta[key] = _value(f, vtype, keep=False)
            if keys and all(k in meta for k in keys):
                break
    return meta
