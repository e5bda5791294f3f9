"""LiveCodeBench ``code_generation_lite`` rows -> :class:`LCBProblem` -> ``VerifierSpec``.

A row has ``question_id``, ``question_title``, ``question_content``, ``platform``,
``contest_date``, ``difficulty``, ``starter_code``, ``public_test_cases`` and
``private_test_cases`` (a JSON string of ``[{input, output, testtype}]``; the private ones
may instead be ``base64(zlib(pickle(json_string)))``) and ``metadata`` (a JSON string,
``func_name`` for functional problems). Errors name the file, the row and the field.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import pickle
import zlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from autointeract.errors import DataError
from autointeract.types import TestCase, VerifierSpec

REQUIRED = ("question_id", "public_test_cases")


class _PlainUnpickler(pickle.Unpickler):
    """Unpickles plain data only: any class or global (a code-execution vector) is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load global {module}.{name}")


class LCBProblem(BaseModel):
    """One competitive-programming problem in LiveCodeBench's shape."""

    question_id: str
    question_title: str = ""
    question_content: str = ""
    platform: str = ""
    contest_date: str = ""
    difficulty: str = ""
    starter_code: str = ""
    public_tests: list[TestCase] = Field(default_factory=list)
    private_tests: list[TestCase] = Field(default_factory=list)
    func_name: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @property
    def kind(self) -> str:
        """``"functional"`` when a ``func_name`` is given or tests say so, else ``"stdin"``."""
        tests = self.public_tests + self.private_tests
        if self.func_name or any(t.testtype == "functional" for t in tests):
            return "functional"
        return "stdin"

    def to_verifier_spec(self, *, include_private: bool = True, time_limit_s: float = 4.0,
                         memory_mb: int = 512) -> VerifierSpec:
        """The spec the judge runs: public tests first, then the private ones."""
        tests = self.public_tests + (self.private_tests if include_private else [])
        kind = self.kind
        tests = [t.model_copy(update={"testtype": kind}) for t in tests]
        return VerifierSpec(kind=kind, tests=tests, func_name=self.func_name,  # type: ignore[arg-type]
                            time_limit_s=time_limit_s, memory_mb=memory_mb,
                            meta={"question_id": self.question_id, "platform": self.platform,
                                  "n_public": len(self.public_tests)})


def decode_tests(raw: Any) -> list[dict[str, Any]]:
    """Decode a test-case field: a list, a JSON string, or base64(zlib(pickle(json))).

    Raises:
        ValueError: none of the encodings fits (the message says what failed).
    """
    if isinstance(raw, list):
        return raw
    if not isinstance(raw, str | bytes):
        raise ValueError(f"expected a list or a string, got {type(raw).__name__}")
    text = raw.decode() if isinstance(raw, bytes) else raw
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        try:
            blob = zlib.decompress(base64.b64decode(text, validate=False))
            inner = _PlainUnpickler(io.BytesIO(blob)).load()
            value = json.loads(inner) if isinstance(inner, str | bytes) else inner
        except (binascii.Error, zlib.error, pickle.UnpicklingError, EOFError,
                json.JSONDecodeError, ValueError) as exc:
            raise ValueError(f"neither JSON nor base64(zlib(pickle(json))): {exc}") from None
    if not isinstance(value, list):
        raise ValueError(f"decoded to {type(value).__name__}, expected a list of tests")
    return value


def encode_private_tests(tests: list[dict[str, Any]]) -> str:
    """Encode tests the way LiveCodeBench stores private ones (for fixtures and writers)."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode()


def _tests(row: dict[str, Any], name: str, file: str, where: str) -> list[TestCase]:
    raw = row.get(name)
    if raw in (None, ""):
        return []
    try:
        return [TestCase.model_validate(t) for t in decode_tests(raw)]
    except (ValueError, ValidationError) as exc:
        msg = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        raise DataError(msg, file=file, field=f"{where}.{name}") from None


def parse_lcb_row(row: Any, *, file: str = "<row>", row_index: int = 0) -> LCBProblem:
    """Parse one LiveCodeBench row.

    Raises:
        DataError: a missing or malformed field (names ``file`` and ``row <n>.<field>``).
    """
    where = f"row {row_index}"
    if not isinstance(row, dict):
        raise DataError("row is not a JSON object", file=file, field=where)
    for name in REQUIRED:
        if name not in row:
            raise DataError("missing field", file=file, field=f"{where}.{name}")
    meta_raw = row.get("metadata") or {}
    try:
        meta = json.loads(meta_raw) if isinstance(meta_raw, str) else dict(meta_raw)
    except (json.JSONDecodeError, TypeError, ValueError) as exc:
        raise DataError(f"not a JSON object: {exc}", file=file, field=f"{where}.metadata") from None
    if not isinstance(meta, dict):
        raise DataError("not a JSON object", file=file, field=f"{where}.metadata")
    try:
        return LCBProblem(
            question_id=str(row["question_id"]),
            **{k: str(row.get(k) or "") for k in ("question_title", "question_content",
                                                  "platform", "contest_date", "difficulty",
                                                  "starter_code")},
            public_tests=_tests(row, "public_test_cases", file, where),
            private_tests=_tests(row, "private_test_cases", file, where),
            func_name=meta.get("func_name") or None, metadata=meta)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise DataError(err["msg"], file=file,
                        field=f"{where}.{'.'.join(map(str, err['loc']))}") from None


def load_lcb_jsonl(path: str | Path) -> list[LCBProblem]:
    """Load every row of a LiveCodeBench-format JSONL file.

    Raises:
        DataError: the file is missing, a line is not JSON, or a row is malformed.
    """
    p = Path(path)
    if not p.is_file():
        raise DataError("file not found", file=str(p))
    out = []
    with p.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", file=str(p), field=f"row {i}") from None
            out.append(parse_lcb_row(row, file=str(p), row_index=i))
    return out


def find_problem(problems: list[LCBProblem], problem_id: str, *,
                 file: str = "<problems>") -> LCBProblem:
    """The problem with ``question_id == problem_id``.

    Raises:
        DataError: no such problem (the message lists a few known ids).
    """
    for prob in problems:
        if prob.question_id == problem_id:
            return prob
    known = ", ".join(p.question_id for p in problems[:8])
    raise DataError(f"no problem with question_id '{problem_id}' (have: {known})", file=file)
