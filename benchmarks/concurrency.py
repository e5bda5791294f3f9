"""Concurrent episodes against a slow fake model: speed-up over sequential, and peak memory.

    python benchmarks/concurrency.py                     # 64 episodes, 200 ms per model call
    python benchmarks/concurrency.py --episodes 16 --latency 0.1 --no-llm-layer

Each episode is three agent turns (a question the user answers by revealing a requirement,
a shell command, a submit the user approves), every agent turn waits ``--latency`` seconds
like a remote model. Two cases, each run sequentially (concurrency 1) and all at once
(concurrency = episodes), over the fake sandbox and the in-process reference verifier:

* ``engine``: a ``ScriptedAgent`` whose latency is an ``asyncio.sleep`` — the loop alone.
* ``llm-layer``: ``LLMAgent`` → ``LLMClient`` → litellm → ``ScriptedModel(latency_s=...)``,
  the path a real run takes (litellm's per-call CPU work is serialized by the GIL).

Reported: wall times, speed-up (goal >= 50x for 64 episodes at 200 ms), the Python heap
peak of a concurrent run (tracemalloc, in a separate untimed run) and the max RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
import tracemalloc

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from autointeract.rollout.config import AgentConfig, EpisodeConfig, PromptedUserConfig  # noqa: E402
from autointeract.rollout.fakes import ScriptedAgent  # noqa: E402
from autointeract.rollout.mock_tasks import SUM_EVEN_REF, mock_tasks  # noqa: E402
from autointeract.rollout.runner import run_episodes  # noqa: E402
from autointeract.rollout.verify import reference_verifier  # noqa: E402

ACTIONS = ["Which numbers should be added?", "```bash\necho checking\n```",
           f"SUBMIT\n```python\n{SUM_EVEN_REF}```"]


def _agent(case: str, latency: float, client: object) -> object:
    if case == "engine":
        return ScriptedAgent(ACTIONS, latency_s=latency)
    from autointeract.llm import ScriptedModel

    model = ScriptedModel([lambda msgs: ACTIONS[min(2, sum(m["role"] == "assistant"
                                                           for m in msgs))]],
                          cycle=True, latency_s=latency)
    return AgentConfig(model=model.model, tool_mode="text", max_turns=5)


def run(case: str, episodes: int, latency: float, concurrency: int,
        *, trace: bool = False) -> dict[str, float]:
    from autointeract.config import LLMConfig
    from autointeract.llm import LLMClient

    client = LLMClient(LLMConfig(cache_dir=None, max_concurrency=max(episodes, 8)))
    agent = _agent(case, latency, client)
    if trace:
        tracemalloc.start()
    t0 = time.perf_counter()
    res = run_episodes([mock_tasks()[0]], agent, PromptedUserConfig(), seeds=range(episodes),
                       concurrency=concurrency, client=client,
                       episode_cfg=EpisodeConfig(sandbox={"kind": "fake"}),
                       verifier=reference_verifier)
    wall = time.perf_counter() - t0
    out = {"wall_s": round(wall, 3)}
    if trace:
        out["heap_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 2**20, 2)
        tracemalloc.stop()
    bad = [t.finish_reason for t in res.trajectories if t.finish_reason != "submitted"]
    assert len(res.trajectories) == episodes and not bad and not res.failed, (bad, res.failed)
    out["turns"] = sum(t.meta["turns"] for t in res.trajectories)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--no-llm-layer", action="store_true", help="only the engine case")
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args()
    n, lat = args.episodes, args.latency
    cases = ["engine"] if args.no_llm_layer else ["engine", "llm-layer"]
    run("llm-layer" if not args.no_llm_layer else "engine", 2, 0.0, 2)  # warm-up imports
    report: dict[str, dict[str, float]] = {}
    for case in cases:
        conc = run(case, n, lat, n)
        seq = run(case, n, lat, 1)
        conc["heap_peak_mb"] = run(case, n, lat, n, trace=True)["heap_peak_mb"]  # own run:
        # tracemalloc slows allocation-heavy code (litellm) too much to time with it on
        report[case] = {"sequential_s": seq["wall_s"], "concurrent_s": conc["wall_s"],
                        "speedup": round(seq["wall_s"] / conc["wall_s"], 1),
                        "ideal_speedup": n, "turns": conc["turns"],
                        "heap_peak_mb": conc["heap_peak_mb"]}
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"episodes": n, "latency_s": lat, "cases": report,
                      "max_rss_mb": round(rss_mb, 1)}, indent=1))
    for case, r in report.items():
        goal = "met" if r["speedup"] >= 50 else "NOT met"
        print(f"{case}: {r['speedup']}x speed-up over sequential "
              f"({r['sequential_s']}s -> {r['concurrent_s']}s; goal >= 50x: {goal}), "
              f"heap peak {r['heap_peak_mb']} MB")
    if args.json:
        print("BENCH " + json.dumps({"benchmark": "concurrency", "episodes": n, "latency_s": lat,
                                     "cases": report}))


if __name__ == "__main__":
    main()
