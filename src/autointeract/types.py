"""The nouns of the pipeline, shared by every stage.

Data flows forward: history produces ``Session``; users/profiles produce ``UserProfile``;
scenarios produce ``TaskSpec``; rollout produces ``Trajectory`` scored by a ``VerifierResult``.
Everything is a pydantic model so it round-trips through JSONL unchanged.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["system", "user", "assistant", "tool"]


class ToolCall(BaseModel):
    """One tool invocation requested by the agent."""

    id: str = ""
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Message(BaseModel):
    """One event of a conversation: a user/assistant turn or a tool result."""

    model_config = ConfigDict(extra="ignore")

    role: Role
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    timestamp: float | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class UserAct(str, Enum):
    """What a genuine user turn does."""

    REQUEST = "request"
    QUESTION = "question"
    CORRECTION = "correction"
    FAILURE_REPORT = "failure_report"
    INTERRUPTION = "interruption"
    APPROVAL = "approval"
    NEW_REQUIREMENT = "new_requirement"
    OTHER = "other"


class Session(BaseModel):
    """A normalized real (or simulated) user-agent session."""

    id: str
    source: str = ""
    messages: list[Message] = Field(default_factory=list)
    repo: str | None = None
    outcome: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    def user_turns(self) -> list[Message]:
        """Genuine user turns (tool results carried in user-role messages excluded)."""
        return [m for m in self.messages if m.role == "user" and not m.meta.get("tool_result")]


class UserProfile(BaseModel):
    """Interpretable parameters of a simulated user, rendered into the simulator's context.

    All numeric parameters lie in [0, 1] so search spaces are uniform.
    """

    id: str = ""
    expertise: float = 0.5
    verbosity: float = 0.5
    patience: float = 0.5
    specificity: float = 0.5
    pushback: float = 0.5
    typo_rate: float = 0.1
    reveal_eagerness: float = 0.5
    persona: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)

    PARAMS: ClassVar[tuple[str, ...]] = (
        "expertise",
        "verbosity",
        "patience",
        "specificity",
        "pushback",
        "typo_rate",
        "reveal_eagerness",
    )

    def vector(self) -> list[float]:
        return [float(getattr(self, p)) for p in self.PARAMS]


class TestCase(BaseModel):
    """One hidden or public test. For functional problems ``input`` holds one JSON value per line."""

    __test__ = False  # not a pytest class

    input: str
    output: str
    testtype: Literal["stdin", "functional"] = "stdin"


class VerifierSpec(BaseModel):
    """How a task's submission is checked."""

    kind: Literal["stdin", "functional", "repo", "swebench"]
    tests: list[TestCase] = Field(default_factory=list)
    func_name: str | None = None
    time_limit_s: float = 4.0
    memory_mb: int = 512
    repo_dir: str | None = None
    test_command: str | None = None
    docker_image: str | None = None
    protected_paths: list[str] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)


class Requirement(BaseModel):
    """A requirement the user holds back and reveals over turns."""

    text: str
    reveal_after_turn: int | None = None
    trigger: str | None = None  # e.g. "asked", "failed_test", "never"
    tests: list[int] = Field(default_factory=list)  # indices of tests this requirement covers


class TaskSpec(BaseModel):
    """A multi-turn task: what the user says first, what it hides, and how it is verified."""

    __test__ = False

    task_id: str
    family: str
    initial_message: str
    hidden_goal: str
    requirements: list[Requirement] = Field(default_factory=list)
    verifier: VerifierSpec
    reference_solution: str | None = None
    starter_code: str | None = None
    difficulty: str | None = None
    knobs: dict[str, Any] = Field(default_factory=dict)
    meta: dict[str, Any] = Field(default_factory=dict)


class CriterionResult(BaseModel):
    name: str
    passed: bool
    verdict: str = ""
    detail: str = ""
    time_s: float | None = None


class VerifierResult(BaseModel):
    """A deterministic verdict. ``verified`` is False when the check could not run (no docker)."""

    criteria: list[CriterionResult] = Field(default_factory=list)
    verified: bool = True
    error: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def score(self) -> float:
        if not self.criteria:
            return 0.0
        return sum(c.passed for c in self.criteria) / len(self.criteria)

    @property
    def passed(self) -> bool:
        return bool(self.criteria) and all(c.passed for c in self.criteria)


class Trajectory(BaseModel):
    """A full episode: messages, tool calls, timings, tokens, the verdict and the reward."""

    episode_id: str
    task_id: str
    solver: str = ""
    user_model: str = ""
    profile_id: str | None = None
    seed: int = 0
    messages: list[Message] = Field(default_factory=list)
    finish_reason: str = ""
    n_tool_calls: int = 0
    tools_used: list[str] = Field(default_factory=list)
    user_acts: list[str] = Field(default_factory=list)
    verifier: VerifierResult | None = None
    reward: float = 0.0
    user_correction: float = 0.0
    tokens: dict[str, int] = Field(default_factory=dict)
    wall_s: float = 0.0
    meta: dict[str, Any] = Field(default_factory=dict)
