"""A rich progress display for the calibration loop: candidates, acceptance rate, cost."""

from __future__ import annotations

from typing import Any


class LiveProgress:
    """A context manager showing the loop's progress (a no-op when ``enabled`` is False).

    Args:
        enabled: draw anything at all.
        total: the candidate budget (the bar's length; None: indeterminate).
        usage: the LLM client's usage tracker (for the live cost).
    """

    def __init__(self, *, enabled: bool = True, total: int | None = None, usage: Any = None):
        self.enabled, self.total, self.usage = enabled, total, usage
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> LiveProgress:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

            self._bar = Progress("[progress.description]{task.description}", BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 "{task.fields[stats]}", transient=False)
            self._bar.start()
            self._task = self._bar.add_task("candidates", total=self.total, stats="")
        return self

    def update(self, ctrl: Any) -> None:
        """Refresh from the controller's counters."""
        if self._bar is None:
            return
        told = ctrl.n_told
        rate = ctrl.accepted / told if told else 0.0
        cost = 0.0
        if self.usage is not None:
            cost = float(self.usage.summary().get("total", {}).get("cost_usd", 0.0))
        stats = (f"accepted {ctrl.accepted} ({rate:.0%}) | episodes "
                 f"{ctrl.totals['episodes']} | ${cost:.4f}")
        self._bar.update(self._task, completed=told, stats=stats)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
