"""Archive outputs: ``profiles.jsonl``, the archive as ``.npz``, the heatmap, and the sampler.

``profiles.jsonl`` has one elite a line::

    {"uid": 100003, "cell": 42, "grid": [4, 2], "realism": 0.61,
     "descriptors": {"pushback_rate": 0.25, "log_words_per_turn": 2.9},
     "features": {...}, "profile": {UserProfile fields, persona included}, "iteration": 1,
     "example": ["first user turn", ...]}

Later stages draw from it with :class:`ProfileSampler`.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from autointeract.errors import DataError
from autointeract.profiles.run import ProfilePaths, atomic_write
from autointeract.types import UserProfile


def elite_rows(archive: Any, descriptors: Sequence[str],
               evaluations: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per elite, joined with its evaluation row (persona, features, transcript)."""
    data = archive.data()
    rows = []
    for k in np.argsort(data["index"]):
        uid, idx = int(data["uid"][k]), int(data["index"][k])
        ev = evaluations.get(uid, {})
        prof = dict(ev.get("profile", {}))
        prof.pop("vector", None)
        meas = ev.get("measurement", {})
        rows.append({
            "uid": uid, "cell": idx,
            "grid": [int(g) for g in archive.int_to_grid_index([idx])[0]],
            "realism": round(float(data["objective"][k]), 6),
            "descriptors": {d: round(float(v), 6) for d, v in zip(descriptors, data["measures"][k], strict=True)},
            "features": meas.get("features", {}), "iteration": ev.get("iteration"),
            "profile": prof or UserProfile(**dict(zip(UserProfile.PARAMS, map(float, data["solution"][k]),
                                                      strict=True))).model_dump(mode="json"),
            "example": (meas.get("user_turns") or [[]])[0]})
    return rows


def write_elites(archive: Any, descriptors: Sequence[str], evaluations: dict[int, dict[str, Any]],
                 paths: ProfilePaths) -> list[dict[str, Any]]:
    """Write ``profiles.jsonl`` and ``profiles_archive.npz`` (atomically); returns the rows."""
    rows = elite_rows(archive, descriptors, evaluations)
    atomic_write(paths.profiles, "".join(json.dumps(r) + "\n" for r in rows).encode())
    buf = io.BytesIO()
    data = archive.data()
    np.savez(buf, **{k: np.asarray(v) for k, v in data.items()},
             dims=np.asarray(archive.dims), lower_bounds=archive.lower_bounds,
             upper_bounds=archive.upper_bounds, descriptors=np.asarray(list(descriptors)))
    atomic_write(paths.archive, buf.getvalue())
    return rows


