"""In-process model providers plugged into litellm as custom providers.

litellm routes ``provider/name`` model strings to handlers listed in its
``custom_provider_map``; that map is litellm's own process-wide table, so this module keeps
the one table of named in-process models (``scripted/…``, ``replay/…``, ``fault/…``,
``local/…``) that the bridges read. Registration happens on first use, never on import.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from autointeract.errors import LLMError

PROVIDERS = ("scripted", "replay", "fault", "local")


@dataclass
class Reply:
    """What an in-process model returns for one request."""

    content: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0


class InProcessModel(Protocol):
    """An in-process model: one method, a request in, a :class:`Reply` out.

    Implementations may raise litellm exceptions (``litellm.RateLimitError`` …) to simulate
    provider faults; they reach the caller exactly as a remote provider's would.
    """

    def reply(self, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> Reply:
        ...


_models: dict[tuple[str, str], InProcessModel] = {}
_lock = threading.Lock()
_counter = itertools.count()
_registered = False


def register(provider: str, name: str | None, model: InProcessModel) -> str:
    """Make ``model`` reachable as ``provider/name`` through litellm; returns that string."""
    if provider not in PROVIDERS:
        raise ValueError(f"unknown in-process provider {provider!r}")
    name = name or f"m{next(_counter)}"
    with _lock:
        _models[(provider, name)] = model
    ensure_registered()
    return f"{provider}/{name}"


def lookup(provider: str, name: str) -> InProcessModel:
    with _lock:
        model = _models.get((provider, name))
    if model is None and provider == "local":
        from autointeract.llm.local import local_model_handler

        return local_model_handler()
    if model is None:
        raise LLMError(f"no in-process model '{provider}/{name}' is registered")
    return model


def rough_tokens(text: str) -> int:
    """A cheap token estimate for fakes (about 4 characters a token)."""
    return max(1, len(text) // 4) if text else 0


def to_model_response(reply: Reply, model: str) -> Any:
    litellm = import_litellm()

    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = reply.tool_calls
    return litellm.ModelResponse(
        choices=[{"message": message, "finish_reason": reply.finish_reason, "index": 0}],
        usage={"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
               "total_tokens": reply.prompt_tokens + reply.completion_tokens},
        model=model)


def import_litellm() -> Any:
    """Import litellm with its model cost map read from the package (never the network)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    return litellm


def _as_provider_error(exc: Exception, model: str, provider: str) -> Exception:
    """Simulated provider faults pass through; any other failure of an in-process model
    becomes a non-retryable bad request."""
    if type(exc).__module__.startswith(("litellm", "openai")):
        return exc
    litellm = import_litellm()
    return litellm.BadRequestError(f"{type(exc).__name__}: {exc}", model=model,
                                   llm_provider=provider)


def _make_bridge(provider: str) -> Any:
    from litellm import CustomLLM

    class Bridge(CustomLLM):
        def completion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            params = dict(kwargs.get("optional_params") or {})
            litellm = import_litellm()
            try:
                reply = lookup(provider, model).reply(model, messages, params)
            except Exception as exc:
                raise _as_provider_error(exc, model, provider) from exc
            return to_model_response(reply, f"{provider}/{model}")

        async def acompletion(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            handler = lookup(provider, model)
            if not hasattr(handler, "areply"):  # blocking models run in a worker thread
                return await asyncio.to_thread(self.completion, model, messages, *args, **kwargs)
            params = dict(kwargs.get("optional_params") or {})
            try:
                reply = await handler.areply(model, messages, params)
            except Exception as exc:
                raise _as_provider_error(exc, model, provider) from exc
            return to_model_response(reply, f"{provider}/{model}")

    return Bridge()


def ensure_registered() -> None:
    """Add this package's providers to litellm's custom provider table (idempotent)."""
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        litellm = import_litellm()
        from litellm.utils import custom_llm_setup

        have = {e.get("provider") for e in (litellm.custom_provider_map or [])}
        litellm.custom_provider_map = list(litellm.custom_provider_map or []) + [
            {"provider": p, "custom_handler": _make_bridge(p)} for p in PROVIDERS if p not in have]
        custom_llm_setup()
        _registered = True
