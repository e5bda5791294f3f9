"""Helpers of the fault campaign: fast-retrying LLM settings, faulty model configs, counts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from autointeract.config import FaultConfig, LLMConfig, ModelConfig

REPO = Path(__file__).resolve().parents[2]
SAMPLE_SESSIONS = REPO / "data" / "sessions"
ALL_KINDS = ["timeout", "rate_limit", "server_error", "malformed_json", "empty"]
RETRYABLE = ["timeout", "rate_limit", "server_error"]


def fast_llm(**kw: Any) -> LLMConfig:
    """No cache, quick backoff (an injected fault costs milliseconds, not seconds)."""
    return LLMConfig(**{"cache_dir": None, "backoff_base_s": 0.001, "backoff_max_s": 0.01,
                        "max_concurrency": 8, **kw})


def with_faults(model: str, *, rate: float, seed: int = 0, kinds: list[str] | None = None,
                **kw: Any) -> ModelConfig:
    """``model`` behind seeded fault injection (``rate`` 0 = no faults)."""
    faults = FaultConfig(rate=rate, seed=seed, kinds=kinds or ALL_KINDS) if rate else None
    return ModelConfig(model=model, faults=faults, **kw)


def injected(client: Any) -> dict[str, int]:
    """Faults the client's fault wrappers injected so far, by kind."""
    out: dict[str, int] = {}
    for fm in client._faulty.values():
        for kind, n in fm.injected.items():
            out[kind] = out.get(kind, 0) + n
    return out


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def child_env() -> dict[str, str]:
    return {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OMP_NUM_THREADS": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO / "src"),
                                                        os.environ.get("PYTHONPATH")]))}


def toy_sessions(path: Path) -> Path:
    """Six sessions whose real user is terse, lowercase and always pushes back."""
    from autointeract.history.corpus import write_sessions_jsonl
    from autointeract.types import Message, Session

    replies = ["no thats still broken tests failing", "no still broken the tests fail",
               "no its broken fix the tests", "no still failing fix it"]
    sessions = []
    for i in range(6):
        msgs = [Message(role="user", content=f"fix the parser bug number {i}")]
        for k, real in enumerate(replies):
            msgs += [Message(role="assistant", content=f"I fixed it (attempt {k}). All done!"),
                     Message(role="user", content=real)]
        sessions.append(Session(id=f"s{i}", messages=msgs))
    write_sessions_jsonl(sessions, path)
    return path
