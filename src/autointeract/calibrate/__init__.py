"""Calibration: controller -> generator -> evaluator, until tasks sit in the difficulty band.

- :mod:`~autointeract.calibrate.knobs` -- difficulty knobs and the ladder the controller climbs;
- :mod:`~autointeract.calibrate.generator` -- seed + profile + knobs -> a checked task variant
  (a typed dspy module, knob-only fallback, reference check, firewall hook);
- :mod:`~autointeract.calibrate.decision` -- the sequential Beta-posterior band rule (pure);
- :mod:`~autointeract.calibrate.evaluator` -- weak/strong episodes until the rule decides;
- :mod:`~autointeract.calibrate.controller` -- ask/tell over (seed, profile cell, knobs);
- :mod:`~autointeract.calibrate.executor` -- where episodes run (local asyncio, Ray);
- :mod:`~autointeract.calibrate.loop` -- the resumable loop and its JSONL outputs;
- :mod:`~autointeract.calibrate.run` -- loop + datasets, for the CLI and the stage.

Names are imported lazily, so importing this package loads nothing heavy.
"""

from __future__ import annotations

from autointeract._lazy import lazy_exports

_EXPORTS = {
    "CalibrateConfig": "autointeract.calibrate.config",
    "GenerateConfig": "autointeract.calibrate.config",
    "BandConfig": "autointeract.calibrate.config",
    "Knobs": "autointeract.calibrate.knobs",
    "LADDER": "autointeract.calibrate.knobs",
    "Counts": "autointeract.calibrate.decision",
    "decide": "autointeract.calibrate.decision",
    "Controller": "autointeract.calibrate.controller",
    "Proposal": "autointeract.calibrate.controller",
    "Outcome": "autointeract.calibrate.controller",
    "Generator": "autointeract.calibrate.generator",
    "Evaluator": "autointeract.calibrate.evaluator",
    "LocalExecutor": "autointeract.calibrate.executor",
    "RayExecutor": "autointeract.calibrate.executor",
    "CalibrationLoop": "autointeract.calibrate.loop",
    "run_calibration": "autointeract.calibrate.loop",
    "generate_tasks": "autointeract.calibrate.run",
    "recheck_run": "autointeract.calibrate.recheck",
    "SkillAgent": "autointeract.calibrate.fakes",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(_EXPORTS)
