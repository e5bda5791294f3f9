"""Rollout-engine cost per simulated turn, next to mini-swe-agent's loop in the same run.

    python benchmarks/overhead.py                  # 40 episodes x 25 turns per case, 3 rounds
    python benchmarks/overhead.py --episodes 10 --rounds 1

Every case runs episodes of ``--turns`` agent turns (one shell command per turn, then a
submit the user approves) and reports wall time per turn, median over interleaved rounds:

* ``engine``: our loop with a model-free ``ScriptedAgent``, the template user and the fake
  sandbox — the engine's own cost (goal < 1 ms/turn). Nothing is subtracted.
* ``engine+llm``: the same through ``LLMAgent`` → ``LLMClient`` → litellm → a zero-latency
  ``ScriptedModel`` (what a real run pays per turn besides the model).
* ``engine+local``: the same as ``engine`` with the local sandbox (a real, limited process
  per command).
* ``mini``: mini-swe-agent's ``DefaultAgent`` with its ``DeterministicModel`` and a no-op
  environment (its loop's own cost); ``mini+local``: with its ``LocalEnvironment``.

Ratios (ours / mini) are printed at the end. mini-swe-agent is optional
(``pip install 'autointeract[bench]'``); its cases are skipped when it is missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from autointeract.rollout.config import AgentConfig, EpisodeConfig  # noqa: E402
from autointeract.rollout.episode import run_episode  # noqa: E402
from autointeract.rollout.fakes import ScriptedAgent  # noqa: E402
from autointeract.rollout.mock_tasks import SUM_EVEN_REF, mock_tasks  # noqa: E402
from autointeract.rollout.prompted_user import PromptedUser  # noqa: E402
from autointeract.rollout.verify import reference_verifier  # noqa: E402

SUBMIT = f"SUBMIT\n```python\n{SUM_EVEN_REF}```"
CMD = "```bash\necho hi\n```"


def _actions(turns: int) -> list[str]:
    return [CMD] * (turns - 1) + [SUBMIT]


def ours(episodes: int, turns: int, *, llm: bool = False, sandbox: str = "fake") -> float:
    """Seconds per agent turn of our engine over ``episodes`` episodes."""
    task = mock_tasks()[0]
    cfg = EpisodeConfig(sandbox={"kind": sandbox}, max_turns=turns + 1)
    if llm:
        from autointeract.config import LLMConfig
        from autointeract.llm import LLMClient, ScriptedModel
        from autointeract.rollout.agent import LLMAgent

        client = LLMClient(LLMConfig(cache_dir=None))
        model = ScriptedModel(_actions(turns), cycle=True)
        client.complete(model.model, [{"role": "user", "content": "warm-up"}])
        model._i = 0
        make: Callable[[], Any] = lambda: LLMAgent(  # noqa: E731
            AgentConfig(model=model.model, tool_mode="text", max_turns=turns + 1), client)
    else:
        make = lambda: ScriptedAgent(_actions(turns))  # noqa: E731

    async def main() -> int:
        n = 0
        for seed in range(episodes):
            t = await run_episode(task, make(), PromptedUser(), seed=seed, config=cfg,
                                  verifier=reference_verifier)
            assert t.finish_reason == "submitted", t.finish_reason
            n += t.meta["turns"]
        return n

    t0 = time.perf_counter()
    n = asyncio.run(main())
    return (time.perf_counter() - t0) / n


def mini(episodes: int, turns: int, *, local: bool = False) -> float | None:
    """Seconds per turn of mini-swe-agent's DefaultAgent (None if not installed)."""
    import logging

    try:
        from minisweagent.agents.default import DefaultAgent
        from minisweagent.environments.local import LocalEnvironment
        from minisweagent.models.test_models import DeterministicModel, make_output
    except ImportError:
        return None
    logging.getLogger("agent").setLevel(logging.WARNING)

    class NoopEnv(LocalEnvironment):  # its loop, no process per command
        def execute(self, action: dict, cwd: str = "", *, timeout: int | None = None) -> dict:
            out = {"output": "hi\n", "returncode": 0, "exception_info": ""}
            if "COMPLETE_TASK" in action.get("command", ""):
                out["output"] = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n"
            self._check_finished(out)
            return out

    outputs = [make_output("run", [{"command": "echo hi"}]) for _ in range(turns - 1)]
    outputs.append(make_output("done", [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}]))
    t0 = time.perf_counter()
    for _ in range(episodes):
        env = LocalEnvironment() if local else NoopEnv()
        agent = DefaultAgent(DeterministicModel(outputs=outputs), env,
                             system_template="You are a helpful assistant.",
                             instance_template="{{task}}", step_limit=turns + 1, cost_limit=0)
        res = agent.run("Write sum_even.")
        assert res.get("exit_status") == "Submitted", res
    return (time.perf_counter() - t0) / (episodes * turns)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=40)
    ap.add_argument("--turns", type=int, default=25)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--local-episodes", type=int, default=4,
                    help="episodes of the cases that spawn a process per command")
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args()
    e, n, le = args.episodes, args.turns, args.local_episodes
    cases: dict[str, Callable[[], float | None]] = {
        "engine": lambda: ours(e, n),
        "engine+llm": lambda: ours(max(1, e // 4), n, llm=True),
        "engine+local": lambda: ours(le, n, sandbox="local"),
        "mini": lambda: mini(e, n),
        "mini+local": lambda: mini(le, n, local=True),
    }
    for fn in cases.values():  # warm-up: imports, first litellm call
        fn()
    times: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(args.rounds):
        for name, fn in cases.items():
            v = fn()
            if v is not None:
                times[name].append(v)
    ms = {k: round(statistics.median(v) * 1000, 3) for k, v in times.items() if v}
    print(json.dumps({"ms_per_turn": ms, "episodes": e, "turns": n, "rounds": args.rounds},
                     indent=1))
    print(f"engine overhead per turn: {ms['engine']:.3f} ms (goal < 1 ms: "
          f"{'met' if ms['engine'] < 1 else 'NOT met'})")
    if "mini" in ms:
        print(f"ratio engine / mini-swe-agent loop:        {ms['engine'] / ms['mini']:.2f}")
        print(f"ratio engine+llm / mini-swe-agent loop:    {ms['engine+llm'] / ms['mini']:.2f}")
        print(f"ratio engine+local / mini+local (spawns):  "
              f"{ms['engine+local'] / ms['mini+local']:.2f}")
    else:
        print("mini-swe-agent not installed: pip install 'autointeract[bench]' for the peer")
    if args.json:
        print("BENCH " + json.dumps({"benchmark": "overhead", "ms_per_turn": ms}))


if __name__ == "__main__":
    main()