def plot_heatmap(archive: Any, descriptors: Sequence[str], path: Path, *,
                 real_points: np.ndarray | None = None, title: str = "") -> Path:
    """Save a heatmap of elite realism (max over the third descriptor when there are three),
    with real users' own descriptor values as red crosses."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dims, lo, hi = archive.dims, archive.lower_bounds, archive.upper_bounds
    grid = np.full(tuple(dims[:2]) if len(dims) > 1 else (dims[0], 1), np.nan)
    data = archive.data()
    for idx, obj in zip(data["index"], data["objective"], strict=True):
        g = archive.int_to_grid_index([idx])[0]
        key = (g[0], g[1] if len(g) > 1 else 0)
        grid[key] = np.nanmax([grid[key], obj])
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.set_facecolor("#e8e8e8")
    ext = [lo[0], hi[0], lo[1] if len(lo) > 1 else 0, hi[1] if len(hi) > 1 else 1]
    im = ax.imshow(grid.T, origin="lower", extent=ext, aspect="auto", cmap="viridis",
                   vmin=0.0, vmax=1.0, interpolation="nearest")
    fig.colorbar(im, ax=ax, label="realism")
    if real_points is not None and len(real_points):
        ys = real_points[:, 1] if real_points.shape[1] > 1 else np.full(len(real_points), 0.5)
        ax.scatter(real_points[:, 0], ys, marker="x", c="red", s=18, linewidths=1,
                   label="real users")
        ax.legend(loc="upper right", fontsize=7)
    ax.set_xlabel(descriptors[0])
    ax.set_ylabel(descriptors[1] if len(descriptors) > 1 else "")
    ax.set_title(title or f"profile archive ({len(data['index'])} elites)", fontsize=9)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    atomic_write(path, buf.getvalue())
    return path


def real_user_coverage(archive: Any, real_points: np.ndarray) -> dict[str, Any]:
    """How the archive covers real users' own descriptor values.

    Returns:
        ``n_real``, ``inside_ranges`` (real users within every descriptor range),
        ``real_cells`` (distinct cells they fall in), ``covered_cells`` (of those, cells
        holding an elite) and ``covered_users`` (real users whose cell holds an elite).
    """
    pts = np.atleast_2d(np.asarray(real_points, dtype=np.float64))
    if pts.size == 0:
        return {"n_real": 0, "inside_ranges": 0, "real_cells": 0, "covered_cells": 0,
                "covered_users": 0}
    inside = np.all((pts >= archive.lower_bounds) & (pts <= archive.upper_bounds), axis=1)
    cells = archive.index_of(np.clip(pts, archive.lower_bounds, archive.upper_bounds))
    occupied = set(int(i) for i in archive.data("index"))
    in_cells = [int(c) for c, ok in zip(cells, inside, strict=True) if ok]
    return {"n_real": len(pts), "inside_ranges": int(inside.sum()),
            "real_cells": len(set(in_cells)), "covered_cells": len(set(in_cells) & occupied),
            "covered_users": sum(c in occupied for c in in_cells)}


class ProfileSampler:
    """Draw elite profiles for later stages, uniformly, by realism, or from a given cell.

    Args:
        path: ``profiles.jsonl`` or the folder holding it.

    Raises:
        DataError: The file is missing, malformed or holds no elites.
    """

    def __init__(self, path: str | Path):
        p = Path(path)
        p = p / "profiles.jsonl" if p.is_dir() else p
        if not p.is_file():
            raise DataError("no profiles file (run `autointeract profiles evolve` first)", file=str(p))
        self.path, self.rows = p, []
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                UserProfile.model_validate(row["profile"])
            except (json.JSONDecodeError, KeyError, ValueError) as exc:
                raise DataError(f"bad elite row: {str(exc)[:120]}", file=str(p), field=f"line {n}") from None
            self.rows.append(row)
        if not self.rows:
            raise DataError("the archive holds no elites", file=str(p))
        self._by_cell = {r["cell"]: r for r in self.rows}
        self._by_grid = {tuple(r["grid"]): r for r in self.rows}

    def __len__(self) -> int:
        return len(self.rows)

    def cells(self) -> list[int]:
        """The occupied cells (flat indices), sorted."""
        return sorted(self._by_cell)

    def profile(self, row: dict[str, Any]) -> UserProfile:
        """The row's profile, with its cell, descriptors and realism in ``meta``."""
        prof = UserProfile.model_validate(row["profile"])
        prof.meta = {**prof.meta, "cell": row["cell"], "grid": row["grid"],
                     "descriptors": row["descriptors"], "realism": row["realism"]}
        return prof

    def sample(self, rng: random.Random | np.random.Generator, cell: int | Sequence[int] | None = None,
               *, weight: str = "uniform") -> UserProfile:
        """One profile: the elite of ``cell`` (flat index or grid coordinates), else a draw.

        Args:
            rng: A ``random.Random`` or numpy ``Generator`` (the only randomness used).
            cell: A cell to draw from; ``None`` draws over all elites.
            weight: ``uniform`` over elites, or ``realism`` (proportional to realism).

        Raises:
            DataError: ``cell`` holds no elite.
        """
        if cell is not None:
            row = self._by_cell.get(cell) if isinstance(cell, int) else self._by_grid.get(tuple(cell))
            if row is None:
                raise DataError(f"no elite in cell {cell}", file=str(self.path), field="cell")
            return self.profile(row)
        w = np.array([max(r["realism"], 1e-12) if weight == "realism" else 1.0 for r in self.rows])
        u = rng.random()
        k = int(np.searchsorted(np.cumsum(w / w.sum()), u, side="right"))
        return self.profile(self.rows[min(k, len(self.rows) - 1)])
