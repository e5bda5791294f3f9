"""On the real SWE-Together sessions (set AUTOINTERACT_SWE_TOGETHER to the tasks folder)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from autointeract.config import LLMConfig
from autointeract.llm import LLMClient
from autointeract.profiles.commands import resolve_user_model
from autointeract.profiles.evolve import ArchiveConfig, EvolveConfig
from autointeract.profiles.measure import ProbeSet
from autointeract.profiles.population import PopulationConfig, build_population, load_real, real_points

SWET = os.environ.get("AUTOINTERACT_SWE_TOGETHER")
pytestmark = pytest.mark.skipif(not SWET, reason="AUTOINTERACT_SWE_TOGETHER is not set")


def test_real_users_fall_inside_the_descriptor_ranges_and_are_covered(tmp_path) -> None:
    sessions, vocab = load_real(SWET)
    arch = ArchiveConfig()
    pts = real_points(sessions, arch.descriptors, vocabulary=vocab, min_user_turns=2)
    assert len(pts) >= 50
    lo, hi = np.array(arch.resolved_ranges()).T
    assert np.all((pts >= lo) & (pts <= hi))  # every real user is inside the grid

    cfg = PopulationConfig(sessions=SWET, evolve=EvolveConfig(
        iterations=2, batch_size=4, n_seeds=16, probes=ProbeSet(n_probes=1), archive=arch))
    s = build_population(cfg, client=LLMClient(LLMConfig(cache_dir=None)),
                         user_model=resolve_user_model("fake"), out_dir=tmp_path, progress=False)
    ru = s["real_users"]
    assert ru["n_real"] == len(pts) and ru["inside_ranges"] == ru["n_real"]
    assert ru["covered_cells"] >= 1 and ru["covered_users"] >= 1
    print(f"real users {ru}")
