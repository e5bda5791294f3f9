from __future__ import annotations

from autointeract.history.typos import checkable_words, count_typos, is_known, vocabulary_from_texts
from autointeract.history.vocab import builtin_vocabulary


def test_checkable_words_skip_code_paths_identifiers_and_short_words() -> None:
    text = ("pls fix teh `fooBar` in src/app.py see https://x.io/abc ```\nbroekn code\n``` "
            "HTTP getUserName recieve it's")
    assert checkable_words(text) == ["recieve", "its"]


def test_typos_are_near_known_words_only() -> None:
    c = count_typos("please recieve the mesage from Zanzibarian servers")
    assert set(c.typos) == {"recieve", "mesage"}
    assert c.checked == 6
    assert 0 < c.rate < 1


def test_inflections_are_known() -> None:
    v = builtin_vocabulary()
    for w in ("fixes", "fixed", "running", "tested", "quickly", "updates", "rewrite"):
        assert is_known(w, v), w


def test_clean_text_has_no_typos() -> None:
    assert count_typos("Please check the output of the failing test and update the docs").typos == []


def test_vocabulary_from_texts_adds_repeated_words() -> None:
    v = vocabulary_from_texts(["the zorblax module", "zorblax again", "unique flibber"])
    assert "zorblax" in v and "flibber" not in v and "please" in v
