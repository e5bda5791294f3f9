"""Run every benchmark as a subprocess and print one table of ratios against their goals.

    python benchmarks/run_all.py                       # all, sizes that fit in ~10 min here
    python benchmarks/run_all.py --only judge cache    # a subset
    python benchmarks/run_all.py --json-out bench.json --evalplus-python /tmp/ev/bin/python

Each script is run with ``--json`` and ends with one ``BENCH {...}`` line, which this script
parses. Sizes are small but meaningful (see ``SIZES``); pass ``--full`` for each script's
own defaults. The header gives the machine (cores, load average), since every figure here is
a wall-clock figure on whatever else the machine is doing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIZES: dict[str, list[str]] = {
    "calibration": ["--tasks", "3000"],
    "judge": ["--tests", "40", "--rounds", "3"],
    "overhead": ["--episodes", "10", "--turns", "25", "--rounds", "2", "--local-episodes", "2"],
    "concurrency": ["--episodes", "64", "--latency", "0.2"],
    "cache": [],
    "local_model": ["--reps", "3", "--max-tokens", "48"],
}


@dataclass
class Row:
    benchmark: str
    metric: str
    value: float | None
    goal: str
    met: bool | None
    fmt: str = "{:.2f}"

    def cells(self) -> list[str]:
        value = "-" if self.value is None else self.fmt.format(self.value)
        met = {True: "met", False: "NOT met", None: "-"}[self.met]
        return [self.benchmark, self.metric, value, self.goal, met]


def run_script(name: str, args: list[str], *, timeout: float) -> tuple[dict[str, Any] | None,
                                                                         float, str]:
    """Run ``benchmarks/<name>.py --json``; its BENCH record, wall seconds and output tail."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True",
           "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, str(HERE / f"{name}.py"), *args, "--json"],
                           capture_output=True, text=True, timeout=timeout, env=env,
                           cwd=HERE.parent)
        out = p.stdout + p.stderr
    except subprocess.TimeoutExpired as exc:
        out = f"timed out after {timeout:.0f}s\n{exc.stdout or ''}"
    wall = time.perf_counter() - t0
    rec = next((json.loads(line[6:]) for line in reversed(out.splitlines())
                if line.startswith("BENCH ")), None)
    return rec, wall, "\n".join(out.strip().splitlines()[-3:])


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def rows_overhead(r: dict[str, Any]) -> list[Row]:
    ms = r["ms_per_turn"]
    out = [Row("overhead", "engine ms/turn (fake sandbox, scripted agent)", ms["engine"],
               "< 1 ms", ms["engine"] < 1, "{:.3f}")]
    if "mini" in ms:
        out.append(Row("overhead", "engine / mini-swe-agent loop", _ratio(ms["engine"], ms["mini"]),
                       "(ratio, lower = cheaper)", None))
        out.append(Row("overhead", "engine+llm / mini-swe-agent loop",
                       _ratio(ms["engine+llm"], ms["mini"]), "(ratio)", None))
        out.append(Row("overhead", "engine+local / mini+local (spawns)",
                       _ratio(ms["engine+local"], ms["mini+local"]), "(ratio)", None))
    out.append(Row("overhead", "engine+llm ms/turn (litellm path)", ms["engine+llm"], "(info)",
                   None, "{:.2f}"))
    return out


def rows_concurrency(r: dict[str, Any]) -> list[Row]:
    return [Row("concurrency", f"{case}: speed-up, {r['episodes']} eps at "
                f"{int(r['latency_s'] * 1000)} ms", c["speedup"], ">= 50x", c["speedup"] >= 50,
                "{:.1f}x") for case, c in r["cases"].items()]


def rows_judge(r: dict[str, Any]) -> list[Row]:
    rates = r["tests_per_s"]
    base = rates["bare `python -c pass`"]
    out = [Row("judge", f"{k} / bare spawns", rates[k] / base, ">= 0.70", rates[k] / base >= 0.7)
           for k in ("judge stdin", "judge functional")]
    ev = r.get("evalplus_tests_per_s")
    out.append(Row("judge", "judge functional / evalplus untrusted_check",
                   _ratio(rates["judge functional"], ev),
                   "(ratio)" if ev else "(evalplus not installed)", None))
    return out


def rows_cache(r: dict[str, Any]) -> list[Row]:
    share = r["cached_share"]
    return [Row("cache", "calls served from cache, repeated run", 100 * share, "100%",
                share >= 1.0, "{:.1f}%"),
            Row("cache", "wall time second / first run",
                _ratio(r["wall_second_s"], r["wall_first_s"]), "(ratio, lower = better)", None)]


def rows_local(r: dict[str, Any]) -> list[Row]:
    return [Row("local_model", f"{m}: layer / llama-cpp direct tok/s", v["ratio"], ">= 0.90",
                v["ratio"] >= 0.9) for m, v in r["models"].items()]


def rows_calibration(r: dict[str, Any]) -> list[Row]:
    fixed = r.get("fixed_per_accepted")
    ratio = _ratio(r["sequential_per_accepted"], fixed)
    name = r.get("fixed_name") or "fixed N"
    return [Row("calibration", f"episodes/accepted: sequential / {name} (same precision)",
                ratio, "< 1 (cheaper)", None if ratio is None else ratio < 1)]


PARSERS: dict[str, Callable[[dict[str, Any]], list[Row]]] = {
    "calibration": rows_calibration, "judge": rows_judge, "overhead": rows_overhead,
    "concurrency": rows_concurrency, "cache": rows_cache, "local_model": rows_local}


def machine() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{platform.machine()}, {os.cpu_count()} cores, load average {load} (1/5/15 min), "
            f"Python {platform.python_version()}")


def table(rows: list[Row]) -> str:
    head = ["benchmark", "metric", "value", "goal", "status"]
    cells = [head, *[r.cells() for r in rows]]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(PARSERS), help="run only these")
    ap.add_argument("--full", action="store_true", help="each script's own default sizes")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per script")
    ap.add_argument("--evalplus-python", default=os.environ.get("EVALPLUS_PYTHON"),
                    help="an interpreter with evalplus, for the judge comparison")
    ap.add_argument("--json-out", default=None, help="also write rows and raw records here")
    args = ap.parse_args(argv)
    names = args.only or list(PARSERS)
    print(f"machine: {machine()}")
    rows: list[Row] = []
    raw: dict[str, Any] = {}
    t_all = time.perf_counter()
    for name in names:
        extra = [] if args.full else list(SIZES[name])
        if name == "judge" and args.evalplus_python:
            extra += ["--evalplus-python", args.evalplus_python]
        rec, wall, tail = run_script(name, extra, timeout=args.timeout)
        print(f"  {name:<12} {wall:6.1f}s  {'ok' if rec else 'FAILED: ' + tail}", flush=True)
        raw[name] = {"args": extra, "wall_s": round(wall, 1), "record": rec}
        rows += PARSERS[name](rec) if rec else [Row(name, "(did not finish)", None, "-", False)]
    print(f"\nall benchmarks: {time.perf_counter() - t_all:.0f}s; after: {machine()}\n")
    print(table(rows))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "machine": machine(), "rows": [r.__dict__ for r in rows], "runs": raw}, indent=1))
    return 0 if all(r.met is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
