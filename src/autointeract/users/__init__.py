"""Learned user simulators: the simulator, its behavior prompt, GEPA fitting, fidelity.

- :mod:`~autointeract.users.simulator` -- :class:`LearnedUser`, a ``UserSimulator`` with
  explicit state that reveals hidden requirements over turns, corrects, and stops.
- :mod:`~autointeract.users.leak_guard` -- detects turns that leak hidden tests or the
  reference solution.
- :mod:`~autointeract.users.fit` -- fits the behavior prompt to real sessions with GEPA.
- :mod:`~autointeract.users.fidelity` -- how close simulated turns are to real ones.
- :mod:`~autointeract.users.artifact` -- ``user_models/<name>/`` on disk.

Submodules import lazily; importing this package loads nothing heavy.
"""
