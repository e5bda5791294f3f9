"""autointeract: learned user simulators and calibrated multi-turn coding tasks.

Importing this package has no side effects and loads no heavy dependency; stages are
imported on use (``autointeract.rollout``, ``autointeract.calibrate``, ...).
"""

__version__ = "0.1.0"
