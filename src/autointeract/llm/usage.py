"""Token, cost and call accounting per stage (thread-safe)."""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class StageUsage:
    calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    retries: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0


class UsageTracker:
    """Accumulates :class:`StageUsage` by stage name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_stage: dict[str, StageUsage] = defaultdict(StageUsage)

    def record(self, stage: str, **deltas: Any) -> None:
        with self._lock:
            u = self._by_stage[stage]
            for k, v in deltas.items():
                setattr(u, k, getattr(u, k) + v)

    def stage(self, stage: str) -> StageUsage:
        with self._lock:
            return StageUsage(**asdict(self._by_stage[stage]))

    def summary(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            out = {k: asdict(v) for k, v in self._by_stage.items()}
        total = StageUsage()
        for v in out.values():
            for k, x in v.items():
                setattr(total, k, getattr(total, k) + x)
        out["total"] = asdict(total)
        return out
