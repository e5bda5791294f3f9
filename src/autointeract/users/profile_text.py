"""Render a :class:`~autointeract.types.UserProfile` into text for the simulator's context.

Every parameter lies in [0, 1] and is rendered as one plain sentence chosen by band (low,
middle, high), so the same profile always gives the same text and a reader can tell from the
prompt what each number did.
"""

from __future__ import annotations

from autointeract.types import UserProfile

# parameter -> (low, middle, high) sentences
_BANDS: dict[str, tuple[str, str, str]] = {
    "expertise": (
        "You are new to this codebase and language; you describe symptoms, not causes.",
        "You know the codebase reasonably well and can name files and functions.",
        "You are an expert here; you use precise technical terms and spot wrong approaches.",
    ),
    "verbosity": (
        "You write very short messages: a few words, rarely more than one line.",
        "You write one or two sentences per message.",
        "You write several sentences when it helps, with context and reasons.",
    ),
    "patience": (
        "You are impatient: after a couple of unhelpful replies you give up.",
        "You give the agent a few tries before you lose patience.",
        "You are patient and let the agent work through several attempts.",
    ),
    "specificity": (
        "Your requests are vague; you leave details for the agent to figure out.",
        "Your requests name the main thing you want but leave some details open.",
        "Your requests are specific: exact behavior, names and edge cases.",
    ),
    "pushback": (
        "You rarely push back; you accept the agent's work unless it is clearly broken.",
        "You push back when something is wrong or untested.",
        "You push back hard and often: you question claims and demand proof it works.",
    ),
    "reveal_eagerness": (
        "You hold back details until the agent gets something wrong or asks.",
        "You mention further requirements as they come to mind.",
        "You share requirements early, often several at once.",
    ),
}
_TYPOS = (
    "You type carefully, without typos.",
    "You make an occasional typo and do not fix it.",
    "You type fast: frequent typos, missing capitals and punctuation.",
)


def band(value: float) -> int:
    """The band of a [0, 1] value: 0 below 1/3, 2 from 2/3, else 1."""
    v = min(max(float(value), 0.0), 1.0)
    return 0 if v < 1 / 3 else 2 if v >= 2 / 3 else 1


def render_profile(profile: UserProfile) -> str:
    """The profile as a short "Who you are" section.

    Args:
        profile: The user profile.

    Returns:
        Markdown text: the persona (if any) then one sentence per parameter.
    """
    lines = ["## Who you are"]
    if profile.persona.strip():
        lines.append(profile.persona.strip())
    for name, sentences in _BANDS.items():
        lines.append(f"- {sentences[band(getattr(profile, name))]}")
    typo = profile.typo_rate
    lines.append(f"- {_TYPOS[0 if typo < 0.03 else 1 if typo < 0.12 else 2]}")
    return "\n".join(lines)


def patience_turns(profile: UserProfile, *, minimum: int = 3, maximum: int = 12) -> int:
    """How many replies the user gives before running out of patience."""
    p = min(max(profile.patience, 0.0), 1.0)
    return minimum + round(p * (maximum - minimum))
