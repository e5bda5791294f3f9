"""Sequential band evaluation vs fixed-N filtering, in a simulation with known pass rates.

Each simulated task has true pass probabilities (p_weak, p_strong); a task is truly in band
when p_weak <= 0.4 and p_strong >= 0.7. The sequential rule (autointeract's evaluator)
samples each solver in rounds until the Beta posterior decides; the baseline runs N
episodes per solver and accepts on the observed rates. For each N we measure precision (the
share of accepted tasks truly in band) and episodes spent per accepted task; the comparison
is against the smallest N whose precision matches the sequential rule's.

    python benchmarks/calibration.py                      # 3000 tasks
    python benchmarks/calibration.py --tasks 500 --confidence 0.8
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass

from autointeract.calibrate.config import BandConfig
from autointeract.calibrate.decision import Counts, decide, fixed_n_status


@dataclass
class Result:
    name: str
    accepted: int
    true_pos: int
    in_band: int
    episodes: int

    @property
    def precision(self) -> float:
        return self.true_pos / self.accepted if self.accepted else 0.0

    @property
    def recall(self) -> float:
        return self.true_pos / self.in_band if self.in_band else 0.0

    @property
    def per_accepted(self) -> float:
        return self.episodes / max(1, self.true_pos)


def draw_tasks(n: int, rng: random.Random) -> list[tuple[float, float]]:
    """(p_weak, p_strong) pairs: the strong solver is at least as good as the weak one."""
    out = []
    for _ in range(n):
        a, b = rng.random(), rng.random()
        out.append((min(a, b), max(a, b)))
    return out


def in_band(p: tuple[float, float], band: BandConfig) -> bool:
    return p[0] <= band.weak_max and p[1] >= band.strong_min


def sequential(tasks: list[tuple[float, float]], band: BandConfig, rng: random.Random) -> Result:
    acc = tp = eps = 0
    for p in tasks:
        w, s = Counts(), Counts()
        while True:
            d = decide(w, s, band)
            if d.status != "continue":
                break
            wp = sum(rng.random() < p[0] for _ in range(d.next_weak))
            sp = sum(rng.random() < p[1] for _ in range(d.next_strong))
            w, s = Counts(w.passes + wp, w.n + d.next_weak), Counts(s.passes + sp, s.n + d.next_strong)
        eps += w.n + s.n
        if d.status == "accepted":
            acc += 1
            tp += in_band(p, band)
    return Result("sequential", acc, tp, sum(in_band(p, band) for p in tasks), eps)


def fixed(tasks: list[tuple[float, float]], band: BandConfig, n: int, rng: random.Random, *,
          rule: str = "posterior") -> Result:
    """N episodes per solver, then accept on the observed rates (``rates``) or on the same
    posterior confidence the sequential rule uses, without stopping early (``posterior``)."""
    acc = tp = 0
    at_n = band.model_copy(update={"min_n": n, "max_n": n})
    for p in tasks:
        w = Counts(sum(rng.random() < p[0] for _ in range(n)), n)
        s = Counts(sum(rng.random() < p[1] for _ in range(n)), n)
        status = fixed_n_status(w, s, band) if rule == "rates" else decide(w, s, at_n).status
        if status == "accepted":
            acc += 1
            tp += in_band(p, band)
    return Result(f"N={n} {rule}", acc, tp, sum(in_band(p, band) for p in tasks),
                  2 * n * len(tasks))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=3000)
    ap.add_argument("--confidence", type=float, default=0.9)
    ap.add_argument("--max-n", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args(argv)
    band = BandConfig(confidence=args.confidence, max_n=args.max_n, batch=2, min_n=2)
    rng = random.Random(args.seed)
    tasks = draw_tasks(args.tasks, rng)
    seq = sequential(tasks, band, random.Random(args.seed + 1))
    post = [fixed(tasks, band, n, random.Random(args.seed + 2)) for n in (4, 8, 12, 16, 24, 32)]
    rates = [fixed(tasks, band, n, random.Random(args.seed + 2), rule="rates")
             for n in (4, 8, 16, 32, 64)]
    rows = [seq, *post, *rates]
    print(f"{'rule':<18}{'accepted':>9}{'precision':>10}{'recall':>8}{'episodes':>10}"
          f"{'eps/true acc':>14}")
    for r in rows:
        print(f"{r.name:<18}{r.accepted:>9}{r.precision:>10.3f}{r.recall:>8.3f}{r.episodes:>10}"
              f"{r.per_accepted:>14.1f}")
    match = next((r for r in post if r.precision >= seq.precision - 0.01), None)
    if args.json:
        import json

        print("BENCH " + json.dumps({
            "benchmark": "calibration", "sequential_per_accepted": seq.per_accepted,
            "sequential_precision": seq.precision, "fixed_name": match.name if match else None,
            "fixed_per_accepted": match.per_accepted if match else None}))
    if match is None:
        print(f"no fixed N up to 32 reaches the sequential precision {seq.precision:.3f}")
        return
    print(f"\nsame acceptance quality (precision ~{seq.precision:.3f}): fixed {match.name} spends "
          f"{match.per_accepted:.1f} episodes per truly-in-band accepted task, the sequential "
          f"rule {seq.per_accepted:.1f}: ratio {match.per_accepted / seq.per_accepted:.2f}x")


if __name__ == "__main__":
    main()
