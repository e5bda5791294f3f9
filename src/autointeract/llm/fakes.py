"""Deterministic fake models, served through litellm like any real provider.

- :class:`ScriptedModel` returns given outputs in order and records every request.
- :class:`ReplayModel` records replies of a real model once, then replays them keyed by the
  canonical request and fails on a request it has not seen.
- :class:`FaultyModel` wraps any model string and injects provider faults (timeouts, 429,
  500, malformed JSON, empty replies) at a seeded rate, for fault campaigns.

Each registers itself on construction and exposes ``.model``, the litellm model string.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from autointeract.errors import LLMError
from autointeract.llm.cache import request_key
from autointeract.llm.providers import Reply, import_litellm, register, rough_tokens

Output = str | dict[str, Any] | Callable[[list[dict[str, Any]]], "str | dict[str, Any]"]


def _as_reply(out: str | dict[str, Any], messages: list[dict[str, Any]]) -> Reply:
    prompt_tokens = sum(rough_tokens(str(m.get("content") or "")) for m in messages)
    if isinstance(out, str):
        return Reply(content=out, prompt_tokens=prompt_tokens, completion_tokens=rough_tokens(out))
    calls = [{"id": c.get("id", f"call_{i}"), "type": "function",
              "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))}}
             for i, c in enumerate(out.get("tool_calls", []))]
    content = out.get("content", "")
    return Reply(content=content, tool_calls=calls,
                 finish_reason="tool_calls" if calls else "stop",
                 prompt_tokens=prompt_tokens, completion_tokens=rough_tokens(content) + 5 * len(calls))


class ScriptedModel:
    """Returns ``outputs`` in order (a callable output is called with the messages).

    Args:
        outputs: strings, ``{"content", "tool_calls": [{"name", "arguments"}]}`` dicts, or
            callables of the messages returning either.
        name: the model's name (``scripted/<name>``); unique by default.
        cycle: start again from the first output when exhausted (else raise ``LLMError``).
        latency_s: sleep this long per request (to simulate a remote model).
    """

    def __init__(self, outputs: Sequence[Output], *, name: str | None = None,
                 cycle: bool = False, latency_s: float = 0.0):
        self.outputs = list(outputs)
        self.cycle = cycle
        self.latency_s = latency_s
        self.requests: list[dict[str, Any]] = []
        self._i = 0
        self._lock = threading.Lock()
        self.model = register("scripted", name, self)

    def _next(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append({"messages": messages, **params})
            if self._i >= len(self.outputs):
                if not self.cycle or not self.outputs:
                    raise LLMError(f"scripted/{model}: no output left (had {len(self.outputs)})")
                self._i = 0
            out = self.outputs[self._i]
            self._i += 1
        return _as_reply(out(messages) if callable(out) else out, messages)

    def reply(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        out = self._next(model, messages, params)
        if self.latency_s:
            time.sleep(self.latency_s)
        return out

    async def areply(self, model: str, messages: list[dict[str, Any]],
                     params: dict[str, Any]) -> Reply:
        """Async path: the simulated latency does not hold a worker thread."""
        out = self._next(model, messages, params)
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        return out


class ReplayModel:
    """Record a real model's replies once; replay them by canonical request afterwards.

    Args:
        path: JSON file of recorded replies.
        inner: the model to record from (a litellm model string); ``None`` = replay only.
        name: the model's name (``replay/<name>``).
    """

    def __init__(self, path: str | Path, *, inner: str | None = None, name: str | None = None):
        self.path = Path(path)
        self.inner = inner
        self._lock = threading.Lock()
        self.records: dict[str, dict[str, Any]] = (
            json.loads(self.path.read_text()) if self.path.exists() else {})
        self.model = register("replay", name, self)

    @staticmethod
    def key(messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
        return request_key({"messages": messages, **{k: v for k, v in params.items()
                                                     if k not in ("max_retries", "timeout")}})

    def reply(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        key = self.key(messages, params)
        with self._lock:
            rec = self.records.get(key)
        if rec is None:
            if self.inner is None:
                raise LLMError(f"replay/{model}: unseen request {key[:12]} (record it first)")
            litellm = import_litellm()

            resp = litellm.completion(model=self.inner, messages=messages, **params)
            msg = resp.choices[0].message
            rec = {"content": msg.content or "",
                   "tool_calls": [tc.model_dump() for tc in (msg.tool_calls or [])],
                   "finish_reason": resp.choices[0].finish_reason,
                   "prompt_tokens": resp.usage.prompt_tokens,
                   "completion_tokens": resp.usage.completion_tokens}
            with self._lock:
                self.records[key] = rec
                self.save()
        return Reply(**rec)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.records, indent=1, sort_keys=True))
        tmp.replace(self.path)


FAULT_KINDS = ("timeout", "rate_limit", "server_error", "malformed_json", "empty")


class FaultyModel:
    """Forward to ``inner`` but fail a seeded share of requests.

    Args:
        inner: litellm model string to forward to (e.g. ``scripted/x`` or ``local/...``).
        rate: probability of a fault per request.
        kinds: which faults to draw from (:data:`FAULT_KINDS`).
        seed: seed of the fault draws.
        name: the model's name (``fault/<name>``).
    """

    def __init__(self, inner: str, *, rate: float = 0.15, kinds: Sequence[str] = FAULT_KINDS,
                 seed: int = 0, name: str | None = None):
        bad = set(kinds) - set(FAULT_KINDS)
        if bad:
            raise ValueError(f"unknown fault kinds {sorted(bad)}")
        self.inner, self.rate, self.kinds, self.seed = inner, rate, list(kinds), seed
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self.injected: dict[str, int] = {k: 0 for k in self.kinds}
        self.model = register("fault", name, self)

    def draw(self, messages: list[dict[str, Any]], params: dict[str, Any]) -> str | None:
        """The fault (or None) for this request: a pure function of the seed, the request and
        how many times this request was already seen, so that concurrency and resumes replay
        the same faults."""
        key = ReplayModel.key(messages, params)
        with self._lock:
            n = self._seen.get(key, 0)
            self._seen[key] = n + 1
        rng = random.Random(f"{self.seed}:{key}:{n}")
        kind = rng.choice(self.kinds) if rng.random() < self.rate else None
        if kind:
            with self._lock:
                self.injected[kind] += 1
        return kind

    def reply(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        litellm = import_litellm()

        kind = self.draw(messages, params)
        if kind == "timeout":
            raise litellm.Timeout("injected timeout", model=model, llm_provider="fault")
        if kind == "rate_limit":
            raise litellm.RateLimitError("injected 429", model=model, llm_provider="fault")
        if kind == "server_error":
            raise litellm.InternalServerError("injected 500", model=model, llm_provider="fault")
        if kind == "malformed_json":
            return Reply(content='{"truncated": [1, 2', prompt_tokens=1, completion_tokens=4)
        if kind == "empty":
            return Reply(content="", prompt_tokens=1, completion_tokens=0)
        resp = litellm.completion(model=self.inner, messages=messages, **params)
        msg = resp.choices[0].message
        return Reply(content=msg.content or "",
                     tool_calls=[tc.model_dump() for tc in (msg.tool_calls or [])],
                     finish_reason=resp.choices[0].finish_reason or "stop",
                     prompt_tokens=resp.usage.prompt_tokens,
                     completion_tokens=resp.usage.completion_tokens)
