"""User-facing errors. The CLI prints ``str(err)`` as one line and exits non-zero."""

from __future__ import annotations


class AutointeractError(Exception):
    """Base of every error the CLI reports as one line instead of a traceback."""


class ConfigError(AutointeractError):
    """A config or input file is wrong: names the file and the field."""

    def __init__(self, message: str, *, file: str | None = None, field: str | None = None):
        self.file, self.field, self.message = file, field, message
        parts = []
        if file:
            parts.append(file)
        if field:
            parts.append(f"field '{field}'")
        prefix = ": ".join(parts)
        super().__init__(f"{prefix}: {message}" if prefix else message)


class DataError(ConfigError):
    """A data file (session, problem set, dataset row) is malformed."""


class LLMError(AutointeractError):
    """An LLM call failed after its retries."""


class StructuredOutputError(LLMError):
    """The model's reply could not be parsed into the requested schema, even after repair."""

    def __init__(self, message: str, *, raw: str = ""):
        self.raw = raw
        super().__init__(message)


class ModelFileError(AutointeractError):
    """An embedded model file is missing or fails verification (sha256, GGUF header)."""


class SandboxUnavailable(AutointeractError):
    """A sandbox backend (e.g. docker) cannot be used on this machine."""
