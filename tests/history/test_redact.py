from __future__ import annotations

import pytest

from autointeract.history.redact import contains_secret, redact, redact_counts

SECRETS = [
    ("key sk-abcdefghijklmnopqrstuvwx1234 here", "openai_key", "sk-abcdefghijklmnopqrstuvwx1234"),
    ("sk-ant-api03-abcdefghijklmnopqrstuv", "anthropic_key", "abcdefghijklmnopqrstuv"),
    ("id AKIAIOSFODNN7EXAMPLE ok", "aws_access_key", "AKIAIOSFODNN7EXAMPLE"),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github_token", "ghp_abcdef"),
    ("HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "hf_token", "hf_abcdef"),
    ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz123", "bearer", "abcdefghijklmnopq"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
     "private_key", "MIIEowIBAAKCAQEA"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk (cut off", "private_key", "b3BlbnNzaC1"),
    ("password = 'hunter2!!'", "assignment", "hunter2"),
    ("DB_PASSWORD=\"x9y8z7w6\"", "assignment", "x9y8z7w6"),
    ("OPENAI_API_KEY=abcd1234efgh", "assignment", "abcd1234efgh"),
    ("git clone https://bob:s3cretpw@github.com/x", "url_credentials", "s3cretpw"),
    ("xoxb-123456789012-abcdefghij", "slack_token", "xoxb-123456789012"),
]


@pytest.mark.parametrize(("text", "kind", "secret"), SECRETS)
def test_secret_is_redacted(text: str, kind: str, secret: str) -> None:
    out, counts = redact_counts(text)
    assert secret not in out
    assert f"[REDACTED:{kind}]" in out
    assert counts[kind] >= 1


@pytest.mark.parametrize("text", [
    "def login(password: str) -> bool:",
    "the password is wrong, try again",
    "api_key=os.environ['OPENAI_API_KEY']",
    "max token: 4096",
    "token: this is fine",
    "skip the sk- prefix check",
    "https://github.com/owner/repo",
    "#[light_account(associated_token::mint = mint_account)]",
])
def test_ordinary_text_is_kept(text: str) -> None:
    assert redact(text) == text
    assert not contains_secret(text)


def test_redaction_is_idempotent() -> None:
    once = redact("password=hunter22 and sk-abcdefghijklmnopqrstuvwx1234")
    assert redact(once) == once
