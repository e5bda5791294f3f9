"""Secret redaction, applied to every text before it is stored or put in a prompt.

One compiled alternation scans each text once. Each match is replaced by
``[REDACTED:<kind>]``; for ``password=...``-style assignments only the value is replaced, so
the text still reads naturally (``password=[REDACTED:assignment]``).
"""

from __future__ import annotations

import re
from collections import Counter

# kind -> (substrings, one of which must occur in the lower-cased text, pattern).
# The cheap substring test keeps a 30 MB corpus fast: most texts skip most patterns.
_PATTERNS: dict[str, tuple[tuple[str, ...], str]] = {
    "private_key": (("private key",), r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?"
                    r"(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)"),
    "anthropic_key": (("sk-ant-",), r"\bsk-ant-[A-Za-z0-9_\-]{16,}"),
    "openai_key": (("sk-",), r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    "stripe_key": (("_live_", "_test_"), r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}"),
    "aws_access_key": (("akia", "asia", "abia", "acca"), r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    "github_token": (("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
                     r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
    "hf_token": (("hf_",), r"\bhf_[A-Za-z0-9]{30,}"),
    "slack_token": (("xox",), r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    "google_api_key": (("aiza",), r"\bAIza[0-9A-Za-z_\-]{35}"),
    "jwt": (("eyj",), r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    "bearer": (("bearer",), r"(?i:bearer)\s+(?P<tok>[A-Za-z0-9._~+/=\-]{16,})"),
    "url_credentials": (("://",), r"(?<=://)[^\s:/@]{1,64}:[^\s@/]{3,}(?=@)"),
}

_ASSIGN_TRIGGERS = ("pass", "pwd", "secret", "key", "token")
_ASSIGN_KEYS = (r"password|passwd|pwd|passphrase|secret|secret[_-]?key|api[_-]?key|apikey|"
                r"access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|"
                r"private[_-]?key|secret_access_key|token")
# key, separator (with optional quotes), then the value; group "val" is what gets replaced.
_ASSIGN = re.compile(rf"(?P<akey>(?i:{_ASSIGN_KEYS})\b[\"']?\s*(?:=|:(?!:))\s*[\"']?)(?!:)"
                     r"(?P<val>[^\s\"',;)}\]]{4,})")

# values that are plainly not secrets (type annotations, placeholders, variable lookups)
_NOT_SECRET = re.compile(
    r"^(?:\d{1,6}|str|string|bytes|int|bool|none|null|nil|true|false|undefined|optional\[.*|"
    r"secretstr|required|os\.environ.*|process\.env.*|env\(.*|getenv.*|\$.*|<.*|\{.*|\*+|"
    r"x+|\.\.\.|\[redacted.*|self\..*|config\..*|settings\..*|args\..*)$",
    re.IGNORECASE,
)

_COMPILED = [(k, trig, re.compile(p)) for k, (trig, p) in _PATTERNS.items()]


def _marker(kind: str) -> str:
    return f"[REDACTED:{kind}]"


def redact_counts(text: str) -> tuple[str, Counter[str]]:
    """Redact secrets in ``text`` and count them by kind.

    Args:
        text: Any text (a user turn, a tool output, a file).

    Returns:
        The redacted text and a counter of redactions by kind.
    """
    counts: Counter[str] = Counter()
    if not text:
        return text, counts
    lower = text.lower()
    for kind, triggers, rx in _COMPILED:
        if any(t in lower for t in triggers):
            text, n = rx.subn("Bearer " + _marker(kind) if kind == "bearer" else _marker(kind), text)
            if n:
                counts[kind] += n
                lower = text.lower()

    def repl(m: re.Match[str]) -> str:
        value, key = m.group("val"), m.group("akey").lower()
        plain_word = value.isalpha() and value.islower() and "pass" not in key
        if plain_word or _NOT_SECRET.match(value) or value.endswith("("):
            return m.group(0)
        counts["assignment"] += 1
        return m.group("akey") + _marker("assignment")

    if any(t in lower for t in _ASSIGN_TRIGGERS):
        text = _ASSIGN.sub(repl, text)
    return text, counts


def redact(text: str) -> str:
    """Return ``text`` with every recognised secret replaced by ``[REDACTED:<kind>]``.

    Args:
        text: Any text.

    Returns:
        The redacted text (unchanged when nothing matched).
    """
    return redact_counts(text)[0]


def contains_secret(text: str) -> bool:
    """Whether ``text`` holds anything :func:`redact` would replace."""
    return bool(redact_counts(text)[1])
