"""Configs of an evaluation run: the benchmarks, the agent, the user, k seeds, limits.

    benchmarks: [{family: builtin, limit: 3}, {family: swetogether, source: $DIR, limit: 2}]
    agent: {model: local/qwen2.5-coder-0.5b, max_turns: 3, max_tokens: 96}
    user: {kind: prompted}          # or {kind: learned, path: user_models/x, model: weak}
    k: 2                            # seeds seed, seed+1 (or seeds: [0, 5])

Every field is plain data, so a YAML file plus ``-c`` overrides and the seed reproduce a run.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from autointeract.config import LLMConfig, ModelConfig, StrictModel
from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig


class BenchmarkSource(StrictModel):
    """One benchmark: a scenario family (``builtin``, ``livecodebench``, ``lcbpro``,
    ``swetogether``, ``swebench``), ``taskspec`` (a TaskSpec JSONL) or ``mock``.

    ``name`` labels the benchmark in reports (default: the family); ``source`` may name an
    environment variable as ``$VAR`` (e.g. ``$AUTOINTERACT_SWE_TOGETHER``).
    """

    name: str | None = None
    family: str = "builtin"
    source: str | None = None
    ids: list[str] = Field(default_factory=list)
    limit: int | None = Field(default=None, ge=1)
    options: dict[str, Any] = Field(default_factory=dict)

    def label(self) -> str:
        return self.name or self.family


class UserSpec(StrictModel):
    """The simulated user of an evaluation.

    ``kind``:
      * ``prompted`` -- the rollout engine's prompted user (``prompted`` holds its config);
      * ``learned`` -- a fitted :class:`~autointeract.users.simulator.LearnedUser` loaded
        from ``path`` (a ``user_models/<name>/`` folder), worded by ``model``;
      * ``replay`` -- :class:`~autointeract.eval.replay.ReplayUser`: the task's own recorded
        user turns, in order (SWE-Together style baseline); ``sessions`` optionally names a
        folder of SWE-Together task folders or a sessions JSONL to look them up in.
    """

    kind: Literal["prompted", "learned", "replay"] = "prompted"
    name: str | None = None
    prompted: PromptedUserConfig = Field(default_factory=PromptedUserConfig)
    path: str | None = None
    model: ModelConfig | str | None = None
    max_tokens: int = Field(default=120, ge=1)
    temperature: float | None = None
    sessions: str | None = None
    stop_on_pass: bool = False
    missing_session: Literal["requirements", "error"] = "requirements"


class EvalConfig(StrictModel):
    """A standalone evaluation run (``autointeract eval run CONFIG.yaml``)."""

    name: str = "eval"
    seed: int = 0
    k: int = Field(default=1, ge=1, description="runs per task (seeds seed..seed+k-1)")
    seeds: list[int] | None = None
    out_dir: str = "runs/eval/{name}"
    llm: LLMConfig = Field(default_factory=LLMConfig)
    models: dict[str, ModelConfig] = Field(default_factory=dict)
    benchmarks: list[BenchmarkSource] = Field(
        default_factory=lambda: [BenchmarkSource(family="builtin", limit=3)])
    agent: AgentConfig = Field(default_factory=AgentConfig)
    user: UserSpec = Field(default_factory=UserSpec)
    episode: EpisodeConfig = Field(default_factory=lambda: EpisodeConfig(max_wall_s=300))
    concurrency: int = Field(default=2, ge=1)
    docker: Literal["auto", "off", "require"] = Field(
        default="auto", description="docker-bound tasks: verify when an engine answers "
        "(auto), never (off: unverified), or fail without one (require)")
    n_boot: int = Field(default=2000, ge=100)

    def seed_list(self) -> list[int]:
        """The episode seeds: ``seeds`` when given, else ``seed .. seed+k-1``."""
        if self.seeds is not None:
            return list(self.seeds)
        return [self.seed + i for i in range(self.k)]

    def resolve_model(self, model: ModelConfig | str | None) -> ModelConfig | str | None:
        """A name from ``models`` becomes its config; litellm strings pass through."""
        if isinstance(model, str) and model in self.models:
            return self.models[model]
        return model
