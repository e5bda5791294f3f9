"""The LLM client every stage uses: litellm plus cache, retries, concurrency and accounting.

    client = LLMClient(LLMConfig(cache_dir=".cache/llm"))
    reply = client.complete("local/smollm2-135m", [{"role": "user", "content": "hi"}],
                            stage="demo", seed=0)
    reply.content, reply.cached, client.usage.summary()
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from autointeract.config import LLMConfig, ModelConfig
from autointeract.errors import LLMError
from autointeract.llm.cache import ResponseCache, request_key
from autointeract.llm.providers import PROVIDERS as IN_PROCESS
from autointeract.llm.usage import UsageTracker
from autointeract.types import ToolCall

T = TypeVar("T", bound=BaseModel)
RETRY_STATUS = {408, 409, 425, 429}


@dataclass
class Completion:
    """One reply, with its accounting."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    model: str = ""
    latency_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"content": self.content, "tool_calls": [t.model_dump() for t in self.tool_calls],
                "finish_reason": self.finish_reason, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "cost_usd": self.cost_usd,
                "model": self.model, "latency_s": self.latency_s}


def _litellm() -> Any:
    from autointeract.llm.providers import ensure_registered, import_litellm

    ensure_registered()
    return import_litellm()


def is_retryable(exc: BaseException) -> bool:
    """Timeouts, rate limits, connection errors and 5xx are retried; the rest are not."""
    litellm = _litellm()
    kinds = (litellm.Timeout, litellm.RateLimitError, litellm.InternalServerError,
             litellm.ServiceUnavailableError, litellm.APIConnectionError, TimeoutError)
    if isinstance(exc, kinds):
        return True
    code = getattr(exc, "status_code", None)
    return isinstance(code, int) and (code in RETRY_STATUS or code >= 500)


def _parse(resp: Any, model: str) -> Completion:
    choice = resp.choices[0]
    msg = choice.message
    calls = []
    for i, tc in enumerate(msg.tool_calls or []):
        try:
            args = json.loads(tc.function.arguments or "{}")
        except (json.JSONDecodeError, TypeError):
            args = {"_raw": tc.function.arguments}
        calls.append(ToolCall(id=tc.id or f"call_{i}", name=tc.function.name,
                              arguments=args if isinstance(args, dict) else {"_value": args}))
    usage = getattr(resp, "usage", None)
    return Completion(content=msg.content or "", tool_calls=calls,
                      finish_reason=choice.finish_reason or "stop",
                      prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                      completion_tokens=getattr(usage, "completion_tokens", 0) or 0, model=model)


