"""User-act labels: a position-aware rule labeler and the labeling of whole sessions.

Rules are tried in a fixed order; the first that fires names the act and is recorded as the
reason (``rule:correction:negation``). The order encodes precedence:

1. the interruption marker (``[Request interrupted by user``) -> ``interruption``
2. the first genuine turn of a session -> ``request``
3. an opening negation or redirect ("no", "that's wrong", "instead", "don't", "revert")
   -> ``correction``
4. an error trace or a failure phrase ("doesn't work", "still failing", "Traceback")
   -> ``failure_report``
5. scope added ("also", "now add", "can you also", "one more thing") -> ``new_requirement``
6. a short acknowledgement ("thanks", "lgtm", "looks good", "perfect", "yes", "go ahead")
   -> ``approval``
7. a question ("?", or an opening wh-word / auxiliary not followed by "you") -> ``question``
8. an imperative or a polite ask ("fix ...", "can you ...", "please ...") -> ``request``
9. anything else -> ``other``
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel

from autointeract.history.text import INTERRUPT_MARKER
from autointeract.types import Session, UserAct

PUSHBACK_ACTS = frozenset({UserAct.CORRECTION, UserAct.FAILURE_REPORT, UserAct.INTERRUPTION})


class ActLabel(BaseModel):
    """One label: the act, why, and which labeler produced it (``rules``, ``llm``,
    ``rules_fallback``)."""

    act: UserAct
    reason: str
    source: str = "rules"


class ActLabeler(Protocol):
    """Anything that labels one genuine user turn given its position in the session."""

    def label(self, text: str, *, index: int, n_turns: int,
              previous: str | None = None) -> ActLabel:
        """Label ``text``, the ``index``-th of ``n_turns`` genuine user turns; ``previous`` is
        the agent's last message before it, when known."""
        ...


def _rx(*alts: str) -> re.Pattern[str]:
    return re.compile("|".join(alts), re.IGNORECASE)


_CORRECTION = _rx(
    r"^\s*(no|nope|nah|wrong|incorrect|not quite|not really|not what i|stop|wait|hold on|"
    r"revert|undo|roll ?back|actually|hmm+,? no)\b",
    r"^\s*(don'?t|do not|never|you (shouldn'?t|should not|didn'?t|did not|forgot|missed|broke))\b",
    r"\b(that'?s|this is|it'?s) (wrong|not (right|correct|what))",
    r"\binstead\b", r"\bi (said|asked|told you|meant)\b", r"\bwhy did you\b", r"\bi reverted\b",
    r"^\s*(it|this|that|they) (should|shouldn'?t|should not|must|must not)\b",
    r"\bi (want|wanted|meant) (it|them|this|that)\b",
    r"\bplease (revert|undo)\b", r"\bnot like that\b", r"\byou misunderstood\b",
)
_FAILURE = _rx(
    r"traceback \(most recent call last\)", r"^\s*\w*(error|exception)\b.*:", r"\berror\[e\d+",
    r"\b(doesn'?t|does not|didn'?t|did not|isn'?t|is not|won'?t|can'?t) (work|compile|build|run|"
    r"load|start|pass|show|render|fix)", r"\bnot (working|fixed|compiling|rendering)\b",
    r"\b(still|again) (fail\w*|broken|crash\w*|the same|not|doesn\S*|don\S*|isn\S*|get\w*|see\w*|"
    r"happen\w*|there|reads|uses|has|shows|returns|calls|prints|wrong|empty)\b",
    r"\b(fails?|failing|failed|crash(es|ed|ing)?|panic(s|ked)?|segfault|broke|broken|hangs?)\b",
    r"\b(i|we) (get|got|am getting|'m getting|see|saw) (an? |the |this )?(error|exception|warning)",
    r"\bexit (code|status) [1-9]", r"^\s*at \S+ \(.*:\d+:\d+\)", r"\bmust be fixed\b",
    r"\b(doesn'?t|does not|didn'?t|did not|won'?t|isn'?t) (actually|really|even|seem to) ",
)
_NEW_REQ = _rx(
    r"(^|[.!;]\s+)(also|additionally|and also|plus|oh and|one more thing|another thing|next,?|"
    r"then,? also)\b", r"^\s*and (a|an|add|maybe|make)\b",
    r"\b(can|could|would) you also\b", r"\b(let'?s|please|we should|we also need to) also\b",
    r"^\s*(ok(ay)?|great|nice|thanks|cool|good|perfect)[,.!]*\s+(now|next|also)\b",
    r"^\s*now (add|make|implement|write|create|support|do|let'?s|we need|can you|update|change)\b",
    r"\b(there is|there'?s) another (issue|thing|bug|problem)\b", r"\bas well\b",
    r"\bwe (also )?need (it )?to (also )?support\b", r"\badd (support|an option|a flag) for\b",
)
_APPROVAL = _rx(
    r"^\s*(thanks?|thank you|thx|ty|lgtm|looks good|looks great|perfect|great|awesome|nice|"
    r"excellent|good|good job|well done|cool|ok(ay|i)?|k|yes|yep|yeah|yup|sure|correct|exactly|"
    r"sounds good|go ahead|go for it|do it|proceed|continue|ship it|approved|works( now)?|"
    r"that works|it works|all good|great work|love it|\+1|👍)\b",
)
_QUESTION_START = _rx(
    r"^\s*(what|why|how|where|when|which|who|whose|is|are|was|were|does|do|did|has|have|"
    r"should|shall|will|would|could|can|may|might|isn'?t|aren'?t|doesn'?t|any idea)\b(?! you\b)",
)
_REQUEST_START = _rx(
    r"^\s*(now |then |and |so )?(please|pls|plz|(can|could|would|will) (you|we)|let'?s|lets|i want|"
    r"i need|i'?d like|we need|address|apply|resolve|handle|ignore|skip|continue with|/[\w:-]+|"
    r"make|add|fix|run|commit|push|create|write|implement|update|change|remove|delete|rename|"
    r"refactor|move|use|try|check|test|build|deploy|install|set|show|explain|read|look|find|"
    r"open|clean|bump|merge|rebase|review|analy[sz]e|debug|investigate|go|do|start|keep|just)\b",
)
_POLITE = _rx(r"^\s*(now |then |and |so )?(please|pls|plz|(can|could|would|will) (you|we)\b(?! (tell|explain|"
              r"think|see|confirm|check if|clarify)))")
