"""Judge throughput (tests/s) as a ratio to bare interpreter spawns in the same run.

    python benchmarks/judge.py                # 60 tests per case, 3 interleaved rounds
    python benchmarks/judge.py --tests 200 --rounds 5 --evalplus-python /tmp/ev/bin/python

Each round times, back to back: bare ``python -c pass`` spawns (the interpreter the sandbox
runs), the judge on a stdin problem, the judge on a functional problem, and the judge with
two workers; the median of each over the rounds is reported. The goal is a ratio >= 0.7
(the judge spawns one sandboxed process per test, for isolation). With
``--evalplus-python`` (an interpreter with ``evalplus`` installed), evalplus's sandboxed
checker (``untrusted_check``: one forked process per solution, all inputs inside it) runs
on the same functional inputs for comparison.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import textwrap
import time

from autointeract.sandbox.local import LocalSandbox
from autointeract.types import TestCase, VerifierSpec
from autointeract.verifiers.judge import JudgeConfig, judge

STDIN_SOL = "a, b = map(int, input().split())\nprint(a + b)\n"
FUNC_SOL = ("class Solution:\n    def countPeaks(self, nums):\n"
            "        return sum(1 for i in range(1, len(nums) - 1) "
            "if nums[i-1] < nums[i] > nums[i+1])\n")


def _peaks(nums: list[int]) -> int:
    return sum(1 for i in range(1, len(nums) - 1) if nums[i - 1] < nums[i] > nums[i + 1])


def specs(n: int) -> tuple[VerifierSpec, VerifierSpec, list[list[int]]]:
    stdin = VerifierSpec(kind="stdin", tests=[
        TestCase(input=f"{i} {2 * i}\n", output=f"{3 * i}\n") for i in range(n)])
    arrays = [[(i * 7 + j * 13) % 10 for j in range(5 + i % 20)] for i in range(n)]
    func = VerifierSpec(kind="functional", func_name="countPeaks", tests=[
        TestCase(input=json.dumps(a), output=str(_peaks(a)), testtype="functional")
        for a in arrays])
    return stdin, func, arrays


def bare_rate(python: str, n: int, *flags: str) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        subprocess.run([python, *flags, "-c", "pass"], check=True)
    return n / (time.perf_counter() - t0)


def judge_rate(spec: VerifierSpec, solution: str, cfg: JudgeConfig) -> float:
    t0 = time.perf_counter()
    res = judge(spec, solution, config=cfg)
    dt = time.perf_counter() - t0
    if not res.passed:
        raise SystemExit(f"benchmark solution failed: {res.meta['verdicts'][:5]}")
    return len(spec.tests) / dt


EVALPLUS_SCRIPT = textwrap.dedent("""
    import json, sys, time
    from evalplus.eval import untrusted_check
    data = json.load(sys.stdin)
    inputs = [[a] for a in data["arrays"]]
    t0 = time.perf_counter()
    status, details = untrusted_check("humaneval", data["code"], inputs, "countPeaks",
                                      expected=data["expected"], atol=0,
                                      ref_time=[0.001] * len(inputs), fast_check=False)
    dt = time.perf_counter() - t0
    print(json.dumps({"status": status, "passed": int(sum(map(bool, details))), "dt": dt}))
""")


def evalplus_rate(python: str, arrays: list[list[int]]) -> tuple[float | None, str]:
    code = ("def countPeaks(nums):\n    return sum(1 for i in range(1, len(nums) - 1) "
            "if nums[i-1] < nums[i] > nums[i+1])\n")
    payload = json.dumps({"arrays": arrays, "code": code,
                          "expected": [_peaks(a) for a in arrays]})
    proc = subprocess.run([python, "-c", EVALPLUS_SCRIPT], input=payload, text=True,
                          capture_output=True, check=False, timeout=300)
    if proc.returncode != 0:
        return None, (proc.stderr.strip().splitlines() or ["failed"])[-1][:120]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return len(arrays) / out["dt"], f"status={out['status']}, passed={out['passed']}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tests", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--evalplus-python", default=None,
                    help="an interpreter with evalplus installed (skipped when absent)")
    ap.add_argument("--json", action="store_true", help="end with one machine-readable BENCH line")
    args = ap.parse_args(argv)
    with LocalSandbox() as probe:
        python, iso = probe.python, probe.isolation()
    stdin_spec, func_spec, arrays = specs(args.tests)
    cfg = JudgeConfig(time_limit_s=10)
    cases: dict[str, list[float]] = {k: [] for k in (
        "bare `python -c pass`", "bare `python -I -c pass`", "judge stdin", "judge functional", "judge stdin, 2 workers",
        "judge functional, 2 workers")}
    for _ in range(args.rounds):
        cases["bare `python -c pass`"].append(bare_rate(python, args.tests))
        cases["bare `python -I -c pass`"].append(bare_rate(python, args.tests, "-I"))
        cases["judge stdin"].append(judge_rate(stdin_spec, STDIN_SOL, cfg))
        cases["judge functional"].append(judge_rate(func_spec, FUNC_SOL, cfg))
        two = cfg.model_copy(update={"workers": 2})
        cases["judge stdin, 2 workers"].append(judge_rate(stdin_spec, STDIN_SOL, two))
        cases["judge functional, 2 workers"].append(judge_rate(func_spec, FUNC_SOL, two))
    rates = {k: statistics.median(v) for k, v in cases.items()}
    base = rates["bare `python -c pass`"]
    print(f"python: {python}   tests/case: {args.tests}   rounds: {args.rounds} (median)")
    print(f"isolation: network={iso.network_isolated} uid={iso.unprivileged_user} "
          f"nproc={iso.process_limit}")
    print(f"{'case':32} {'tests/s':>9} {'ratio':>7}")
    for name, rate in rates.items():
        print(f"{name:32} {rate:9.1f} {rate / base:7.2f}")
    ev = None
    if args.evalplus_python:
        ev, note = evalplus_rate(args.evalplus_python, arrays)
        if ev is None:
            print(f"evalplus untrusted_check: did not run ({note})")
        else:
            print(f"{'evalplus untrusted_check':32} {ev:9.1f} {ev / base:7.2f}   ({note}; one "
                  "process per solution, no uid/netns isolation)")
    else:
        print("evalplus: not compared (pass --evalplus-python with an interpreter that has "
              "evalplus installed; it is not a dependency of autointeract)")
    for name in ("judge stdin", "judge functional"):
        ratio = rates[name] / base
        print(f"goal: {name} / bare >= 0.70 -> {ratio:.2f} "
              f"{'OK' if ratio >= 0.7 else 'BELOW GOAL'}")
    if args.json:
        print("BENCH " + json.dumps({"benchmark": "judge", "tests_per_s": rates,
                                     "evalplus_tests_per_s": ev}))


if __name__ == "__main__":
    sys.exit(main())
