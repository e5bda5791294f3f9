"""The run report: one self-contained HTML page (figures embedded as base64 PNGs).

    path = write_report("runs/demo")        # -> runs/demo/report.html

``collect`` gathers the numbers from a calibration run (pure over its records);
``render`` turns them into HTML; ``write_report`` reads the files and writes the page.
"""

from __future__ import annotations

import base64
import html
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autointeract.errors import DataError
from autointeract.report import plots


@dataclass
class ReportData:
    """Everything the page shows."""

    title: str
    summary: dict[str, Any]
    points: list[dict[str, Any]] = field(default_factory=list)
    funnel: list[tuple[str, int]] = field(default_factory=list)
    accepted: list[dict[str, Any]] = field(default_factory=list)
    rewards: dict[str, list[float]] = field(default_factory=dict)
    usage: dict[str, Any] = field(default_factory=dict)
    band: dict[str, float] = field(default_factory=lambda: {"weak_max": 0.4, "strong_min": 0.7})


def find_calibration_dir(run_dir: str | Path) -> Path:
    """The folder holding ``candidates.jsonl``: ``run_dir`` itself or ``run_dir/generate``.

    Raises:
        DataError: neither holds a calibration run.
    """
    root = Path(run_dir)
    for d in (root, root / "generate"):
        if (d / "candidates.jsonl").is_file():
            return d
    raise DataError("no calibration run here (candidates.jsonl not found; run `autointeract "
                    "generate` or the generate stage first)", file=str(root))


def collect(candidates: list[dict[str, Any]], rewards: dict[str, list[float]], *,
            title: str, summary: dict[str, Any] | None = None,
            usage: dict[str, Any] | None = None) -> ReportData:
    """The report's numbers from candidate records and per-role rewards. Pure."""
    data = ReportData(title=title, summary=dict(summary or {}), rewards=rewards,
                      usage=dict(usage or {}))
    gen = [c["generation"] for c in candidates]
    evaluated = [c for c in candidates if c.get("evidence")]
    for c in evaluated:
        ev = c["evidence"]
        data.band = ev.get("band", data.band)
        data.points.append({"status": c["outcome"]["status"],
                            "weak_rate": ev["weak"]["passes"] / max(1, ev["weak"]["n"]),
                            "strong_rate": ev["strong"]["passes"] / max(1, ev["strong"]["n"]),
                            "n": ev["episodes"]})
    decided = [c for c in evaluated if c["outcome"]["status"] != "undecided"]
    acc = [c for c in evaluated if c["outcome"]["status"] == "accepted"]
    data.funnel = [("proposed", len(candidates)),
                   ("passed firewall", sum(g["status"] != "firewalled" for g in gen)),
                   ("reference agrees", sum(g["status"] == "ok" for g in gen)),
                   ("evaluated", len(evaluated)), ("decided", len(decided)),
                   ("accepted", len(acc))]
    for c in acc:
        ev, out = c["evidence"], c["outcome"]
        data.accepted.append({
            "task_id": out["task_id"], "seed_id": c["proposal"]["seed_id"],
            "level": c["proposal"]["level"], "weak": f"{ev['weak']['passes']}/{ev['weak']['n']}",
            "strong": f"{ev['strong']['passes']}/{ev['strong']['n']}",
            "p_in": round(min(ev["p_weak_in"], ev["p_strong_in"]), 3),
            "episodes": ev["episodes"], "tokens": out["tokens"], "wall_s": out["wall_s"]})
    n_acc = max(1, len(acc))
    wall = sum(c["outcome"]["wall_s"] for c in candidates)
    cost = float(data.usage.get("total", {}).get("cost_usd", data.summary.get("cost_usd", 0.0)))
    data.summary.update({
        "candidates": len(candidates), "accepted": len(acc),
        "acceptance_rate": round(len(acc) / len(candidates), 3) if candidates else 0.0,
        "episodes": sum(c["outcome"]["episodes"] for c in candidates),
        "tokens": sum(c["outcome"]["tokens"] for c in candidates),
        "candidate_wall_s": round(wall, 1), "wall_s_per_accepted": round(wall / n_acc, 1),
        "episodes_per_accepted": round(sum(c["outcome"]["episodes"] for c in candidates) / n_acc,
                                       1),
        "cost_usd": round(cost, 6), "cost_usd_per_accepted": round(cost / n_acc, 6)})
    return data


