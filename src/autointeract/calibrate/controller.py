"""The calibration controller: ask/tell over (seed problem, profile cell, knobs), like pyribs.

    ctrl = Controller(ControllerConfig(), seed_ids=["count-vowels", ...], cells=[3, 7], seed=0)
    while not ctrl.done():
        props = ctrl.ask(2)                 # the library proposes ...
        outs = [evaluate(p) for p in props] # ... the caller runs the expensive episodes ...
        ctrl.tell(props, outs)              # ... and reports back

Per seed problem it keeps the interval ``[lo, hi]`` of ladder levels that may still be in
band and bisects it: a task too easy for the weak solver raises ``lo`` above its level
(more hidden requirements, vaguer opening, added constraints), one too hard for the strong
solver lowers ``hi``. Undecided or discarded candidates are retried a few times per level.
A seed's first level is the mean accepted level of the other seeds (else ``start_level``).
Seeds and profile cells with the fewest accepted tasks are proposed first (ties: seeds in the
given order, cells at random), so accepted tasks spread out. Budgets count candidates, episodes, tokens and wall time. The whole state,
random generator included, is a JSON dict (:meth:`state_dict`), so a run resumes exactly.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autointeract.calibrate.config import ControllerConfig
from autointeract.calibrate.knobs import LADDER, Knobs, ladder_knobs
from autointeract.rollout.seeding import derive_seed

REJECT_UP = ("too_easy",)
REJECT_DOWN = ("too_hard",)


class Proposal(BaseModel):
    """One candidate to generate and evaluate."""

    candidate_id: str
    seed_id: str
    profile_cell: int | None = None
    level: int
    knobs: Knobs
    seed: int


class Outcome(BaseModel):
    """What evaluating a proposal gave (``status`` as in :mod:`~autointeract.calibrate.decision`,
    or ``reference_disagrees``/``firewalled``/``error`` for a candidate never evaluated)."""

    candidate_id: str
    status: str
    task_id: str | None = None
    weak_rate: float | None = None
    strong_rate: float | None = None
    episodes: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    wall_s: float = 0.0


class SeedState(BaseModel):
    lo: int = 0
    hi: int = len(LADDER) - 1
    cur: int | None = None
    accepted: int = 0
    tries: dict[str, int] = Field(default_factory=dict)
    good_levels: list[int] = Field(default_factory=list)
    cells: dict[str, int] = Field(default_factory=dict)

    def open_levels(self, max_tries: int) -> list[int]:
        return [lv for lv in range(self.lo, self.hi + 1) if self.tries.get(str(lv), 0) < max_tries]


class Controller:
    """Proposes candidates and learns from their outcomes (see the module docstring).

    Args:
        config: budgets and search settings.
        seed_ids: the seed problems' ids.
        cells: the profile cells to spread over (``[None]`` when there is no archive).
        seed: the run seed (proposal order and generation seeds derive from it).
    """

    def __init__(self, config: ControllerConfig, *, seed_ids: list[str],
                 cells: list[int | None] | None = None, seed: int = 0):
        if not seed_ids:
            raise ValueError("the controller needs at least one seed problem")
        self.config, self.seed = config, seed
        self.seed_ids, self.cells = list(seed_ids), list(cells or [None])
        self.seeds = {s: SeedState() for s in self.seed_ids}
        self.rng = random.Random(seed)
        self.n_asked = self.n_told = 0
        self.pending: dict[str, str] = {}
        self.totals = {"episodes": 0, "tokens": 0, "cost_usd": 0.0, "wall_s": 0.0,
                       "elapsed_s": 0.0}
        self.status_counts: dict[str, int] = {}

    # -- ask ----------------------------------------------------------------------------
    def _in_flight(self, seed_id: str) -> int:
        return sum(1 for v in self.pending.values() if v.startswith(f"{seed_id}|"))

    def _open_seeds(self, *, room: bool = False) -> list[str]:
        """Seeds that still want accepted tasks (``room``: and are not fully in flight)."""
        per = self.config.per_seed
        return [s for s, st in self.seeds.items()
                if st.accepted < per and st.open_levels(self.config.max_tries_per_level)
                and (not room or st.accepted + self._in_flight(s) < per)]

    def _start_level(self) -> int:
        good = [lv for st in self.seeds.values() for lv in st.good_levels]
        base = round(sum(good) / len(good)) if good else self.config.start_level
        return max(0, min(len(LADDER) - 1, base))

    def _level(self, st: SeedState) -> int:
        opts = st.open_levels(self.config.max_tries_per_level)
        if st.good_levels and st.good_levels[-1] in opts:
            return st.good_levels[-1]
        want = st.cur if st.cur is not None else self._start_level()
        return min(opts, key=lambda lv: (abs(lv - want), lv))

    def _cell(self, seed_id: str) -> int | None:
        st = self.seeds[seed_id]
        busy = [self.pending_cell(c) for c in self.cells]
        return min(self.cells, key=lambda c: (st.cells.get(str(c), 0), busy[self.cells.index(c)],
                                              self.rng.random()))

    def pending_cell(self, cell: int | None) -> int:
        return sum(1 for v in self.pending.values() if v.endswith(f"|{cell}"))

    def ask(self, n: int) -> list[Proposal]:
        """Up to ``n`` new proposals (fewer, or none, when seeds or budgets are used up)."""
        out: list[Proposal] = []
        for _ in range(n):
            if self.stop_reason(pending=len(self.pending)) is not None:
                break
            seeds = self._open_seeds(room=True)
            if not seeds:
                break
            load = {s: self.seeds[s].accepted + self._in_flight(s) for s in seeds}
            seed_id = min(seeds, key=lambda s: (load[s], self.seed_ids.index(s)))
            st = self.seeds[seed_id]
            level, cell = self._level(st), self._cell(seed_id)
            self.n_asked += 1
            cid = f"c{self.n_asked:05d}"
            prop = Proposal(candidate_id=cid, seed_id=seed_id, profile_cell=cell, level=level,
                            knobs=ladder_knobs(level), seed=derive_seed(self.seed, "cand", cid))
            self.pending[cid] = f"{seed_id}|{cell}"
            out.append(prop)
        return out

    # -- tell ---------------------------------------------------------------------------
    def tell(self, proposals: list[Proposal], outcomes: list[Outcome]) -> None:
        """Learn from outcomes (same length and order as ``proposals``)."""
        if len(proposals) != len(outcomes):
            raise ValueError(f"{len(proposals)} proposals but {len(outcomes)} outcomes")
        for prop, out in zip(proposals, outcomes, strict=True):
            self.pending.pop(prop.candidate_id, None)
            self.n_told += 1
            for k in ("episodes", "tokens", "cost_usd", "wall_s"):
                self.totals[k] += getattr(out, k)
            self.status_counts[out.status] = self.status_counts.get(out.status, 0) + 1
            st, lv = self.seeds[prop.seed_id], prop.level
            if out.status == "accepted":
                st.accepted += 1
                st.cells[str(prop.profile_cell)] = st.cells.get(str(prop.profile_cell), 0) + 1
                if lv not in st.good_levels:
                    st.good_levels.append(lv)
                st.cur = lv
            elif out.status in REJECT_UP:
                st.lo = max(st.lo, lv + 1)
                st.cur = (st.lo + st.hi + 1) // 2
            elif out.status in REJECT_DOWN:
                st.hi = min(st.hi, lv - 1)
                st.cur = (st.lo + st.hi) // 2
            else:  # undecided, inverted, discarded, error: try this level again, a few times
                st.tries[str(lv)] = st.tries.get(str(lv), 0) + 1
                st.cur = lv

    # -- budgets ------------------------------------------------------------------------
    @property
    def accepted(self) -> int:
        return sum(st.accepted for st in self.seeds.values())

    def target(self) -> int:
        return self.config.target_accepted or self.config.per_seed * len(self.seeds)

    def stop_reason(self, *, pending: int = 0) -> str | None:
        """Why the search must stop now (None: it may go on)."""
        c, t = self.config, self.totals
        if self.accepted >= self.target():
            return "target reached"
        if c.max_candidates is not None and self.n_told + pending >= c.max_candidates:
            return "candidate budget"
        if c.max_episodes is not None and t["episodes"] >= c.max_episodes:
            return "episode budget"
        if c.max_tokens is not None and t["tokens"] >= c.max_tokens:
            return "token budget"
        if c.max_wall_s is not None and t.get("elapsed_s", 0.0) >= c.max_wall_s:
            return "time budget"
        if not self._open_seeds() and not pending:
            return "no seed left to calibrate"
        return None

    def note_elapsed(self, seconds: float) -> None:
        """Add run time spent outside the candidates' own accounting (the wall budget)."""
        self.totals["elapsed_s"] = self.totals.get("elapsed_s", 0.0) + seconds

    def done(self) -> bool:
        return self.stop_reason(pending=len(self.pending)) is not None and not self.pending

    # -- checkpoints --------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        v, internal, gauss = self.rng.getstate()
        return {"seed": self.seed, "seed_ids": self.seed_ids, "cells": self.cells,
                "seeds": {k: s.model_dump() for k, s in self.seeds.items()},
                "rng": [v, list(internal), gauss], "n_asked": self.n_asked,
                "n_told": self.n_told, "pending": self.pending, "totals": self.totals,
                "status_counts": self.status_counts}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.seeds = {k: SeedState.model_validate(v) for k, v in state["seeds"].items()}
        v, internal, gauss = state["rng"]
        self.rng.setstate((v, tuple(internal), gauss))
        self.n_asked, self.n_told = state["n_asked"], state["n_told"]
        self.pending, self.totals = dict(state["pending"]), dict(state["totals"])
        self.status_counts = dict(state["status_counts"])

    def save(self, path: str | Path) -> None:
        """Write the state atomically (temp file renamed into place)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(json.dumps(self.state_dict()), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def restore(cls, path: str | Path, config: ControllerConfig) -> Controller:
        """A controller from a checkpoint written by :meth:`save`."""
        state = json.loads(Path(path).read_text(encoding="utf-8"))
        ctrl = cls(config, seed_ids=state["seed_ids"], cells=state["cells"], seed=state["seed"])
        ctrl.load_state_dict(state)
        return ctrl


__all__ = ["Controller", "Outcome", "Proposal", "SeedState"]
