"""The variant generator: LLM drafts through dspy, the knob-only fallback, the reference check."""

import json

import pytest

from autointeract.calibrate.config import GeneratorConfig
from autointeract.calibrate.generator import Generator
from autointeract.calibrate.knobs import Knobs, ladder_knobs
from autointeract.calibrate.variant import (
    DraftError,
    ExtraConstraint,
    VariantDraft,
    build_variant,
    knob_draft,
)
from autointeract.config import LLMConfig
from autointeract.llm import LLMClient, ScriptedModel
from autointeract.rollout.mock_tasks import mock_tasks
from autointeract.scenarios import load_tasks


@pytest.fixture(scope="module")
def vowels():
    return load_tasks("builtin", ids=["count-vowels"])[0]


def _dspy_reply(draft: dict) -> str:
    return f"[[ ## variant ## ]]\n{json.dumps(draft)}\n\n[[ ## completed ## ]]"


def test_softest_knobs_state_everything(vowels):
    import random

    d = knob_draft(vowels, ladder_knobs(0), rng=random.Random(0))
    task = build_variant(vowels, d, ladder_knobs(0))
    assert d.hidden == [] and "Uppercase" in task.initial_message
    assert "count_vowels(\"banana\") -> 3" in task.initial_message
    assert task.knobs == ladder_knobs(0).model_dump()
    assert task.task_id.startswith("count-vowels~")


def test_hard_knobs_hide_requirements(vowels):
    import random

    k = Knobs(hidden=1.0, vagueness=3, reveal="on_question", examples=False)
    task = build_variant(vowels, knob_draft(vowels, k, rng=random.Random(0)), k)
    assert all(r.trigger == "asked" for r in task.requirements)
    assert "Uppercase" not in task.initial_message and "banana" not in task.initial_message


def test_draft_must_fit_the_knobs(vowels):
    k = Knobs(hidden=0.5)
    with pytest.raises(DraftError):
        build_variant(vowels, VariantDraft(opening="count vowels please", stated=[0, 1]), k)
    with pytest.raises(DraftError):
        build_variant(vowels, VariantDraft(opening="count vowels please", stated=[0],
                                           hidden=[7]), k)


def test_llm_draft_is_used_when_valid(tmp_path, vowels):
    draft = {"opening": "hey, need a vowel counter fn count_vowels", "stated": [1], "hidden": [0],
             "constraints": []}
    fake = ScriptedModel([_dspy_reply(draft)], cycle=True)
    client = LLMClient(LLMConfig(cache_dir=None))
    gen = Generator(GeneratorConfig(), client=client, model=fake.model)
    res = gen.generate(vowels, None, Knobs(hidden=0.5), seed=1)
    assert res.status == "ok" and res.source == "llm"
    assert res.task.initial_message == draft["opening"]
    assert res.task.meta["reference_check"] == {"checked": True, "passed": True, "score": 1.0}
    assert client.usage.summary()["calibrate.generator"]["calls"] >= 1


def test_invalid_llm_output_falls_back_and_is_recorded(vowels):
    fake = ScriptedModel(["I think the task is fine as it is."], cycle=True)
    gen = Generator(GeneratorConfig(), client=LLMClient(LLMConfig(cache_dir=None)),
                    model=fake.model)
    res = gen.generate(vowels, None, Knobs(hidden=0.5), seed=1)
    assert res.status == "ok" and res.source == "fallback"
    assert res.task.meta["generator"]["fallback_reason"]


def test_constraint_with_wrong_output_is_discarded(vowels):
    bad = {"opening": "count vowels in a string please", "stated": [0], "hidden": [1],
           "constraints": [{"text": "spaces are not vowels", "input": '"a e"', "output": "3"}]}
    good = dict(bad, constraints=[{"text": "spaces are not vowels", "input": '"a e"',
                                   "output": "2"}])
    k = Knobs(hidden=0.5, constraints=1)
    client = LLMClient(LLMConfig(cache_dir=None))
    res = Generator(client=client, model=ScriptedModel([_dspy_reply(bad)], cycle=True).model
                    ).generate(vowels, None, k, seed=2)
    assert res.source == "fallback"  # the LLM variant failed the reference and was dropped
    assert res.task.meta["generator"]["discarded"]
    res = Generator(client=client, model=ScriptedModel([_dspy_reply(good)], cycle=True).model
                    ).generate(vowels, None, k, seed=2)
    assert res.source == "llm" and len(res.task.verifier.tests) == 8
    assert res.task.requirements[-1].tests == [7]


def test_broken_reference_discards_the_variant():
    task = mock_tasks()[0].model_copy(update={"reference_solution": "def sum_even(n):\n  return 0\n"})
    res = Generator(GeneratorConfig(use_llm=False)).generate(task, None, Knobs(), seed=0)
    assert res.task is None and res.status == "reference_disagrees"


def test_firewall_refuses_matching_variants(vowels):
    class Wall:
        def check(self, item):
            return "bench:vowels" if "vowel" in item.initial_message else None

    res = Generator(GeneratorConfig(use_llm=False), firewall=Wall()).generate(
        vowels, None, Knobs(), seed=0)
    assert res.status == "firewalled" and res.task is None


def test_text_constraint_goes_into_the_goal(vowels):
    d = VariantDraft(opening="count vowels", stated=[0, 1], hidden=[],
                     constraints=[ExtraConstraint(text="Use only the standard library.")])
    task = build_variant(vowels, d, Knobs(hidden=0.0, constraints=1))
    assert "standard library" in task.hidden_goal
