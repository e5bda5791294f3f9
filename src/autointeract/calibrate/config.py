"""Configs of the calibration loop: solvers, the simulated user, generator, band, budgets.

    cfg = load_config(GenerateConfig, "pipelines/generate.yaml", ["band.max_n=8"])

Model fields name an entry of the pipeline's ``models:`` section (``weak``, ``strong``) or a
litellm model string. Every field is plain data, so config + seed reproduce a run.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from autointeract.config import LLMConfig, ModelConfig, StrictModel
from autointeract.rollout.config import EpisodeConfig


class SolverConfig(StrictModel):
    """A reference solver: an LLM agent, or a simulated one with a known skill (``kind: skill``).

    Attributes:
        kind: ``llm`` (an :class:`~autointeract.rollout.agent.LLMAgent`) or ``skill``
            (:class:`~autointeract.calibrate.fakes.SkillAgent`, for tests and benchmarks).
        model: a name from the pipeline's ``models`` or a litellm model string.
        name: the solver label recorded in trajectories (default: the role, weak/strong).
        skill: the simulated solver's skill in [0, 1] (``kind: skill`` only).
    """

    kind: Literal["llm", "skill"] = "llm"
    model: str = "weak"
    name: str | None = None
    tool_mode: Literal["auto", "native", "text", "bash"] = "auto"
    max_turns: int = Field(default=4, ge=1)
    max_tokens: int = Field(default=256, ge=1)
    temperature: float | None = None
    system_prompt: str | None = Field(default=None, description="replaces the agent's default")
    submit_on_code: bool = Field(
        default=False, description="a bare python block that is a whole solution counts as a "
        "submission (for small models that skip the SUBMIT line)")
    skill: float = Field(default=0.5, ge=0.0, le=1.0)
    latency_s: float = Field(default=0.0, ge=0.0, description="per step (kind: skill)")


class UserConfig(StrictModel):
    """The simulated user that talks to the solvers.

    Attributes:
        kind: ``prompted`` (rule-planned, template- or LLM-phrased) or ``learned`` (the fitted
            simulator of :mod:`autointeract.users`; ``path`` is its ``user_models/<name>``).
        mode: how the prompted user phrases its turns.
        model: the model phrasing turns (``mode: llm`` or ``kind: learned``).
        max_user_turns: patience before the user gives up (scaled by the profile's patience).
    """

    kind: Literal["prompted", "learned"] = "prompted"
    mode: Literal["template", "llm"] = "template"
    model: str | None = None
    path: str | None = None
    max_user_turns: int = Field(default=4, ge=1)
    max_tokens: int = Field(default=96, ge=1)


class SeedSource(StrictModel):
    """Where seed problems come from (any scenario family, see ``autointeract.scenarios``)."""

    family: str = "builtin"
    source: str | None = None
    tasks_file: str | None = Field(default=None, description="a tasks.jsonl (scenarios stage)")
    ids: list[str] = Field(default_factory=list)
    limit: int | None = Field(default=None, ge=1)


class GeneratorConfig(StrictModel):
    """The variant generator (a dspy module over the project's LLM layer).

    Attributes:
        use_llm: ask the model for a variant; when false (or its output is invalid) the
            deterministic knob-only fallback writes it.
        model: the generator's model (a pipeline model name or litellm string).
        check_reference: run the task's verifier on the reference solution and discard a
            variant it no longer agrees with.
    """

    use_llm: bool = True
    model: str = "strong"
    max_tokens: int = Field(default=384, ge=16)
    temperature: float = 0.7
    check_reference: bool = True


class BandConfig(StrictModel):
    """The acceptance band and the sequential rule that decides membership.

    A task is in band when P(p_weak <= weak_max) >= confidence and P(p_strong >= strong_min)
    >= confidence under Beta(prior + passes, prior + failures) posteriors. Sampling a solver
    stops as soon as its side is decided either way (or at ``max_n`` episodes).
    """

    weak_max: float = Field(default=0.4, gt=0.0, lt=1.0)
    strong_min: float = Field(default=0.7, gt=0.0, lt=1.0)
    confidence: float = Field(default=0.9, gt=0.5, lt=1.0)
    prior: tuple[float, float] = (1.0, 1.0)
    min_n: int = Field(default=2, ge=1)
    max_n: int = Field(default=12, ge=1)
    batch: int = Field(default=2, ge=1, description="episodes per solver per round")
    at_max_n: Literal["reject", "posterior_mean"] = "reject"


class ControllerConfig(StrictModel):
    """Budgets and the search policy of the controller.

    Attributes:
        batch: proposals asked (and evaluated concurrently) per round.
        per_seed: accepted tasks wanted per seed problem (a seed is done after that many).
        target_accepted: stop after this many accepted tasks (default: per_seed x seeds).
        start_level: the ladder level of a seed's first proposal.
        max_candidates / max_episodes / max_tokens / max_wall_s: budgets (None: unlimited).
        max_tries_per_level: failed tries at one (seed, level) before it is given up.
    """

    batch: int = Field(default=2, ge=1)
    per_seed: int = Field(default=1, ge=1)
    target_accepted: int | None = Field(default=None, ge=1)
    start_level: int = Field(default=2, ge=0)
    max_candidates: int | None = Field(default=40, ge=1)
    max_episodes: int | None = Field(default=400, ge=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_wall_s: float | None = Field(default=None, gt=0)
    max_tries_per_level: int = Field(default=2, ge=1)


class DatasetConfig(StrictModel):
    """What the dataset writer produces from a run."""

    sft_threshold: float = Field(default=0.9, ge=0.0, le=1.0)
    sft_tasks: Literal["accepted", "all"] = "all"
    push_to_hub: str | None = None
    private: bool = True


class CalibrateConfig(StrictModel):
    """The ``generate`` stage's parameters (also the body of a standalone ``generate`` config)."""

    seeds: SeedSource = Field(default_factory=SeedSource)
    profiles: str | None = Field(default=None, description="profiles.jsonl or its folder")
    weak: SolverConfig = Field(default_factory=lambda: SolverConfig(model="weak"))
    strong: SolverConfig = Field(default_factory=lambda: SolverConfig(model="strong"))
    user: UserConfig = Field(default_factory=UserConfig)
    generator: GeneratorConfig = Field(default_factory=GeneratorConfig)
    band: BandConfig = Field(default_factory=BandConfig)
    controller: ControllerConfig = Field(default_factory=ControllerConfig)
    episode: EpisodeConfig = Field(default_factory=lambda: EpisodeConfig(max_wall_s=300))
    verify: Literal["judge", "reference"] = "judge"
    executor: Literal["local", "ray"] = "local"
    concurrency: int = Field(default=2, ge=1, description="episodes in flight")
    ray_address: str | None = None
    firewall: dict[str, Any] | None = Field(
        default=None, description="an autointeract.eval.firewall.FirewallConfig (None: off)")
    dataset: DatasetConfig = Field(default_factory=DatasetConfig)
    progress: bool = True


class GenerateConfig(CalibrateConfig):
    """A standalone ``autointeract generate CONFIG.yaml`` run."""

    name: str = "generate"
    seed: int = 0
    run_dir: str = "runs/{name}"
    llm: LLMConfig = Field(default_factory=LLMConfig)
    models: dict[str, ModelConfig] = Field(default_factory=lambda: {
        "weak": ModelConfig(model="local/smollm2-135m", max_tokens=256),
        "strong": ModelConfig(model="local/qwen2.5-coder-0.5b", max_tokens=256)})


def resolve_model(name: str, models: dict[str, ModelConfig]) -> ModelConfig:
    """A model by its pipeline name, else the string as a litellm model."""
    if name in models:
        return models[name]
    return ModelConfig(model=name)


__all__ = ["BandConfig", "CalibrateConfig", "ControllerConfig", "DatasetConfig",
           "GenerateConfig", "GeneratorConfig", "SeedSource", "SolverConfig", "UserConfig",
           "resolve_model"]
