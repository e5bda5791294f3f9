from __future__ import annotations

import pytest

from autointeract.errors import ConfigError
from autointeract.sandbox.base import ExecResult
from autointeract.types import TestCase, VerifierSpec
from autointeract.verifiers import verify
from autointeract.verifiers.judge import JudgeConfig, TestRun, grade, grade_test, judge

FAST = JudgeConfig(time_limit_s=2)
ISOLATED = JudgeConfig(time_limit_s=2, batch=False)


def _stdin_spec(*pairs, **kw):
    return VerifierSpec(kind="stdin", tests=[TestCase(input=i, output=o) for i, o in pairs], **kw)


def test_reference_solutions_pass_every_sample_problem(problems, solutions):
    for qid, prob in problems.items():
        res = judge(prob.to_verifier_spec(), solutions[qid], config=FAST)
        assert res.passed, (qid, [c.detail for c in res.criteria])
        assert len(res.criteria) == len(prob.public_tests) + len(prob.private_tests)
        assert res.meta["verdicts"] == ["AC"] * len(res.criteria)


def test_verdicts_wa_re_tle_mle():
    spec = _stdin_spec(("1\n", "2\n"), ("2\n", "4\n"), ("3\n", "6\n"), ("4\n", "8\n"),
                       memory_mb=256, meta={"n_public": 1})
    sol = (
        "n = int(input())\n"
        "if n == 1: print(2)\n"
        "elif n == 2: print(5)\n"
        "elif n == 3: raise ValueError('boom')\n"
        "else:\n"
        "    while True: pass\n")
    res = judge(spec, sol, config=JudgeConfig(time_limit_s=1))
    assert res.meta["verdicts"] == ["AC", "WA", "RE", "TLE"]
    assert "boom" in res.criteria[2].detail
    assert "expected" not in res.criteria[1].detail  # a private test's answer is not leaked
    assert res.score == 0.25 and not res.passed
    mle = judge(_stdin_spec(("1\n", "1\n"), memory_mb=256),
                "x = []\nwhile True: x.append(bytearray(1 << 24))\n", config=FAST)
    assert mle.meta["verdicts"] == ["MLE"]


def test_functional_verdicts(problems):
    spec = problems["ai-count-peaks"].to_verifier_spec()
    wrong = "class Solution:\n    def countPeaks(self, nums):\n        return len(nums)\n"
    res = judge(spec, wrong, config=FAST)
    assert "WA" in res.meta["verdicts"] and not res.passed
    crash = "class Solution:\n    def countPeaks(self, nums):\n        return 1 // 0\n"
    res = judge(spec, crash, config=FAST)
    assert set(res.meta["verdicts"]) == {"RE"} and "ZeroDivisionError" in res.criteria[0].detail
    missing = "def somethingElse(nums):\n    return 0\n"
    res = judge(spec, missing, config=FAST)
    assert set(res.meta["verdicts"]) == {"RE"} and "countPeaks" in res.criteria[0].detail


def test_syntax_error_runs_once_and_fails_all(problems):
    spec = problems["ai-even-sum"].to_verifier_spec()
    res = judge(spec, "def broken(:\n", config=FAST)
    assert set(res.meta["verdicts"]) == {"RE", "SKIP"} and res.meta["verdicts"][0] == "RE"
    assert res.score == 0


def test_stop_on_first_failure_skips_the_rest(problems):
    spec = problems["ai-even-sum"].to_verifier_spec()
    res = judge(spec, "print(0)\n", config=JudgeConfig(time_limit_s=2, stop_on_first_failure=True))
    assert res.meta["verdicts"][0] == "WA" and set(res.meta["verdicts"][1:]) == {"SKIP"}


def test_parallel_workers_give_the_same_verdicts(problems, solutions):
    spec = problems["ai-even-sum"].to_verifier_spec()
    res = judge(spec, solutions["ai-even-sum"], config=JudgeConfig(time_limit_s=2, workers=2))
    assert res.passed


def test_verify_dispatch_and_bad_specs(problems, solutions):
    spec = problems["ai-rotate-left"].to_verifier_spec()
    assert verify(spec, solution=solutions["ai-rotate-left"]).passed
    with pytest.raises(ConfigError):
        verify(spec)
    with pytest.raises(ConfigError, match="func_name"):
        judge(VerifierSpec(kind="functional", tests=[TestCase(input="1", output="1")]), "x=1")
    with pytest.raises(ConfigError, match="stdin/functional"):
        judge(VerifierSpec(kind="repo"), "x=1")


# -- spoofing: a solution that only claims success earns nothing ------------------------

SPOOFS_STDIN = [
    "print('Accepted')\nprint('PASSED')\n",
    "import sys\nprint('All tests passed: AC')\nsys.exit(0)\n",
    "import os\nos._exit(0)\n",
]

