"""The participants of an episode, each a small protocol with explicit state (tau2-style).

An episode is: the user speaks first; then the agent acts (tool calls run in the sandbox,
messages go to the user, ``submit`` ends its work); the user answers each agent message,
reveals requirements, corrects, or stops. State is passed in and returned, never hidden, so
an episode can be replayed turn by turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from autointeract.types import Message, TaskSpec, VerifierResult


@dataclass
class UserTurn:
    """What the simulated user says, and what it meant by it."""

    content: str
    act: str = "other"  # an autointeract.types.UserAct value
    stop: bool = False  # the user ends the conversation (satisfied or out of patience)
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class UserObservation:
    """What the user sees of the agent's last move.

    ``check`` is the verifier's verdict on the agent's current solution when the loop ran one
    (the user only learns *that* something fails, and which of its requirements that touches;
    it never sees hidden test contents).
    """

    agent_message: str
    submitted: bool = False
    solution: str | None = None
    check: VerifierResult | None = None
    failing_requirements: list[int] = field(default_factory=list)
    turn: int = 0


class UserSimulator(Protocol):
    """A simulated user. Implementations: the prompted user (rollout), the learned user (users)."""

    name: str

    def init_state(self, task: TaskSpec, *, seed: int) -> Any:
        """Fresh state for one episode of ``task``."""
        ...

    async def first_turn(self, state: Any) -> tuple[UserTurn, Any]:
        """The opening message (usually vaguer than the full goal)."""
        ...

    async def respond(self, obs: UserObservation, state: Any) -> tuple[UserTurn, Any]:
        """Answer the agent's last move."""
        ...


@dataclass
class AgentStep:
    """One agent action: an assistant message, possibly with tool calls."""

    message: Message
    submitted: bool = False
    solution: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Agent(Protocol):
    """A coding agent. ``step`` sees the whole conversation so far and returns its next move."""

    name: str

    async def step(self, messages: list[Message], state: Any) -> tuple[AgentStep, Any]:
        ...

    def init_state(self, task: TaskSpec, *, seed: int) -> Any:
        ...
