"""The dataset card (``README.md``): Hub metadata, what was generated, how, and what was refused."""

from __future__ import annotations

from typing import Any

_DESCRIPTIONS = {
    "tasks": "accepted multi-turn tasks with their calibration evidence (samples, pass rates, "
             "posterior confidence)",
    "interactions": "every episode of every evaluated candidate: messages, tool calls, "
                    "rewards, solver, profile, task, seed",
    "sft": "conversations rejection-sampled at reward > {thr} (OpenAI chat format)",
    "rl": "RL prompts: opening messages, verifier spec, the simulated user's reference",
}


def render_card(*, name: str, counts: dict[str, int], provenance: dict[str, Any]) -> str:
    """The card's Markdown, with a YAML header naming one Hub config per split."""
    splits = [s for s in ("tasks", "interactions", "sft", "rl") if counts.get(s)]
    header = ["---", "configs:"]
    for s in splits:
        header += [f"- config_name: {s}", "  data_files:", "  - split: train",
                   f"    path: {s}.parquet"]
    header += ["tags:", "- autointeract", "- multi-turn", "- code", "- user-simulation", "---"]
    band = provenance.get("band", {})
    fw = provenance.get("firewall", {})
    thr = provenance.get("sft_threshold", 0.9)
    models = provenance.get("models", {})
    body = [
        f"# {name}", "",
        "Calibrated multi-turn coding tasks generated with "
        "autointeract from seed problems, simulated user profiles and "
        "two reference solvers. A task is accepted when the weak solver passes it at most "
        f"{band.get('weak_max', 0.4):.0%} of the time and the strong one at least "
        f"{band.get('strong_min', 0.7):.0%}, each decided sequentially at posterior "
        f"confidence {band.get('confidence', 0.9)}.", "",
        "## Splits", "", "| config | rows | contents |", "|---|---:|---|",
    ]
    for s in ("tasks", "interactions", "sft", "rl"):
        body.append(f"| {s} | {counts.get(s, 0)} | {_DESCRIPTIONS[s].format(thr=thr)} |")
    body += ["", "## How it was made", "",
             f"- seed problems: {_seeds(provenance)}",
             f"- weak solver: `{models.get('weak', 'n/a')}`; strong solver: "
             f"`{models.get('strong', 'n/a')}`",
             f"- simulated user: `{provenance.get('user', 'n/a')}`",
             f"- generator: `{models.get('generator', 'n/a')}`",
             f"- run seed: {provenance.get('seed')}, config hash: "
             f"`{provenance.get('config_hash', 'n/a')}`",
             f"- candidates: {_funnel(provenance.get('funnel') or {})}", "",
             "## Evaluation firewall", ""]
    if fw.get("enabled"):
        bench = ", ".join(fw.get("benchmarks") or []) or "(unnamed)"
        body += [f"Items were checked against the evaluation firewall for: {bench}.",
                 f"Refused: {len(fw.get('refused_seeds') or [])} seed problems, "
                 f"{fw.get('refused_generation', 0)} candidate variants at generation, "
                 f"{fw.get('refused_tasks', 0)} tasks and {fw.get('refused_sft', 0)} SFT "
                 "conversations at writing."]
    else:
        body.append("No evaluation firewall was configured for this run: nothing was checked "
                    "against evaluation benchmarks.")
    body += ["", "## Use", "", "```python", "from datasets import load_dataset",
             "tasks = load_dataset('REPO', 'tasks', split='train')", "```", "",
             "Versions and seeds are in `provenance.json`."]
    return "\n".join(header + [""] + body) + "\n"


def _seeds(prov: dict[str, Any]) -> str:
    src = prov.get("seeds_source") or {}
    ids = prov.get("seed_ids") or []
    fam = src.get("family", "n/a") if isinstance(src, dict) else str(src)
    return f"{fam} ({len(ids)}: {', '.join(ids[:12])}{', ...' if len(ids) > 12 else ''})"


def _funnel(f: dict[str, Any]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in f.items()) or "n/a"


__all__ = ["render_card"]