_THANKS = _rx(r"\b(thanks|thank you|thx|works now|working now|lgtm|looks good|perfect)\b")
_APPROVAL_MAX_WORDS = 6


class RuleLabeler:
    """The deterministic labeler (see the module docstring for the rules, in order)."""

    def label(self, text: str, *, index: int, n_turns: int,
              previous: str | None = None) -> ActLabel:
        """Label one genuine user turn.

        Args:
            text: The turn.
            index: Its 0-based position among the session's genuine user turns.
            n_turns: How many genuine user turns the session has.
            previous: The agent's last message before the turn (unused by the rules).

        Returns:
            The label and the rule that produced it.
        """
        del n_turns, previous
        s = text.strip()
        if s.startswith(INTERRUPT_MARKER):
            return ActLabel(act=UserAct.INTERRUPTION, reason="rule:interruption:marker")
        if index == 0:
            return ActLabel(act=UserAct.REQUEST, reason="rule:request:first_turn")
        head = s[:600]
        ack = _APPROVAL.match(head)
        rest = head[ack.end():].lstrip(" ,.!-:;") if ack else head  # "ok, commit" -> "commit"
        asks = any(_REQUEST_START.search(p) for p in re.split(r"[.!;]\s+", rest))
        checks: list[tuple[UserAct, str, bool]] = [
            (UserAct.CORRECTION, "negation_or_redirect", bool(_CORRECTION.search(head))),
            (UserAct.FAILURE_REPORT, "failure_phrase_or_trace", bool(_FAILURE.search(s[:3000]))),
            (UserAct.NEW_REQUIREMENT, "scope_added", bool(_NEW_REQ.search(head))),
            (UserAct.APPROVAL, "short_acknowledgement", ack is not None and "?" not in s
             and (len(rest.split()) <= 2 or (len(s.split()) <= _APPROVAL_MAX_WORDS and not asks))),
            (UserAct.APPROVAL, "thanks", len(s.split()) <= 8 and "?" not in s
             and bool(_THANKS.search(head))),
            (UserAct.REQUEST, "polite_ask", asks and bool(_POLITE.match(rest))),
            (UserAct.QUESTION, "question_mark", "?" in s),
            (UserAct.QUESTION, "question_word", bool(_QUESTION_START.search(rest)) and not asks),
            (UserAct.REQUEST, "imperative_or_ask", asks),
            (UserAct.APPROVAL, "acknowledgement_then_more", ack is not None),
        ]
        for act, rule, fired in checks:
            if fired:
                return ActLabel(act=act, reason=f"rule:{act.value}:{rule}")
        return ActLabel(act=UserAct.OTHER, reason="rule:other:no_rule_fired")


def label_turns(turns: Sequence[str], *, labeler: ActLabeler | None = None,
                previous: Sequence[str | None] | None = None) -> list[ActLabel]:
    """Label a conversation's genuine user turns, in order.

    Args:
        turns: The user turns.
        labeler: The labeler; :class:`RuleLabeler` when omitted.
        previous: For each turn, the agent message before it (optional).

    Returns:
        One label per turn.
    """
    lab = labeler or RuleLabeler()
    n = len(turns)
    return [lab.label(t, index=i, n_turns=n, previous=previous[i] if previous else None)
            for i, t in enumerate(turns)]


def label_session(session: Session, *, labeler: ActLabeler | None = None) -> Session:
    """Return a copy of ``session`` whose genuine user turns carry ``meta.act``,
    ``meta.act_reason`` and ``meta.act_source``.

    Args:
        session: A normalized session.
        labeler: The labeler; :class:`RuleLabeler` when omitted.

    Returns:
        The labeled copy (the input is not modified).
    """
    out = session.model_copy(deep=True)
    user_idx = [i for i, m in enumerate(out.messages)
                if m.role == "user" and not m.meta.get("tool_result")]
    prev: list[str | None] = []
    for i in user_idx:
        before = [m.content for m in out.messages[:i] if m.role == "assistant" and m.content]
        prev.append(before[-1][-2000:] if before else None)
    labels = label_turns([out.messages[i].content for i in user_idx], labeler=labeler,
                         previous=prev)
    for i, lab in zip(user_idx, labels, strict=True):
        out.messages[i].meta.update(act=lab.act.value, act_reason=lab.reason, act_source=lab.source)
    return out


def session_acts(session: Session) -> list[UserAct]:
    """The acts of a session's genuine user turns: ``meta.act`` where it holds a valid act,
    the rule label elsewhere."""
    turns = session.user_turns()
    valid = {a.value for a in UserAct}
    if all(m.meta.get("act") in valid for m in turns):
        return [UserAct(m.meta["act"]) for m in turns]
    rules = label_turns([m.content for m in turns])
    return [UserAct(m.meta["act"]) if m.meta.get("act") in valid else lab.act
            for m, lab in zip(turns, rules, strict=True)]
