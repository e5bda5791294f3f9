from __future__ import annotations

import pytest

from autointeract.history.acts import RuleLabeler, label_session, label_turns, session_acts
from autointeract.types import Message, Session, UserAct

CASES = [
    ("[Request interrupted by user]", UserAct.INTERRUPTION),
    ("[Request interrupted by user for tool use]", UserAct.INTERRUPTION),
    ("no, that's the wrong file", UserAct.CORRECTION),
    ("that's wrong, use the v2 endpoint", UserAct.CORRECTION),
    ("use a dict instead", UserAct.CORRECTION),
    ("don't touch the migrations", UserAct.CORRECTION),
    ("it should be hover, not click", UserAct.CORRECTION),
    ("still failing with the same error", UserAct.FAILURE_REPORT),
    ("it doesn't work", UserAct.FAILURE_REPORT),
    ("Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'x'", UserAct.FAILURE_REPORT),
    ("TypeError: cannot read properties of undefined", UserAct.FAILURE_REPORT),
    ("also add a --json flag", UserAct.NEW_REQUIREMENT),
    ("can you also handle empty files", UserAct.NEW_REQUIREMENT),
    ("now add tests for it", UserAct.NEW_REQUIREMENT),
    ("ok. also log the errors", UserAct.NEW_REQUIREMENT),
    ("what does this function return?", UserAct.QUESTION),
    ("is the cache per process", UserAct.QUESTION),
    ("thanks!", UserAct.APPROVAL),
    ("lgtm", UserAct.APPROVAL),
    ("looks good", UserAct.APPROVAL),
    ("perfect", UserAct.APPROVAL),
    ("yes", UserAct.APPROVAL),
    ("works now, thanks", UserAct.APPROVAL),
    ("commit and push", UserAct.REQUEST),
    ("ok, commit those changes", UserAct.REQUEST),
    ("can you run the tests?", UserAct.REQUEST),
    ("/review", UserAct.REQUEST),
    ("adds up to 99% now", UserAct.OTHER),
]


@pytest.mark.parametrize(("text", "act"), CASES)
def test_rule_labels(text: str, act: UserAct) -> None:
    lab = RuleLabeler().label(text, index=2, n_turns=5)
    assert lab.act == act, lab.reason
    assert lab.reason.startswith(f"rule:{act.value}:") and lab.source == "rules"


def test_first_turn_is_a_request_whatever_it_says() -> None:
    for text in ("why is this slow?", "thanks in advance, the build fails", "no idea where to start"):
        assert RuleLabeler().label(text, index=0, n_turns=3).act == UserAct.REQUEST


def test_interruption_wins_even_first() -> None:
    assert label_turns(["[Request interrupted by user]", "go on"])[0].act == UserAct.INTERRUPTION


def test_label_session_marks_only_genuine_turns_and_copies() -> None:
    s = Session(id="x", messages=[
        Message(role="user", content="fix it"),
        Message(role="assistant", content="done"),
        Message(role="tool", content="no such file", meta={"tool_result": True}),
        Message(role="user", content="no, the other one"),
    ])
    out = label_session(s)
    assert [m.meta.get("act") for m in out.messages] == ["request", None, None, "correction"]
    assert "act" not in s.messages[0].meta  # input untouched
    assert session_acts(out) == [UserAct.REQUEST, UserAct.CORRECTION]
    assert session_acts(s) == [UserAct.REQUEST, UserAct.CORRECTION]


def test_dspy_labeler_with_dummy_lm() -> None:
    from dspy.utils import DummyLM

    from autointeract.history.llm_labeler import DspyActLabeler

    lm = DummyLM([{"act": "question"}, {"act": "approval"}])
    lab = DspyActLabeler(lm)
    a = lab.label("is it fast enough", index=1, n_turns=3, previous="I optimized it.")
    assert (a.act, a.source, a.reason) == (UserAct.QUESTION, "llm", "llm:question")
    assert lab.label("great", index=2, n_turns=3).act == UserAct.APPROVAL
    prompt = str(lm.history[0]["messages"])
    assert "is it fast enough" in prompt and "turn 2 of 3" in prompt and "I optimized it." in prompt


def test_dspy_labeler_falls_back_to_rules_on_invalid_output() -> None:
    from dspy.utils import DummyLM

    from autointeract.history.llm_labeler import DspyActLabeler

    lab = DspyActLabeler(DummyLM([{"act": "banana"}] * 4))
    out = lab.label("no, use the other file", index=1, n_turns=3)
    assert out.act == UserAct.CORRECTION and out.source == "rules_fallback"
    assert out.reason.startswith("llm_invalid") and "rule:correction" in out.reason


def test_dspy_labeler_chain_of_thought_and_session() -> None:
    from dspy.utils import DummyLM

    from autointeract.history.llm_labeler import DspyActLabeler

    lab = DspyActLabeler(DummyLM([{"reasoning": "asks", "act": "request"},
                                  {"reasoning": "pushes back", "act": "correction"}]),
                         chain_of_thought=True)
    s = Session(id="y", messages=[Message(role="user", content="add x"),
                                  Message(role="assistant", content="ok"),
                                  Message(role="user", content="not like that")])
    out = label_session(s, labeler=lab)
    assert [m.meta["act_source"] for m in out.user_turns()] == ["llm", "llm"]
    assert session_acts(out) == [UserAct.REQUEST, UserAct.CORRECTION]
