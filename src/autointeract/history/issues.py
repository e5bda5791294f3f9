"""Load issues: a bad file or field is recorded by name and skipped, never raised."""

from __future__ import annotations

import logging

from pydantic import BaseModel

log = logging.getLogger("autointeract.history")


class LoadIssue(BaseModel):
    """One problem met while loading a corpus.

    Attributes:
        file: The file (or table) the problem was found in.
        field: The dotted field inside it (``messages.12.timestamp``), or ``<file>`` for the
            file as a whole.
        reason: What was wrong and what the loader did about it.
        skipped: True when the whole session was dropped because of it.
    """

    file: str
    field: str
    reason: str
    skipped: bool = False

    def __str__(self) -> str:
        tail = " (skipped)" if self.skipped else ""
        return f"{self.file}: {self.field}: {self.reason}{tail}"


class IssueLog(list[LoadIssue]):
    """A list of :class:`LoadIssue` that logs each one as it is added."""

    def add(self, file: str, field: str, reason: str, *, skipped: bool = False) -> LoadIssue:
        """Record (and log) one issue.

        Args:
            file: The file or table name.
            field: The dotted field path, or ``<file>``.
            reason: A one-line description.
            skipped: Whether the session was dropped.

        Returns:
            The recorded issue.
        """
        issue = LoadIssue(file=file, field=field, reason=reason, skipped=skipped)
        self.append(issue)
        (log.warning if skipped else log.info)("%s", issue)
        return issue

    @property
    def skipped_files(self) -> list[str]:
        """Names of the files whose session was dropped, in order, without repeats."""
        return list(dict.fromkeys(i.file for i in self if i.skipped))
