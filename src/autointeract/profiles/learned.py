"""Adapter to the learned user simulator of :mod:`autointeract.users` (the fitted prompt)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autointeract.config import ModelConfig
from autointeract.errors import ConfigError
from autointeract.types import UserProfile

if TYPE_CHECKING:
    from autointeract.llm.client import LLMClient
    from autointeract.profiles.simulator import SimulatorFactory


def learned_factory(client: LLMClient, model: ModelConfig | str, *, behavior_prompt: str | None,
                    max_tokens: int, temperature: float, use_cache: bool) -> SimulatorFactory:
    """A factory of ``autointeract.users.simulator.LearnedUser`` simulators, one per profile.

    The learned user words turns with the fitted ``behavior_prompt`` (its seed prompt when
    omitted); its own pure policy decides reveals, corrections and stops from the profile.

    Raises:
        ConfigError: ``autointeract.users`` has no ``LearnedUser`` in this checkout.
    """
    try:
        from autointeract.users.simulator import LearnedUser
    except ImportError:
        raise ConfigError("simulator 'learned' needs autointeract.users.LearnedUser, which this "
                          "checkout does not have; use simulator: styled",
                          field="simulator") from None

    extra: dict[str, Any] = {"behavior_prompt": behavior_prompt} if behavior_prompt else {}

    def factory(profile: UserProfile) -> Any:
        return LearnedUser(client, model, profile=profile, max_tokens=max_tokens,
                           temperature=temperature, stage="profiles.user", **extra)

    del use_cache  # LearnedUser always uses the LLM cache; its sampling is seeded per turn
    return factory
