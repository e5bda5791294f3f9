"""A repeated identical pipeline run: the share of LLM calls served from the response cache
(goal 100%) and the wall-time ratio of the second run to the first.

    python benchmarks/cache.py [--pipeline pipelines/bench_cache.yaml]

Both runs are fresh processes over one new cache folder; the figures come from each run's
``llm_usage.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(pipeline: str, cache: str, run_dir: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "autointeract.cli", "run", pipeline,
           "-c", f"llm.cache_dir={cache}", "-c", f"run_dir={run_dir}"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    return wall, json.loads((Path(run_dir) / "llm_usage.json").read_text())["total"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pipeline", default="pipelines/bench_cache.yaml")
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    w1, u1 = run_once(args.pipeline, str(tmp / "cache"), str(tmp / "run1"))
    w2, u2 = run_once(args.pipeline, str(tmp / "cache"), str(tmp / "run2"))
    share = u2["cached_calls"] / u2["calls"] if u2["calls"] else 0.0
    print(f"{'metric':<34}{'value':>10}  goal")
    print(f"{'LLM calls, first run':<34}{u1['calls']:>10}")
    print(f"{'served from cache, second run':<34}{share:>10.1%}  100%")
    print(f"{'wall time second/first':<34}{w2 / w1:>10.2f}  (lower is better)")
    if args.json:
        print("BENCH " + json.dumps({"benchmark": "cache", "calls_first": u1["calls"],
                                     "calls_second": u2["calls"], "cached_share": share,
                                     "wall_first_s": round(w1, 2), "wall_second_s": round(w2, 2)}))


if __name__ == "__main__":
    main()
