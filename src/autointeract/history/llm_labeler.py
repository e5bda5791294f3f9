"""An LLM user-act labeler written as a typed ``dspy`` program.

The signature's output field is a ``Literal`` of the act names, so dspy's adapters validate
the reply; anything unusable (a parse error, an unknown label, an LM failure) falls back to
the rule label, with the reason recorded (``source="rules_fallback"``).

The LM is passed in (``make_dspy_lm(client, model_cfg, stage="history")`` in a run, or
``dspy.utils.DummyLM`` in tests) and used only inside ``dspy.context(lm=...)``: no global
dspy settings are touched.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from autointeract.history.acts import ActLabel, RuleLabeler
from autointeract.types import UserAct

ActName = Literal["request", "question", "correction", "failure_report", "interruption",
                  "approval", "new_requirement", "other"]

_INSTRUCTIONS = """Classify what one genuine user turn in a session with a coding agent does.

Acts: request (asks for work; every first turn), question (asks for information),
correction (says the agent did something wrong or redirects it: "no", "instead", "don't"),
failure_report (reports an error, a failing test, something that still doesn't work),
interruption (the user stopped the agent), approval (accepts or thanks: "lgtm", "perfect"),
new_requirement (adds scope the user had not asked for before: "also", "now add"),
other (none of these)."""


@cache
def signature() -> Any:
    """The ``dspy.Signature`` class (built on first use, so importing this module is cheap)."""
    import dspy

    class LabelUserAct(dspy.Signature):
        turn: str = dspy.InputField(desc="the user's message")
        position: str = dspy.InputField(desc="where it falls, e.g. 'turn 3 of 7 (first turn)'")
        previous_agent_message: str = dspy.InputField(desc="the agent's last message before it")
        act: ActName = dspy.OutputField(desc="the act of the user turn")

    return LabelUserAct.with_instructions(_INSTRUCTIONS)


class DspyActLabeler:
    """Labels user turns with an LM through a ``dspy.Predict`` (or ``ChainOfThought``) module.

    Args:
        lm: A ``dspy.BaseLM`` (e.g. from ``autointeract.llm.dspy_lm.make_dspy_lm``).
        chain_of_thought: Use ``dspy.ChainOfThought`` instead of ``dspy.Predict``.
        max_chars: How much of the turn and of the agent message go into the prompt.
        fallback: The labeler used when the LM's answer is unusable.
    """

    def __init__(self, lm: Any, *, chain_of_thought: bool = False, max_chars: int = 2000,
                 fallback: RuleLabeler | None = None) -> None:
        import dspy

        self.lm = lm
        self.max_chars = max_chars
        self.fallback = fallback or RuleLabeler()
        self.module = (dspy.ChainOfThought if chain_of_thought else dspy.Predict)(signature())

    def label(self, text: str, *, index: int, n_turns: int,
              previous: str | None = None) -> ActLabel:
        """Label one genuine user turn (see :class:`~autointeract.history.acts.ActLabeler`).

        Returns:
            The LM's label (``source="llm"``), or the rule label with
            ``source="rules_fallback"`` and the LM's failure in ``reason``.
        """
        import dspy

        where = f"turn {index + 1} of {n_turns}" + (" (first turn)" if index == 0 else "")
        try:
            with dspy.context(lm=self.lm):
                pred = self.module(turn=text[: self.max_chars], position=where,
                                   previous_agent_message=(previous or "")[-self.max_chars:])
            raw = str(getattr(pred, "act", "")).strip().lower()
            return ActLabel(act=UserAct(raw), reason=f"llm:{raw}", source="llm")
        except Exception as exc:  # noqa: BLE001 - any LM/parse failure falls back to rules
            rule = self.fallback.label(text, index=index, n_turns=n_turns, previous=previous)
            why = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
            return ActLabel(act=rule.act, reason=f"llm_invalid ({why}); {rule.reason}",
                            source="rules_fallback")
