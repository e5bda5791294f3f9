"""``models check``: one reply and a tokens/s figure per configured model."""

from __future__ import annotations

from dataclasses import dataclass

from autointeract.config import ModelConfig
from autointeract.llm.client import LLMClient

CHECK_PROMPT = [{"role": "system", "content": "You are a concise coding assistant."},
                {"role": "user", "content": "Write a one-line Python function add(a, b) that "
                                            "returns a + b."}]
DEFAULT_MODELS = ("local/smollm2-135m", "local/qwen2.5-coder-0.5b")


@dataclass
class CheckResult:
    model: str
    reply: str
    completion_tokens: int
    tokens_per_s: float
    cached: bool
    error: str | None = None


def check_models(client: LLMClient, models: list[ModelConfig], *, max_tokens: int = 48,
                 use_cache: bool = True) -> list[CheckResult]:
    """Ask each model the same short question (temperature 0, seed 0).

    A reply served from the cache reports the tokens/s measured when it was generated.
    """
    out = []
    for m in models:
        if m.model.startswith("local/"):  # load (and verify) the weights outside the timing
            from autointeract.llm.local import local_model_handler

            try:
                local_model_handler().get(m.model.split("/", 1)[1], n_ctx=client.config.local_n_ctx,
                                          n_threads=client.config.local_n_threads,
                                          model_dir=client.config.local_model_dir)
            except Exception as exc:
                out.append(CheckResult(m.model, "", 0, 0.0, False, error=str(exc)[:300]))
                continue
        try:
            c = client.complete(m, CHECK_PROMPT, stage="models_check", cache=use_cache,
                                temperature=0.0, max_tokens=max_tokens, seed=0)
        except Exception as exc:  # report every model, even when one fails
            out.append(CheckResult(m.model, "", 0, 0.0, False, error=str(exc)[:300]))
            continue
        tps = c.completion_tokens / c.latency_s if c.latency_s > 0 else 0.0
        out.append(CheckResult(m.model, c.content.strip(), c.completion_tokens, tps, c.cached))
    return out
