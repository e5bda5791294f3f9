"""The report's figures, each a PNG as bytes (matplotlib, Agg backend, no display needed)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

_COLORS = {"accepted": "#2a9d8f", "too_easy": "#e9c46a", "too_hard": "#e76f51",
           "undecided": "#8d99ae", "inverted": "#6d597a"}


def _figure(w: float = 5.5, h: float = 4.0) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), dpi=100)
    return fig, fig.add_subplot(1, 1, 1)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def calibration_scatter(points: Sequence[dict[str, Any]], *, weak_max: float,
                        strong_min: float) -> bytes:
    """Weak vs strong pass rate per evaluated candidate; the band drawn as a shaded box."""
    from matplotlib.patches import Rectangle

    fig, ax = _figure()
    ax.add_patch(Rectangle((0, strong_min), weak_max, 1 - strong_min, color="#2a9d8f",
                           alpha=0.12, label="band"))
    for status in sorted({p["status"] for p in points}):
        sel = [p for p in points if p["status"] == status]
        ax.scatter([p["weak_rate"] for p in sel], [p["strong_rate"] for p in sel],
                   s=[20 + 6 * p.get("n", 0) for p in sel], alpha=0.75,
                   color=_COLORS.get(status, "#333333"), label=f"{status} ({len(sel)})")
    ax.axvline(weak_max, color="#555", lw=0.8, ls="--")
    ax.axhline(strong_min, color="#555", lw=0.8, ls="--")
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel("weak solver pass rate")
    ax.set_ylabel("strong solver pass rate")
    ax.set_title("Calibration (marker size: episodes)")
    ax.legend(fontsize=7, loc="lower right")
    return _png(fig)


def funnel(stages: Sequence[tuple[str, int]]) -> bytes:
    """Horizontal bars: candidates surviving each step."""
    fig, ax = _figure(5.5, 0.5 + 0.45 * len(stages))
    names = [s for s, _ in stages][::-1]
    vals = [v for _, v in stages][::-1]
    ax.barh(names, vals, color="#264653")
    for i, v in enumerate(vals):
        ax.text(v, i, f" {v}", va="center", fontsize=8)
    ax.set_xlabel("candidates")
    ax.set_title("Acceptance funnel")
    return _png(fig)


def reward_histograms(rewards: dict[str, list[float]]) -> bytes:
    """One reward histogram per solver role, overlaid."""
    fig, ax = _figure()
    bins = [i / 10 for i in range(11)]
    for role, vals in sorted(rewards.items()):
        if vals:
            ax.hist(vals, bins=bins, alpha=0.55, label=f"{role} (n={len(vals)})")
    ax.set_xlabel("trajectory reward")
    ax.set_ylabel("episodes")
    ax.set_title("Reward by solver")
    if rewards:
        ax.legend(fontsize=8)
    return _png(fig)


def cost_bars(rows: Sequence[dict[str, Any]]) -> bytes:
    """Wall time and episodes per accepted task."""
    fig, ax = _figure(5.5, 3.2)
    names = [r["task_id"][-18:] for r in rows]
    ax.bar(names, [r["wall_s"] for r in rows], color="#f4a261")
    ax.set_ylabel("wall seconds")
    ax.set_title("Time per accepted task")
    ax.tick_params(axis="x", labelrotation=30, labelsize=7)
    return _png(fig)


__all__ = ["calibration_scatter", "cost_bars", "funnel", "reward_histograms"]
