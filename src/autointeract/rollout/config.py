"""Configs of the rollout engine: the agent, the prompted user, one episode, a rollout run.

    agent = AgentConfig(model="local/qwen2.5-coder-0.5b", max_turns=6)   # tool_mode "auto"
    user = PromptedUserConfig(mode="template", max_user_turns=4)
    episode = EpisodeConfig(max_wall_s=120, sandbox={"kind": "local"})

Every field is plain data, so a YAML file plus ``-c rollout.agent.max_turns=8`` overrides
reproduce a run exactly (with its seed).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from autointeract.config import LLMConfig, ModelConfig, StrictModel
from autointeract.rollout.tasks import TaskSourceConfig

ToolMode = Literal["auto", "native", "text", "bash"]


class AgentConfig(StrictModel):
    """A coding agent driven by one LLM.

    ``tool_mode``: ``native`` uses the provider's tool calling (``run_python``, ``bash``,
    ``message_user``, ``submit``); ``text`` parses fenced blocks from plain text (for models
    without tool calling, e.g. the embedded ones); ``bash`` is the mini-swe-agent style repo
    agent (one bash block per turn, ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` submits);
    ``auto`` picks ``text`` for ``local/`` models and ``native`` otherwise.
    """

    name: str | None = None
    model: ModelConfig | str = "local/qwen2.5-coder-0.5b"
    tool_mode: ToolMode = "auto"
    max_turns: int = Field(default=8, ge=1)
    max_tokens: int = Field(default=256, ge=1, description="completion tokens per reply")
    max_total_tokens: int = Field(default=32_000, ge=1, description="prompt+completion budget")
    temperature: float | None = None
    system_prompt: str | None = None
    observation_chars: int = Field(default=2000, ge=100, description="tool output shown inline")
    tool_timeout_s: float = 10.0

    def model_config_(self) -> ModelConfig:
        """The endpoint as a :class:`ModelConfig` (a bare string becomes one)."""
        return ModelConfig(model=self.model) if isinstance(self.model, str) else self.model

    def resolved_mode(self) -> Literal["native", "text", "bash"]:
        if self.tool_mode != "auto":
            return self.tool_mode
        return "text" if self.model_config_().model.startswith("local/") else "native"

    def label(self) -> str:
        return self.name or self.model_config_().model


class PromptedUserConfig(StrictModel):
    """The prompted user simulator: a state machine, phrased by templates or by an LLM."""

    kind: Literal["prompted"] = "prompted"
    name: str | None = None
    mode: Literal["template", "llm"] = "template"
    model: ModelConfig | str | None = None
    max_user_turns: int = Field(default=6, ge=1, description="patience: replies before giving up")
    reveal_on_question: bool = True
    max_tokens: int = 96
    temperature: float = 0.7

    def label(self) -> str:
        if self.name:
            return self.name
        if self.mode == "llm" and self.model is not None:
            m = self.model if isinstance(self.model, str) else self.model.model
            return f"prompted-llm:{m}"
        return "prompted-template"


class EpisodeConfig(StrictModel):
    """Limits and environment of one episode (the agent's own limits live in AgentConfig)."""

    max_wall_s: float = Field(default=600.0, gt=0)
    max_turns: int | None = Field(default=None, ge=1, description="default: the agent's")
    max_total_tokens: int | None = Field(default=None, ge=1, description="default: the agent's")
    sandbox: dict[str, Any] = Field(default_factory=lambda: {"kind": "local"})
    check_messages: bool = Field(default=True,
                                 description="verify code blocks the agent shows the user")
    repo_path: str = "repo"
    final_fallback: Literal["none", "last_code"] = Field(
        default="last_code", description="with no submission and no code shown to the user, "
        "verify the last program the agent ran (what a user would copy from the chat)")


class RolloutConfig(StrictModel):
    """A standalone rollout run (``autointeract rollout CONFIG.yaml``)."""

    name: str = "rollout"
    seed: int = 0
    seeds: list[int] | None = None
    tasks: TaskSourceConfig = Field(default_factory=TaskSourceConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    agents: list[AgentConfig] = Field(default_factory=lambda: [AgentConfig()])
    user: PromptedUserConfig = Field(default_factory=PromptedUserConfig)
    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    concurrency: int = Field(default=4, ge=1)

    def seed_list(self) -> list[int]:
        return list(self.seeds) if self.seeds is not None else [self.seed]
