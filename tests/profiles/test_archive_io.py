from __future__ import annotations

import json
import random

import numpy as np
import pytest

from autointeract.errors import DataError
from autointeract.profiles.archive_io import (ProfileSampler, plot_heatmap, real_user_coverage,
                                              write_elites)
from autointeract.profiles.evolve import ArchiveConfig, make_archive
from autointeract.profiles.run import ProfilePaths
from autointeract.profiles.space import DIM


@pytest.fixture
def archive():
    arch = make_archive(ArchiveConfig(dims=[4, 4], ranges=[(0, 1), (0, 4)]), seed=0)
    sols = np.full((3, DIM), 0.5)
    arch.add(sols, np.array([0.9, 0.2, 0.5]), np.array([[0.1, 0.5], [0.6, 3.5], [0.9, 2.2]]),
             uid=np.array([1, 2, 3]))
    return arch


def _evaluations() -> dict[int, dict]:
    return {u: {"uid": u, "iteration": 0, "profile": {"id": f"p{u}", "persona": f"persona {u}",
                                                      "vector": [0.5] * DIM},
                "measurement": {"features": {"pushback_rate": 0.1}, "user_turns": [["hi", "ok"]]}}
            for u in (1, 2, 3)}


def test_write_elites_and_sample(tmp_path, archive) -> None:
    paths = ProfilePaths(tmp_path)
    rows = write_elites(archive, ["pushback_rate", "log_words_per_turn"], _evaluations(), paths)
    assert len(rows) == 3 and paths.archive.is_file()
    first = json.loads(paths.profiles.read_text().splitlines()[0])
    assert first["grid"] == [0, 0] and first["profile"]["persona"] == "persona 1"
    assert "vector" not in first["profile"] and first["example"] == ["hi", "ok"]
    npz = np.load(paths.archive)
    assert sorted(npz["uid"].tolist()) == [1, 2, 3] and list(npz["dims"]) == [4, 4]

    sampler = ProfileSampler(tmp_path)
    assert len(sampler) == 3 and sampler.cells() == sorted(r["cell"] for r in rows)
    p = sampler.sample(random.Random(0), cell=(2, 3))
    assert p.id == "p2" and p.meta["realism"] == pytest.approx(0.2)
    assert sampler.sample(np.random.default_rng(0), cell=first["cell"]).id == "p1"
    with pytest.raises(DataError, match="no elite in cell"):
        sampler.sample(random.Random(0), cell=(3, 3))
    draws = {sampler.sample(random.Random(i), weight="realism").id for i in range(40)}
    assert draws == {"p1", "p2", "p3"}
    counts = [sampler.sample(random.Random(i), weight="realism").id for i in range(300)]
    assert counts.count("p1") > counts.count("p2")  # weighted by realism


def test_sampler_rejects_missing_and_bad_files(tmp_path) -> None:
    with pytest.raises(DataError, match="no profiles file"):
        ProfileSampler(tmp_path)
    (tmp_path / "profiles.jsonl").write_text('{"cell": 1}\n')
    with pytest.raises(DataError, match="line 1"):
        ProfileSampler(tmp_path)
    (tmp_path / "profiles.jsonl").write_text("")
    with pytest.raises(DataError, match="no elites"):
        ProfileSampler(tmp_path)


def test_heatmap_and_real_user_coverage(tmp_path, archive) -> None:
    real = np.array([[0.12, 0.6], [0.15, 0.9], [0.4, 1.5], [2.0, 1.0]])
    cov = real_user_coverage(archive, real)
    assert cov == {"n_real": 4, "inside_ranges": 3, "real_cells": 2, "covered_cells": 1,
                   "covered_users": 2}
    out = plot_heatmap(archive, ["pushback_rate", "log_words_per_turn"], tmp_path / "h.png",
                       real_points=real)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