class LLMClient:
    """Completions through litellm with a disk cache, retries, a concurrency cap and accounting.

    Args:
        config: the LLM layer's settings.
        cache: a :class:`ResponseCache`; by default one in ``config.cache_dir`` (none if unset).
    """

    def __init__(self, config: LLMConfig | None = None, *, cache: ResponseCache | None | str = "default"):
        self.config = config or LLMConfig()
        if cache == "default":
            cache = (ResponseCache(Path(self.config.cache_dir) / "responses.sqlite")
                     if self.config.cache_dir else None)
        self.cache: ResponseCache | None = cache  # type: ignore[assignment]
        self.usage = UsageTracker()
        self._sync_slots = threading.BoundedSemaphore(self.config.max_concurrency)
        self._async_slots: dict[int, asyncio.Semaphore] = {}
        self._jitter = random.Random()
        self._faulty: dict[tuple, Any] = {}
        self._inner: dict[str, str] = {}  # fault/<name> -> wrapped model
        self._fault_lock = threading.Lock()

    # -- requests -----------------------------------------------------------------------
    def _route(self, m: ModelConfig) -> str:
        """The litellm model string; a model with ``faults`` goes through a FaultyModel."""
        if m.faults is None or m.faults.rate == 0:
            return m.model
        key = (m.model, m.faults.rate, tuple(m.faults.kinds), m.faults.seed)
        with self._fault_lock:
            if key not in self._faulty:
                from autointeract.llm.fakes import FaultyModel

                fm = FaultyModel(m.model, rate=m.faults.rate, kinds=m.faults.kinds,
                                 seed=m.faults.seed)
                self._faulty[key] = fm
                self._inner[fm.model] = m.model
            return self._faulty[key].model

    def build_request(self, model: ModelConfig | str, messages: list[dict[str, Any]], *,
                      tools: list[dict[str, Any]] | None = None,
                      response_format: dict[str, Any] | None = None, seed: int | None = None,
                      **overrides: Any) -> dict[str, Any]:
        m = ModelConfig(model=model) if isinstance(model, str) else model
        req: dict[str, Any] = {"model": self._route(m), "messages": messages,
                               "temperature": overrides.pop("temperature", m.temperature),
                               "max_tokens": overrides.pop("max_tokens", m.max_tokens)}
        if tools:
            req["tools"] = tools
        if response_format:
            req["response_format"] = response_format
        if seed is not None:
            req["seed"] = seed
        if m.api_base:
            req["api_base"] = m.api_base
        extra = {**m.extra, **overrides}
        if extra:
            req["extra"] = extra
        return req

    def _call_kwargs(self, req: dict[str, Any], model: ModelConfig | str) -> dict[str, Any]:
        kw = {k: v for k, v in req.items() if k != "extra"}
        kw.update(req.get("extra", {}))
        key_env = model.api_key_env if isinstance(model, ModelConfig) else None
        if key_env:
            kw["api_key"] = os.environ.get(key_env)
        if self._inner.get(req["model"], req["model"]).startswith("local/"):
            kw["n_ctx"] = self.config.local_n_ctx
            if self.config.local_n_threads:
                kw["n_threads"] = self.config.local_n_threads
            if self.config.local_model_dir:
                kw["model_dir"] = self.config.local_model_dir
        kw["timeout"] = self.config.timeout_s
        kw["num_retries"] = 0
        return kw

    def _cached(self, req: dict[str, Any], use_cache: bool) -> tuple[str, Completion | None]:
        key = request_key(req)
        if use_cache and self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                hit["tool_calls"] = [ToolCall(**t) for t in hit.get("tool_calls", [])]
                return key, Completion(**hit, cached=True)
        return key, None

    def _finish(self, key: str, req: dict[str, Any], resp: Any, stage: str, t0: float,
                retries: int, use_cache: bool) -> Completion:
        out = _parse(resp, req["model"])
        out.latency_s = time.perf_counter() - t0
        if req["model"].split("/", 1)[0] not in IN_PROCESS:  # in-process models cost nothing
            try:
                out.cost_usd = float(_litellm().completion_cost(completion_response=resp) or 0.0)
            except Exception:  # unknown model prices: no cost figure, never an error
                out.cost_usd = 0.0
        self.usage.record(stage, calls=1, retries=retries, prompt_tokens=out.prompt_tokens,
                          completion_tokens=out.completion_tokens, cost_usd=out.cost_usd,
                          latency_s=out.latency_s)
        if use_cache and self.cache is not None:
            self.cache.put(key, req, out.to_json())
        return out

    def _backoff(self, attempt: int) -> float:
        base = min(self.config.backoff_max_s, self.config.backoff_base_s * 2 ** attempt)
        return base * (0.5 + self._jitter.random() / 2)

    # -- public -------------------------------------------------------------------------
    def complete(self, model: ModelConfig | str, messages: list[dict[str, Any]], *,
                 stage: str = "default", cache: bool = True, **kw: Any) -> Completion:
        """One completion (blocking). ``cache=False`` bypasses the cache for this call.

        Raises:
            LLMError: the call still failed after ``config.max_retries`` retries.
        """
        req = self.build_request(model, messages, **kw)
        key, hit = self._cached(req, cache)
        if hit is not None:
            self.usage.record(stage, calls=1, cached_calls=1)
            return hit
        litellm, t0 = _litellm(), time.perf_counter()
        for attempt in range(self.config.max_retries + 1):
            try:
                with self._sync_slots:
                    resp = litellm.completion(**self._call_kwargs(req, model))
                return self._finish(key, req, resp, stage, t0, attempt, cache)
            except Exception as exc:
                if not is_retryable(exc) or attempt == self.config.max_retries:
                    self.usage.record(stage, failed_calls=1, retries=attempt)
                    raise LLMError(f"{req['model']}: {type(exc).__name__}: {exc}") from exc
                time.sleep(self._backoff(attempt))
        raise AssertionError("unreachable")

    async def acomplete(self, model: ModelConfig | str, messages: list[dict[str, Any]], *,
                        stage: str = "default", cache: bool = True, **kw: Any) -> Completion:
        """The async twin of :meth:`complete`, capped by ``config.max_concurrency``."""
        req = self.build_request(model, messages, **kw)
        key, hit = self._cached(req, cache)
        if hit is not None:
            self.usage.record(stage, calls=1, cached_calls=1)
            return hit
        loop_id = id(asyncio.get_running_loop())
        slots = self._async_slots.setdefault(loop_id, asyncio.Semaphore(self.config.max_concurrency))
        litellm, t0 = _litellm(), time.perf_counter()
        for attempt in range(self.config.max_retries + 1):
            try:
                async with slots:
                    resp = await litellm.acompletion(**self._call_kwargs(req, model))
                return self._finish(key, req, resp, stage, t0, attempt, cache)
            except Exception as exc:
                if not is_retryable(exc) or attempt == self.config.max_retries:
                    self.usage.record(stage, failed_calls=1, retries=attempt)
                    raise LLMError(f"{req['model']}: {type(exc).__name__}: {exc}") from exc
                await asyncio.sleep(self._backoff(attempt))
        raise AssertionError("unreachable")

    def structured(self, model: ModelConfig | str, messages: list[dict[str, Any]],
                   schema: type[T], *, stage: str = "default", **kw: Any) -> T:
        """A reply parsed into ``schema`` (one repair retry, then ``StructuredOutputError``)."""
        from autointeract.llm.structured import structured_call

        return structured_call(self, model, messages, schema, stage=stage, **kw)
