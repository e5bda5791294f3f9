"""Re-measure saved elites and check that their descriptors hold.

Measurement is deterministic given the probe seed, so re-simulating an elite with the same
model and settings should land it where the archive put it. :func:`compare` is pure: an
elite *agrees* when every descriptor moved by at most ``tolerance`` cell widths (default 1.0:
at most one cell over); the report also gives the share that stayed in exactly the same cell
and the largest move per descriptor.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from autointeract.profiles.measure import Measurement, ProbeSet, measure_many
from autointeract.profiles.simulator import SimulatorFactory
from autointeract.types import UserProfile


def cell_widths(dims: Sequence[int], ranges: Sequence[tuple[float, float]]) -> list[float]:
    """The width of one cell along each descriptor."""
    return [(hi - lo) / d for d, (lo, hi) in zip(dims, ranges, strict=True)]


def _cell(x: Sequence[float], dims: Sequence[int], ranges: Sequence[tuple[float, float]]) -> tuple[int, ...]:
    out = []
    for v, d, (lo, hi) in zip(x, dims, ranges, strict=True):
        out.append(int(min(d - 1, max(0, np.floor((min(max(v, lo), hi) - lo) / (hi - lo) * d - 1e-9)))))
    return tuple(out)


def compare(stored: Sequence[dict[str, float]], measured: Sequence[Measurement], *,
            descriptors: Sequence[str], dims: Sequence[int], ranges: Sequence[tuple[float, float]],
            tolerance: float = 1.0) -> dict[str, Any]:
    """Compare stored descriptor values with re-measured ones (pure).

    Args:
        stored: Each elite's stored ``descriptors`` dict.
        measured: The re-measurements, same order.
        descriptors: Descriptor names.
        dims: Cells per descriptor.
        ranges: Range per descriptor.
        tolerance: Allowed move, in cell widths, per descriptor.

    Returns:
        ``n``, ``agree`` (count within tolerance), ``agree_rate``, ``same_cell_rate``,
        ``failed`` (re-measurements that errored), ``max_abs_diff`` per descriptor, and
        ``tolerance_abs`` (the tolerance in descriptor units), plus per-elite ``rows``.
    """
    widths = cell_widths(dims, ranges)
    tol = [tolerance * w for w in widths]
    rows, max_diff = [], dict.fromkeys(descriptors, 0.0)
    for s, m in zip(stored, measured, strict=True):
        if not m.ok:
            rows.append({"ok": False, "agree": False, "same_cell": False, "error": m.error})
            continue
        a = [float(s[d]) for d in descriptors]
        b = [float(m.features[d]) for d in descriptors]
        diffs = {d: abs(x - y) for d, x, y in zip(descriptors, a, b, strict=True)}
        for d, v in diffs.items():
            max_diff[d] = max(max_diff[d], v)
        rows.append({"ok": True, "diffs": diffs,
                     "agree": all(diffs[d] <= t + 1e-9 for d, t in zip(descriptors, tol, strict=True)),
                     "same_cell": _cell(a, dims, ranges) == _cell(b, dims, ranges)})
    n = len(rows)
    agree = sum(r["agree"] for r in rows)
    return {"n": n, "agree": agree, "agree_rate": agree / n if n else 0.0,
            "same_cell_rate": sum(r["same_cell"] for r in rows) / n if n else 0.0,
            "failed": sum(not r["ok"] for r in rows), "tolerance_cells": tolerance,
            "tolerance_abs": dict(zip(descriptors, tol, strict=True)),
            "max_abs_diff": max_diff, "rows": rows}


async def remeasure(rows: Sequence[dict[str, Any]], *, factory: SimulatorFactory, probes: ProbeSet,
                    vocabulary: frozenset[str] | None = None) -> list[Measurement]:
    """Measure the profiles of elite rows (from ``profiles.jsonl``) again."""
    profiles = [UserProfile.model_validate(r["profile"]) for r in rows]
    return await measure_many(factory, profiles, probes=probes, vocabulary=vocabulary)


def remeasure_population(out_dir: str | Path, *, client: Any, n: int = 0, tolerance: float = 1.0,
                         use_cache: bool = False) -> dict[str, Any]:
    """Re-measure the ``n`` most realistic elites of a saved population (0 = all) with the
    model and settings it was built with, and :func:`compare` them with the stored values.

    Raises:
        DataError: ``out_dir`` holds no population.
    """
    import asyncio

    from autointeract.profiles.archive_io import ProfileSampler
    from autointeract.profiles.commands import FAKE_MODEL, resolve_user_model
    from autointeract.profiles.population import load_real, read_population
    from autointeract.profiles.simulator import make_simulator_factory

    pop, source, um = read_population(out_dir)
    rows = sorted(ProfileSampler(Path(out_dir) / "profiles.jsonl").rows, key=lambda r: -r["realism"])
    rows = rows[:n] if n else rows
    vocab = load_real(source)[1] if os.path.exists(source) else None
    model = resolve_user_model(um.model) if um.model == FAKE_MODEL else um
    prompt = Path(pop.behavior_prompt).read_text(encoding="utf-8") if pop.behavior_prompt else None
    factory = make_simulator_factory(pop.simulator, client, model, behavior_prompt=prompt,
                                     max_tokens=pop.max_tokens, temperature=pop.temperature,
                                     use_cache=use_cache)
    measured = asyncio.run(remeasure(rows, factory=factory, probes=pop.evolve.probes, vocabulary=vocab))
    arch = pop.evolve.archive
    return compare([r["descriptors"] for r in rows], measured, descriptors=arch.descriptors,
                   dims=arch.dims, ranges=arch.resolved_ranges(), tolerance=tolerance)
