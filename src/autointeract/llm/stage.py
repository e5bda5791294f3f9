"""Pipeline stage ``models_check``: verify the configured models answer."""

from __future__ import annotations

from typing import Any

from autointeract.config import StrictModel
from autointeract.pipeline import StageContext


class ModelsCheckParams(StrictModel):
    models: list[str] = ["weak", "strong"]
    max_tokens: int = 32


def run_models_check(ctx: StageContext, params: dict[str, Any]) -> dict[str, Any]:
    from autointeract.errors import LLMError
    from autointeract.llm.check import check_models

    p = ctx.stage_params(ModelsCheckParams, params)
    results = check_models(ctx.llm, [ctx.model(m) for m in p.models], max_tokens=p.max_tokens)
    bad = [r for r in results if r.error]
    if bad:
        raise LLMError(f"models check failed: {bad[0].model}: {bad[0].error}")
    return {"models": [{"model": r.model, "tokens_per_s": round(r.tokens_per_s, 1),
                        "cached": r.cached} for r in results]}
