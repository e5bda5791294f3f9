"""``autointeract judge``: judge one solution file against one LiveCodeBench-format problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from autointeract.errors import DataError


def judge(
    problems: Annotated[Path, typer.Argument(help="LiveCodeBench-format JSONL of problems.")],
    solution: Annotated[Path, typer.Argument(help="The Python solution file.")],
    problem_id: Annotated[str, typer.Option("--problem-id", help="question_id to judge.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    public_only: Annotated[bool, typer.Option("--public-only",
                                              help="Run only the public tests.")] = False,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per test.")] = 4.0,
) -> None:
    """Judge SOLUTION on a problem's tests; exits 0 whatever the verdict.

    Example:

      autointeract judge data/problems/lcb_sample.jsonl sol.py --problem-id ai-even-sum --json
    """
    from autointeract.verifiers.judge import judge as run_judge
    from autointeract.verifiers.lcb_format import find_problem, load_lcb_jsonl

    probs = load_lcb_jsonl(problems)
    prob = find_problem(probs, problem_id, file=str(problems))
    if not solution.is_file():
        raise DataError("file not found", file=str(solution))
    try:
        code = solution.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DataError("not UTF-8 text", file=str(solution)) from None
    spec = prob.to_verifier_spec(include_private=not public_only, time_limit_s=time_limit)
    result = run_judge(spec, code)
    verdicts = [c.verdict for c in result.criteria]
    out = {"problem_id": prob.question_id, "passed": result.passed,
           "passed_tests": sum(c.passed for c in result.criteria),
           "total_tests": len(result.criteria), "verdicts": verdicts}
    if as_json:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"{prob.question_id}: {'PASSED' if out['passed'] else 'FAILED'} "
               f"{out['passed_tests']}/{out['total_tests']}  {' '.join(verdicts)}")
    for c in result.criteria:
        if not c.passed and c.detail:
            typer.echo(f"  {c.name} {c.verdict}: {c.detail}")
