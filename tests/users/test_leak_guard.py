import asyncio

from autointeract.types import Requirement, TaskSpec, TestCase, VerifierSpec
from autointeract.users.leak_guard import LeakGuard, LeakStats, guarded_generate

REF = """def solve(nums):
    seen = {}
    for i, x in enumerate(nums):
        if target - x in seen:
            return [seen[target - x], i]
        seen[x] = i
"""


def task() -> TaskSpec:
    return TaskSpec(
        task_id="t", family="toy", initial_message="write two-sum for a list of numbers",
        hidden_goal="return indices of two numbers adding to the target",
        requirements=[Requirement(text="return the smaller index first")],
        verifier=VerifierSpec(kind="stdin", tests=[
            TestCase(input="4\n2 7 11 15\n9", output="0 1"),
            TestCase(input="3\n3 2 4\n6", output="1 2")]),
        reference_solution=REF)


def test_catches_a_leaked_test_input():
    g = LeakGuard.for_task(task())
    v = g.check("try it with this input: 4 2 7 11 15 9, it should print 0 1")
    assert v.leaked and v.source.startswith("test[0]")


def test_catches_pasted_reference_code():
    v = LeakGuard.for_task(task()).check(
        "just do it like this: for i, x in enumerate(nums): if target - x in seen: return it")
    assert v.leaked and v.source == "reference_solution"


def test_allows_normal_turns_and_requirement_text():
    g = LeakGuard.for_task(task())
    assert not g.check("no, return the smaller index first").leaked
    assert not g.check("still wrong, did you run the tests?").leaked
    assert not g.check("").leaked


def test_guarded_generate_regenerates_then_falls_back():
    g = LeakGuard.for_task(task())
    stats = LeakStats()
    outs = iter(["input 4 2 7 11 15 9 gives 0 1", "looks wrong, fix it"])

    async def gen(_k: int) -> str:
        return next(outs)

    text, verdicts = asyncio.run(guarded_generate(gen, g, stats=stats))
    assert text == "looks wrong, fix it" and [v.leaked for v in verdicts] == [True, False]
    assert stats.leaks == 1 and stats.checks == 2 and stats.leak_rate == 0.5

    async def always_leaks(_k: int) -> str:
        return "for i, x in enumerate(nums): if target - x in seen: return"

    stats2 = LeakStats()
    text, verdicts = asyncio.run(guarded_generate(always_leaks, g, max_regenerations=2,
                                                  fallback="safe", stats=stats2))
    assert text == "safe" and len(verdicts) == 3 and stats2.fallbacks == 1
    assert stats2.leak_rate == 1.0
