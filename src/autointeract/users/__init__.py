"""Learned user simulators: the simulator, its behavior prompt, GEPA fitting, fidelity.

- :mod:`~autointeract.users.simulator` -- :class:`LearnedUser`, a ``UserSimulator`` with
  explicit state that reveals hidden requirements over turns, corrects, and stops.
- :mod:`~autointeract.users.leak_guard` -- detects turns that leak hidden tests or the
  reference solution.
- :mod:`~autointeract.users.fit` -- fits the behavior prompt to real sessions with GEPA.
- :mod:`~autointeract.users.fidelity` -- how close simulated turns are to real ones.
- :mod:`~autointeract.users.artifact` -- ``user_models/<name>/`` on disk.

Names are imported lazily; importing this package loads nothing heavy.
"""

from __future__ import annotations

from autointeract._lazy import lazy_exports

_EXPORTS = {
    "LearnedUser": "autointeract.users.simulator",
    "UserState": "autointeract.users.simulator",
    "LeakGuard": "autointeract.users.leak_guard",
    "FitConfig": "autointeract.users.fit",
    "fit_user_model": "autointeract.users.fit",
    "UserModel": "autointeract.users.artifact",
    "load_user_model": "autointeract.users.artifact",
    "evaluate_fidelity": "autointeract.users.fidelity",
    "compare_turns": "autointeract.users.fidelity",
    "make_user_from_ref": "autointeract.users.factory",
    "SEED_BEHAVIOR_PROMPT": "autointeract.users.seed",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(_EXPORTS)
