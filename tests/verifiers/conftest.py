from __future__ import annotations

from pathlib import Path

import pytest

from autointeract.verifiers.lcb_format import load_lcb_jsonl

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "problems" / "lcb_sample.jsonl"

SOLUTIONS = {
    "ai-even-sum": "n = int(input())\nprint(sum(x for x in map(int, input().split()) if x % 2 == 0))\n",
    "ai-longest-run": (
        "import itertools\n"
        "for _ in range(int(input())):\n"
        "    print(max(len(list(g)) for _, g in itertools.groupby(input().strip())))\n"),
    "ai-count-peaks": (
        "class Solution:\n"
        "    def countPeaks(self, nums: List[int]) -> int:\n"
        "        return sum(1 for i in range(1, len(nums) - 1) if nums[i-1] < nums[i] > nums[i+1])\n"),
    "ai-top-average": "def topAverage(nums, k):\n    return sum(sorted(nums)[-k:]) / k\n",
    "ai-rotate-left": (
        "class Solution:\n"
        "    def rotateLeft(self, nums, k):\n"
        "        k %= len(nums)\n"
        "        return tuple(nums[k:] + nums[:k])\n"),
}


@pytest.fixture(scope="session")
def sample_path() -> Path:
    return SAMPLE


@pytest.fixture(scope="session")
def solutions() -> dict[str, str]:
    return dict(SOLUTIONS)


@pytest.fixture(scope="session")
def problems():
    return {p.question_id: p for p in load_lcb_jsonl(SAMPLE)}
