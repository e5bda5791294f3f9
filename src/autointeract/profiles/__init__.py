"""Profiles: a population of simulated users, evolved with MAP-Elites (pyribs).

- :mod:`~autointeract.profiles.space`: ``UserProfile`` <-> vectors, profiles fitted to real
  sessions, template personas.
- :mod:`~autointeract.profiles.probes`: fixed probe episodes (a scripted probe agent).
- :mod:`~autointeract.profiles.simulator`: the simulator used to play a profile (the learned
  user when available, else a prompted adapter).
- :mod:`~autointeract.profiles.measure`: behavior descriptors measured by simulating a profile.
- :mod:`~autointeract.profiles.realism`: the objective, a density over real users' behavior.
- :mod:`~autointeract.profiles.evolve`: the ask/tell MAP-Elites loop with checkpoints.
- :mod:`~autointeract.profiles.archive_io`: ``profiles.jsonl``, heatmap, :class:`ProfileSampler`.

Submodules import lazily; importing this package loads nothing heavy.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ProfileSampler"]


def __getattr__(name: str) -> Any:
    if name == "ProfileSampler":
        from autointeract.profiles.archive_io import ProfileSampler

        return ProfileSampler
    raise AttributeError(name)
