"""A dspy LM whose calls go through :class:`LLMClient` (cache, limits, retries, accounting).

    lm = make_dspy_lm(client, ModelConfig(model="local/qwen2.5-coder-0.5b"), stage="labels")
    with dspy.context(lm=lm):
        program(...)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autointeract.config import ModelConfig
from autointeract.llm.providers import Reply, to_model_response

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient


def make_dspy_lm(client: LLMClient, model: ModelConfig | str, *, stage: str,
                 cache: bool = True) -> Any:
    """A ``dspy.BaseLM`` routed through ``client``; dspy's own cache is off (ours is used)."""
    import dspy

    cfg = ModelConfig(model=model) if isinstance(model, str) else model

    class ClientLM(dspy.BaseLM):
        def __init__(self) -> None:
            super().__init__(model=cfg.model, temperature=cfg.temperature,
                             max_tokens=cfg.max_tokens, cache=False)

        def _ask(self, prompt: str | None, messages: list[dict[str, Any]] | None,
                 kwargs: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
            msgs = messages or [{"role": "user", "content": prompt or ""}]
            kw = {"temperature": kwargs.get("temperature", cfg.temperature),
                  "max_tokens": kwargs.get("max_tokens", cfg.max_tokens)}
            seed = kwargs.get("seed", kwargs.get("rollout_id"))
            if seed is not None:
                kw["seed"] = int(seed)
            return msgs, kw

        def forward(self, prompt: str | None = None, messages: list | None = None,
                    **kwargs: Any) -> Any:
            msgs, kw = self._ask(prompt, messages, kwargs)
            c = client.complete(cfg, msgs, stage=stage, cache=cache, **kw)
            return to_model_response(Reply(content=c.content, prompt_tokens=c.prompt_tokens,
                                           completion_tokens=c.completion_tokens), cfg.model)

        async def aforward(self, prompt: str | None = None, messages: list | None = None,
                           **kwargs: Any) -> Any:
            msgs, kw = self._ask(prompt, messages, kwargs)
            c = await client.acomplete(cfg, msgs, stage=stage, cache=cache, **kw)
            return to_model_response(Reply(content=c.content, prompt_tokens=c.prompt_tokens,
                                           completion_tokens=c.completion_tokens), cfg.model)

    return ClientLM()
