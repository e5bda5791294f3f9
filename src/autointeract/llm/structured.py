"""Structured output: a reply parsed into a pydantic model, with one repair retry."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from autointeract.config import ModelConfig
from autointeract.errors import StructuredOutputError

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def extract_json(text: str) -> Any:
    """The first JSON value in ``text`` (code fences and surrounding prose tolerated).

    Raises:
        ValueError: no JSON object or array could be decoded.
    """
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for cand in candidates:
        for i, ch in enumerate(cand):
            if ch in "{[":
                try:
                    return decoder.raw_decode(cand[i:])[0]
                except json.JSONDecodeError:
                    continue
    raise ValueError("no JSON object found in the reply")


def _request_parts(model: ModelConfig | str, messages: list[dict[str, Any]],
                   schema: type[BaseModel]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    js = schema.model_json_schema()
    hint = ("Reply with only one JSON object (no prose, no code fence) that matches this JSON "
            f"schema:\n{json.dumps(js)}")
    msgs = [{"role": "system", "content": hint}, *messages] if messages[0]["role"] != "system" else [
        {"role": "system", "content": f"{messages[0]['content']}\n\n{hint}"}, *messages[1:]]
    name = model.model if isinstance(model, ModelConfig) else model
    fmt = {"type": "json_object", "schema": js} if name.startswith("local/") else None
    return msgs, fmt


def _validate(schema: type[T], text: str) -> T:
    data = extract_json(text)
    return schema.model_validate(data)


def _repair_messages(msgs: list[dict[str, Any]], raw: str, err: Exception) -> list[dict[str, Any]]:
    return [*msgs, {"role": "assistant", "content": raw},
            {"role": "user", "content": f"That reply was not valid ({str(err)[:300]}). "
                                        "Reply with only the corrected JSON object."}]


def structured_call(client: LLMClient, model: ModelConfig | str, messages: list[dict[str, Any]],
                    schema: type[T], *, stage: str = "default", **kw: Any) -> T:
    msgs, fmt = _request_parts(model, messages, schema)
    raw = ""
    for attempt in range(2):
        reply = client.complete(model, msgs, stage=stage, response_format=fmt, **kw)
        raw = reply.content
        try:
            return _validate(schema, raw)
        except (ValueError, ValidationError) as exc:
            if attempt == 1:
                raise StructuredOutputError(
                    f"{schema.__name__}: reply is not valid after one repair: {str(exc)[:200]}",
                    raw=raw) from None
            msgs = _repair_messages(msgs, raw, exc)
    raise AssertionError("unreachable")


async def astructured_call(client: LLMClient, model: ModelConfig | str,
                           messages: list[dict[str, Any]], schema: type[T], *,
                           stage: str = "default", **kw: Any) -> T:
    msgs, fmt = _request_parts(model, messages, schema)
    for attempt in range(2):
        reply = await client.acomplete(model, msgs, stage=stage, response_format=fmt, **kw)
        try:
            return _validate(schema, reply.content)
        except (ValueError, ValidationError) as exc:
            if attempt == 1:
                raise StructuredOutputError(
                    f"{schema.__name__}: reply is not valid after one repair: {str(exc)[:200]}",
                    raw=reply.content) from None
            msgs = _repair_messages(msgs, reply.content, exc)
    raise AssertionError("unreachable")
