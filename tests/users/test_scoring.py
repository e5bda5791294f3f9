from autointeract.users.scoring import act_agreement, score_turn, style_markers


def test_identical_turns_score_one():
    s = score_turn("no, still failing on empty input", "no, still failing on empty input")
    assert s.score == 1.0
    assert s.feedback.startswith("Good match")


def test_polite_verbose_turn_scores_low_and_explains_each_miss():
    real = "no thats wrong, the parser still crashes on empty input"
    sim = "Thank you so much! Could you please also add some tests?\n- unit\n- integration"
    s = score_turn(sim, real)
    close = score_turn("no, parser still crashes", real)
    assert s.score < 0.35 < close.score
    assert s.real_act == "correction" and s.sim_act != "correction"
    assert "too cooperative" in s.feedback
    assert "politeness" in s.feedback and "markdown" in s.feedback


def test_empty_simulation_scores_zero():
    assert score_turn("", "ok ship it").score == 0.0


def test_act_agreement_partial_for_pushback_family():
    assert act_agreement("correction", "failure_report") == 0.5
    assert act_agreement("approval", "correction") == 0.0


def test_style_markers():
    m = style_markers("**Sure!** here:\n- a")
    assert m["markdown"] and m["exclamation"] and m["multiline"]
    assert style_markers("the functon is brokn")["typo"]


def test_judge_part_is_weighted_in():
    a = score_turn("ok", "ok", judge=0.0)
    b = score_turn("ok", "ok", judge=1.0)
    assert a.score < b.score == 1.0


def test_clean_turn_strips_speaker_prefixes_and_next_lines():
    from autointeract.users.prompting import clean_turn

    assert clean_turn("USER: why?\nAGENT: because") == "why?"
    assert clean_turn("**User:** ok ship it") == "ok ship it"
    assert clean_turn('"no, revert that"') == "no, revert that"
    assert clean_turn("user-facing text is wrong") == "user-facing text is wrong"
