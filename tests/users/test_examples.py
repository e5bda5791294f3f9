from autointeract.types import Message, Session
from autointeract.users.examples import extract_examples, render_context, split_sessions

from .conftest import toy_session


def test_examples_skip_first_turn_and_interruptions():
    s = toy_session(0, turns=["no still broken", "[Request interrupted by user]", "ok ship it"])
    ex = extract_examples([s])
    assert [e.real_turn for e in ex] == ["no still broken", "ok ship it"]
    assert ex[0].context.startswith("USER: fix the parser bug number 0")
    assert ex[0].context.endswith("AGENT: I fixed it (attempt 0). All done!")
    assert ex[0].real_act == "correction" and ex[1].real_act == "approval"
    assert ex[1].turn_index == 3 and ex[1].n_turns == 4


def test_sampling_is_seeded_and_capped(toy_sessions):
    a = extract_examples(toy_sessions, max_per_session=2, max_examples=7, seed=1)
    b = extract_examples(toy_sessions, max_per_session=2, max_examples=7, seed=1)
    assert [e.id for e in a] == [e.id for e in b] and len(a) == 7
    assert len({e.session_id for e in a}) == 6  # round-robin: every session contributes


def test_context_budget_keeps_opening_and_recent_lines():
    msgs = [Message(role="user", content="task")]
    for i in range(50):
        msgs += [Message(role="assistant", content=f"step {i} " + "x" * 50)]
    ctx = render_context(msgs, max_chars=300)
    assert ctx.startswith("USER: task\n[... earlier conversation omitted ...]")
    assert "step 49" in ctx and "step 0 " not in ctx and len(ctx) <= 340


def test_split_is_stable_under_corpus_growth():
    base = [Session(id=f"s{i}", messages=[]) for i in range(20)]
    train, held = split_sessions(base, heldout_fraction=0.3, seed=0)
    assert held and train and not {s.id for s in train} & {s.id for s in held}
    bigger = base + [Session(id=f"t{i}", messages=[]) for i in range(20)]
    _, held2 = split_sessions(bigger, heldout_fraction=0.3, seed=0)
    assert {s.id for s in held} <= {s.id for s in held2}
