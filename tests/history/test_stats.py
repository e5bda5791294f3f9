from __future__ import annotations

import pytest

from autointeract.history.stats import conversation_stats, corpus_stats, session_stats, turn_stats
from autointeract.types import Message, Session, UserAct

A = UserAct


def test_known_answers_for_one_conversation() -> None:
    turns = ["add a login page", "no, use the existing form component",
             "[Request interrupted by user]", "also add a logout button", "what about tests?",
             "thanks"]
    acts = [A.REQUEST, A.CORRECTION, A.INTERRUPTION, A.NEW_REQUIREMENT, A.QUESTION, A.APPROVAL]
    st = turn_stats(turns, acts)
    assert st.n_sessions == 1 and st.n_user_turns == 6
    assert st.turns_per_session_mean == 6
    assert st.pushback_rate == pytest.approx(2 / 6)
    assert st.interruption_rate == pytest.approx(1 / 6)
    assert st.question_rate == st.approval_rate == st.new_requirement_rate == pytest.approx(1 / 6)
    # words: 4, 6, (interruption excluded), 5, 3, 1
    assert st.words_per_turn_mean == pytest.approx(19 / 5)
    assert st.words_per_turn_median == 4
    assert sum(st.act_distribution.values()) == pytest.approx(1.0)
    # positions 0, .2, .4, .6, .8, 1.0 -> bins 0,0,1,2,3,3 (4 bins)
    r = st.reveal
    assert r.reveal_by_position == pytest.approx([0.5, 0.0, 1.0, 0.0])
    assert r.pushback_by_position == pytest.approx([0.5, 1.0, 0.0, 0.0])
    assert r.first_new_requirement_position == pytest.approx(0.6)
    assert r.sessions_with_new_requirement == 1.0


def test_rule_labeled_when_acts_are_omitted() -> None:
    st = turn_stats(["fix the bug", "still failing", "thanks"])
    assert st.act_distribution["failure_report"] == pytest.approx(1 / 3)
    assert st.pushback_rate == pytest.approx(1 / 3) and st.approval_rate == pytest.approx(1 / 3)


def test_many_conversations_pool_turns_and_average_lengths() -> None:
    st = conversation_stats([["a b", "c"], ["d e f"], []],
                            [[A.REQUEST, A.APPROVAL], [A.REQUEST], []])
    assert st.n_sessions == 3 and st.n_user_turns == 3
    assert st.turns_per_session_mean == 1 and st.turns_per_session_median == 1
    assert st.words_per_turn_mean == 2 and st.approval_rate == pytest.approx(1 / 3)
    assert st.reveal.first_new_requirement_position is None


def test_empty_input_is_all_zero() -> None:
    st = conversation_stats([])
    assert st.n_user_turns == 0 and st.pushback_rate == 0 and st.typo_rate == 0


def test_mismatched_acts_raise() -> None:
    with pytest.raises(ValueError):
        conversation_stats([["a", "b"]], [[A.REQUEST]])


def test_typo_rate_uses_the_given_vocabulary() -> None:
    st = turn_stats(["please chekc the output", "please check the output"],
                    [A.REQUEST, A.REQUEST], vocabulary=frozenset({"please", "check", "output"}))
    assert st.typo_checked_words == 6 and st.typo_rate == pytest.approx(1 / 6)


def test_session_and_corpus_stats_use_labels_and_genuine_turns() -> None:
    s = Session(id="s", messages=[
        Message(role="user", content="add caching"),
        Message(role="assistant", content="Added caching to the loader."),
        Message(role="tool", content="ok", meta={"tool_result": True}),
        Message(role="system", content="<system-reminder>x</system-reminder>",
                meta={"injected": "system_reminder"}),
        Message(role="user", content="it's slow", meta={"act": "failure_report"}),
    ])
    st = session_stats(s)
    assert st.n_user_turns == 2 and st.failure_report_rate == 0.5  # meta.act is trusted
    assert corpus_stats([s, s]).n_sessions == 2
