"""Evaluation: benchmark runs with a simulated user, metrics that say how behavior changed,
and the firewall that keeps benchmark items out of generation and training.

- :mod:`~autointeract.eval.runner` -- :func:`run_eval`: benchmarks × k seeds through the
  rollout engine, resumable trajectories, ``report.json``.
- :mod:`~autointeract.eval.replay` -- :class:`ReplayUser`, the recorded-user baseline.
- :mod:`~autointeract.eval.verify` -- docker-bound tasks without an engine are unverified.
- :mod:`~autointeract.eval.metrics` -- pass@1, pass^k, per task, paired bootstrap.
- :mod:`~autointeract.eval.behavior` -- the reference paper's Table-4 behavior metrics.
- :mod:`~autointeract.eval.compare` -- two evaluations: deltas with intervals, the plot.
- :mod:`~autointeract.eval.firewall` -- fingerprints of registered benchmarks;
  :mod:`~autointeract.eval.audit` -- leak audit of a finished dataset;
  :mod:`~autointeract.eval.timesplit` -- the time-segmented split.

Submodules import lazily; importing this package loads nothing heavy.
"""