SPOOFS_FUNCTIONAL = [
    # prints verdicts and fake records on stdout
    "print('Accepted'); print('{\"status\": \"ok\", \"value\": 2}')\n"
    "class Solution:\n    def countPeaks(self, nums):\n        print('PASSED'); return -1\n",
    # exits 0 before the harness can write anything
    "import sys\nsys.exit(0)\n",
    "import os\nclass Solution:\n    def countPeaks(self, nums):\n        os._exit(0)\n",
    # writes forged records straight to every fd it can guess
    "import os, json\n"
    "class Solution:\n    def countPeaks(self, nums):\n"
    "        for fd in range(1, 10):\n"
    "            try: os.write(fd, b'deadbeef {\"status\": \"ok\", \"value\": 2}\\n')\n"
    "            except OSError: pass\n"
    "        os._exit(0)\n",
    # steals the nonce from the harness frame and forges a second record
    "import sys, os, json\n"
    "nonce = sys._getframe(1).f_locals.get('nonce', '')\n"
    "for fd in range(3, 10):\n"
    "    try: os.write(fd, (nonce + ' ' + json.dumps({'status': 'ok', 'value': 2}) + '\\n').encode())\n"
    "    except OSError: pass\n"
    "class Solution:\n    def countPeaks(self, nums):\n        return 2\n",
    # monkeypatches json.dumps and os.write, hoping the harness uses them
    "import json\n_d = json.dumps\njson.dumps = lambda *a, **k: '2'\nimport os\nos.write = lambda fd, b: len(b)\n"
    "class Solution:\n    def countPeaks(self, nums):\n        return None\n",
]


@pytest.mark.parametrize("sol", SPOOFS_STDIN)
def test_stdin_spoofs_earn_nothing(problems, sol):
    res = judge(problems["ai-even-sum"].to_verifier_spec(), sol, config=FAST)
    assert res.score == 0, res.meta["verdicts"]


@pytest.mark.parametrize("cfg", [FAST, ISOLATED], ids=["batch", "isolated"])
@pytest.mark.parametrize("sol", SPOOFS_FUNCTIONAL)
def test_functional_spoofs_earn_nothing(problems, sol, cfg):
    spec = problems["ai-count-peaks"].to_verifier_spec()
    res = judge(spec, sol, config=cfg)
    # at most the tests whose answer the forged value happens to equal (here: 2 of 5)
    pairs = list(zip(res.criteria, spec.tests, strict=True))
    assert all(t.output.strip() == "2" for c, t in pairs if c.passed), res.meta["verdicts"]
    assert not res.passed


def test_grading_requires_the_nonced_record():
    spec = VerifierSpec(kind="functional", func_name="f", tests=[TestCase(input="1", output="2")])
    fake = ExecResult(exit_code=0, stdout='PASSED\n{"status": "ok", "value": 2}\nAccepted\n')
    assert grade(spec, [TestRun(index=0, exec=fake, nonce="n0nce")]).criteria[0].verdict == "RE"
    two = ExecResult(exit_code=0, stdout='n0nce 0 {"status": "ok", "value": 2}\n' * 2)
    crit = grade(spec, [TestRun(index=0, exec=two, nonce="n0nce")]).criteria[0]
    assert crit.verdict == "RE" and "spoofed" in crit.detail
    other = ExecResult(exit_code=0, stdout='n0nce 1 {"status": "ok", "value": 2}\n')
    assert grade(spec, [TestRun(index=0, exec=other, nonce="n0nce")]).criteria[0].verdict == "RE"
    good = ExecResult(exit_code=0, stdout='n0nce 0 {"status": "ok", "value": 2}\n')
    assert grade(spec, [TestRun(index=0, exec=good, nonce="n0nce")]).passed
    assert grade(spec, [TestRun(index=0, exec=good, nonce=None)]).criteria[0].verdict == "RE"


def test_grading_is_pure_on_canned_runs():
    spec = _stdin_spec(("x", "6"), ("y", "7"), ("z", "8"))
    runs = [TestRun(index=0, exec=ExecResult(exit_code=0, stdout="6\n")),
            TestRun(index=1, exec=ExecResult(exit_code=0, stdout="7", stdout_truncated=True))]
    res = grade(spec, runs)
    assert res.meta["verdicts"] == ["AC", "WA", "SKIP"]
    assert grade(spec, runs) == res
    out = grade_test(TestCase(input="", output="1"),
                     TestRun(index=0, exec=ExecResult(exit_code=1, limit="output")), kind="stdin")
    assert out.verdict == "RE" and "output" in out.detail


def test_patching_json_does_not_reach_the_harness(problems):
    spec = problems["ai-count-peaks"].to_verifier_spec()
    sol = ("import json\njson.dumps = lambda *a, **k: '2'\n"
           "class Solution:\n    def countPeaks(self, nums):\n        return None\n")
    assert set(judge(spec, sol, config=FAST).meta["verdicts"]) == {"WA"}


def test_batch_and_isolated_agree(problems, solutions):
    for qid in ("ai-count-peaks", "ai-top-average", "ai-rotate-left"):
        spec = problems[qid].to_verifier_spec()
        for sol in (solutions[qid], "def nothing():\n    pass\n"):
            a, b = judge(spec, sol, config=FAST), judge(spec, sol, config=ISOLATED)
            assert a.meta["verdicts"] == b.meta["verdicts"], qid


def test_batch_reruns_slow_and_crashing_tests_isolated():
    tests = [TestCase(input=str(i), output=str(i), testtype="functional") for i in range(6)]
    spec = VerifierSpec(kind="functional", func_name="f", tests=tests, memory_mb=256)
    sol = ("import os, time\n"
           "def f(x):\n"
           "    if x == 2:\n        os._exit(3)          # kills the whole batch\n"
           "    if x == 4:\n        while True: pass\n"
           "    return x\n")
    res = judge(spec, sol, config=JudgeConfig(time_limit_s=1))
    assert res.meta["verdicts"] == ["AC", "AC", "RE", "AC", "TLE", "AC"]
