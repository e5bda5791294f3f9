"""Build a :class:`~autointeract.users.simulator.LearnedUser` from a reference (RL rows).

``autointeract.rl.user_turn`` names this factory for user kind ``learned``; the reference is a
:class:`~autointeract.dataset.rows.UserModelRef` (``path``, ``model``, ``profile``, ``config``).
"""

from __future__ import annotations

from typing import Any

from autointeract.errors import ConfigError

_OPTIONS = ("max_tokens", "temperature", "guard_leaks", "max_regenerations", "context_chars",
            "restyle_first_turn", "behavior_prompt")


def make_user_from_ref(ref: Any, *, client: Any = None) -> Any:
    """The learned user a reference names.

    Args:
        ref: Has ``path`` (a ``user_models/<name>`` folder; the seed prompt when ``None``),
            ``model`` (the model that words turns), ``profile``, ``name`` and ``config``
            (options of :class:`LearnedUser`: ``max_tokens``, ``temperature``, ...).
        client: The :class:`~autointeract.llm.LLMClient`.

    Raises:
        ConfigError: No client or no model, or an unknown option in ``config``.
    """
    from autointeract.users.simulator import LearnedUser

    if client is None or not getattr(ref, "model", None):
        raise ConfigError("a learned user needs an LLM client and user_model.model",
                          field="user_model.model")
    cfg = dict(getattr(ref, "config", None) or {})
    bad = sorted(set(cfg) - set(_OPTIONS))
    if bad:
        raise ConfigError(f"unknown learned-user option(s) {bad} (known: {', '.join(_OPTIONS)})",
                          field="user_model.config")
    kw: dict[str, Any] = {**cfg, "profile": getattr(ref, "profile", None)}
    if getattr(ref, "name", None):
        kw["name"] = ref.name
    if getattr(ref, "path", None):
        kw.pop("behavior_prompt", None)
        return LearnedUser.from_artifact(ref.path, client, ref.model, **kw)
    return LearnedUser(client, ref.model, **kw)
