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
    """A factory of ``autointeract.users.LearnedUser`` simulators, one per profile.

    Raises:
        ConfigError: ``autointeract.users`` has no ``LearnedUser`` in this checkout.
    """
    try:
        from autointeract.users import LearnedUser  # type: ignore[attr-defined]
    except ImportError:
        raise ConfigError("simulator 'learned' needs autointeract.users.LearnedUser, which this "
                          "checkout does not have; use simulator: styled",
                          field="simulator") from None

    def factory(profile: UserProfile) -> Any:
        return LearnedUser(client=client, model=model, profile=profile,
                           behavior_prompt=behavior_prompt)

    del max_tokens, temperature, use_cache
    return factory