def _img(png: bytes, alt: str) -> str:
    return (f'<img alt="{html.escape(alt)}" src="data:image/png;base64,'
            f'{base64.b64encode(png).decode()}">')


def _table(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "<p><em>none</em></p>"
    cols = list(rows[0])
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(r.get(c, '')))}</td>" for c in cols)
                   + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


_CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;font-size:13px;margin:.5em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
        ".grid{display:flex;flex-wrap:wrap;gap:12px}img{max-width:540px}")


def render(data: ReportData) -> str:
    """The HTML page (self-contained: inline CSS, figures as data URIs)."""
    s = data.summary
    figs = [_img(plots.calibration_scatter(data.points, **data.band), "calibration scatter"),
            _img(plots.funnel(data.funnel), "acceptance funnel"),
            _img(plots.reward_histograms(data.rewards), "reward histograms")]
    if data.accepted:
        figs.append(_img(plots.cost_bars(data.accepted), "time per accepted task"))
    keys = ("stop_reason", "candidates", "accepted", "acceptance_rate", "episodes", "tokens",
            "episodes_per_accepted", "wall_s_per_accepted", "cost_usd", "cost_usd_per_accepted")
    head = [{"metric": k, "value": s[k]} for k in keys if k in s]
    usage = [{"stage": k, **{f: v.get(f) for f in ("calls", "cached_calls", "prompt_tokens",
                                                   "completion_tokens", "cost_usd")}}
             for k, v in data.usage.items() if isinstance(v, dict)]
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(data.title)}"
             f"</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(data.title)}</h1>",
             f"<p>Band: weak pass rate &le; {data.band['weak_max']:.0%}, strong pass rate "
             f"&ge; {data.band['strong_min']:.0%}.</p>",
             "<h2>Summary</h2>", _table(head), "<h2>Figures</h2>",
             f"<div class='grid'>{''.join(figs)}</div>",
             "<h2>Funnel</h2>", _table([{"step": a, "candidates": b} for a, b in data.funnel]),
             "<h2>Accepted tasks (cost and time)</h2>", _table(data.accepted),
             "<h2>LLM usage</h2>", _table(usage), "</body></html>"]
    return "\n".join(parts)


def write_report(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Read a run (pipeline folder or calibration folder) and write ``report.html``."""
    from autointeract.calibrate.store import RecordStore, atomic_write_text
    from autointeract.rollout.store import TrajectoryStore

    root = Path(run_dir)
    cal = find_calibration_dir(root)
    cands = list(RecordStore(cal / "candidates.jsonl", key="candidate_id").load().values())
    rewards: dict[str, list[float]] = defaultdict(list)
    seen: set[str] = set()
    for t in TrajectoryStore(cal / "interactions.jsonl", repair=False):
        if t.episode_id not in seen:
            seen.add(t.episode_id)
            rewards[str(t.meta.get("role") or t.solver)].append(t.reward)
    summary = _read_json(cal / "calibrate_summary.json")
    usage = _read_json(root / "llm_usage.json") or _read_json(cal / "llm_usage.json")
    data = collect(cands, dict(rewards), title=f"autointeract run report: {root.name}",
                   summary={k: summary[k] for k in ("stop_reason",) if k in summary},
                   usage=usage)
    return atomic_write_text(Path(out) if out else root / "report.html", render(data))


def _read_json(p: Path) -> dict[str, Any]:
    if not p.is_file():
        return {}
    try:
        return json.loads(p.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except json.JSONDecodeError:
        return {}


__all__ = ["ReportData", "collect", "find_calibration_dir", "render", "write_report"]
