"""``autointeract eval``: evaluate an agent on multi-turn benchmarks; compare two evaluations.

``autointeract eval CONFIG`` is short for ``autointeract eval run CONFIG``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup


class _DefaultRun(TyperGroup):
    """A group whose unknown first word is the ``run`` command's argument."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DefaultRun, no_args_is_help=True, add_completion=False,
    help=("Evaluate an agent on multi-turn benchmarks with a simulated user; compare runs.\n\n"
          "Examples:\n\n"
          "  autointeract eval pipelines/eval_builtin.yaml      (the eval stages of a pipeline)\n\n"
          "  autointeract eval run eval.yaml -c agent.model=openai/gpt-4o-mini -c k=4\n\n"
          "  autointeract eval compare runs/eval_builtin/weak runs/eval_builtin/strong"))


def _print(objs: list[Any]) -> None:
    import sys

    from rich.console import Console

    console = Console(width=None if sys.stdout.isatty() else 120)
    for o in objs:
        console.print(o)


@app.command("run")
def run_cmd(
    config: Annotated[Path, typer.Argument(help="An eval YAML (EvalConfig), or a pipeline YAML "
                                           "whose eval stages are run.")],
    overrides: Annotated[list[str] | None, typer.Option(
        "-c", "--config", help="Dotted override, e.g. -c k=4 -c agent.max_turns=6.")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output folder (default: "
                                             "out_dir of the config).")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Run every benchmark task k times (seeds) and write trajectories + report.

    Examples:

      autointeract eval run eval.yaml

      autointeract eval run eval.yaml -c user.kind=replay -c benchmarks.0.family=swetogether
      -c 'benchmarks.0.source=$AUTOINTERACT_SWE_TOGETHER' -c benchmarks.0.limit=3

      autointeract eval run eval.yaml -c user.kind=learned -c user.path=user_models/fitted
      -c user.model=local/smollm2-135m

      autointeract eval pipelines/eval_builtin.yaml     (runs the pipeline's eval stages)

    The output folder holds trajectories.jsonl (rerunning resumes: finished episodes are
    skipped), tasks.jsonl, behavior_runs.jsonl and report.json. Docker-bound SWE-Together
    tasks are verified in their image when a docker engine answers; otherwise the
    conversation runs and the runs are reported as unverified (left out of pass metrics).
    """
    from autointeract.config import load_config, read_yaml, write_provenance
    from autointeract.eval.config import EvalConfig
    from autointeract.eval.report import report_tables
    from autointeract.eval.runner import run_eval
    from autointeract.llm import LLMClient

    if "stages" in read_yaml(config):
        _run_pipeline_evals(config, overrides)
        return
    cfg = load_config(EvalConfig, config, overrides)
    out_dir = out or Path(cfg.out_dir.format(name=cfg.name, seed=cfg.seed))
    write_provenance(out_dir, cfg, seed=cfg.seed, stage="eval")
    client = LLMClient(cfg.llm)
    res = run_eval(cfg, client=client, out_dir=out_dir, progress=progress, log=typer.echo)
    (out_dir / "llm_usage.json").write_text(json.dumps(client.usage.summary(), indent=2))
    _print(report_tables(res.report))
    typer.echo(f"{res.new} episodes run, {res.skipped} already done, {len(res.failed)} failed; "
               f"report: {out_dir / 'report.json'}")
    for eid, err in res.failed[:5]:
        typer.echo(f"  failed {eid}: {err}", err=True)
    if res.failed:
        raise typer.Exit(1)


def _run_pipeline_evals(config: Path, overrides: list[str] | None) -> None:
    from autointeract.config import load_config
    from autointeract.errors import ConfigError
    from autointeract.eval.report import load_report, report_tables
    from autointeract.pipeline import PipelineConfig, run_pipeline

    cfg = load_config(PipelineConfig, config, overrides)
    labels = [e.name or e.stage for e in cfg.stages if e.stage == "eval"]
    if not labels:
        raise ConfigError("the pipeline has no eval stage", file=str(config), field="stages")
    ctx = run_pipeline(cfg, config_file=str(config), only=labels, log=typer.echo)
    for label in labels:
        out = ctx.outputs.get(label, {})
        if out.get("out_dir"):
            _print(report_tables(load_report(out["out_dir"])))
        if out.get("compare"):
            typer.echo(f"comparison: {out['compare']}")


@app.command("compare")
def compare_cmd(
    a: Annotated[Path, typer.Argument(help="Evaluation folder A (the baseline).")],
    b: Annotated[Path, typer.Argument(help="Evaluation folder B (deltas are B − A).")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for compare.json and "
                                             "compare.png (default: B/compare_vs_<A>).")] = None,
    n_boot: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 2000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
) -> None:
    """Paired comparison of two evaluations of the same tasks and seeds.

    Prints each metric's delta (B − A) with a 95% paired-bootstrap interval over tasks,
    the behavior metrics of both sides, and writes compare.json and compare.png.

    Example:

      autointeract eval compare runs/eval_builtin/weak runs/eval_builtin/strong
    """
    from autointeract.eval.compare import compare_dirs, compare_tables, plot_compare
    from autointeract.eval.report import behavior_table

    cmp = compare_dirs(a, b, n_boot=n_boot, seed=seed)
    dest = out or (b / f"compare_vs_{a.name}")
    dest.mkdir(parents=True, exist_ok=True)
    tmp = dest / ".compare.json.tmp"
    tmp.write_text(json.dumps(cmp, indent=2, default=str), encoding="utf-8")
    tmp.replace(dest / "compare.json")
    png = plot_compare(cmp, dest / "compare.png")
    labels = cmp["labels"]
    _print([*compare_tables(cmp), behavior_table(
        [(f"A: {labels['a']}", cmp["behavior"]["a"]), (f"B: {labels['b']}", cmp["behavior"]["b"])],
        title="behavior (Table 4) of both sides")])
    p = cmp["pairing"]
    if p["only_a"] or p["only_b"]:
        typer.echo(f"note: {p['only_a']} run(s) only in A and {p['only_b']} only in B "
                   "were left out")
    typer.echo(f"wrote {dest / 'compare.json'} and {png}")


@app.command("audit")
def audit_cmd(
    config: Annotated[Path, typer.Argument(help="The eval YAML whose benchmarks are checked "
                                           "for (its benchmarks: section).")],
    data: Annotated[list[Path], typer.Argument(help="Dataset folders (their *.jsonl) or JSONL "
                                               "files: tasks, RL rows, SFT rows, TaskSpecs.")],
    overrides: Annotated[list[str] | None, typer.Option(
        "-c", "--config", help="Dotted override of the eval config.")] = None,
    threshold: Annotated[float, typer.Option(help="Containment at which a row matches.")] = 0.5,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the audit as JSON.")] = None,
) -> None:
    """Check that no row of a training dataset matches a benchmark of this evaluation.

    Exits 1 when a row matches (so CI can gate on it) and lists the matches.

    Examples:

      autointeract eval audit eval.yaml runs/generate/dataset

      autointeract eval audit pipelines/eval_builtin.yaml runs/gen/dataset/rl.jsonl
    """
    from autointeract.config import load_config, read_yaml
    from autointeract.eval.audit import audit_paths, firewall_for
    from autointeract.eval.config import EvalConfig

    raw = read_yaml(config)
    if "stages" in raw:  # a pipeline: the union of its eval stages' benchmarks
        benches = [b for st in raw["stages"] if st.get("stage") == "eval"
                   for b in (st.get("params") or {}).get("benchmarks", [])]
        benches = list({json.dumps(b, sort_keys=True): b for b in benches}.values())
        cfg = EvalConfig.model_validate({"benchmarks": benches or [{"family": "builtin"}]})
    else:
        cfg = load_config(EvalConfig, config, overrides)
    res = audit_paths(data, firewall_for(cfg, threshold=threshold))
    if out:
        out.write_text(json.dumps(res, indent=2), encoding="utf-8")
    for leak in res["leaks"][:20]:
        typer.echo(f"LEAK {leak['file']}:{leak['line']} {leak['id']} -> {leak['match']}")
    n = len(res["leaks"])
    typer.echo(f"{res['rows']} rows in {len(res['files'])} file(s) checked against "
               f"{sum(res['firewall']['benchmarks'].values())} benchmark items: {n} match(es)")
    if n:
        raise typer.Exit(1)
