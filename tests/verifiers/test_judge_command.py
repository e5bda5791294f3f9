from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from autointeract.cli import main
from autointeract.verifiers.commands import judge


@pytest.fixture
def run_cli():
    app = typer.Typer()
    app.command()(judge)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_json_output_for_passing_and_failing(run_cli, tmp_path, sample_path, solutions):
    sol = tmp_path / "sol.py"
    sol.write_text(solutions["ai-top-average"])
    out = run_cli(sample_path, sol, "--problem-id", "ai-top-average", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data == {"problem_id": "ai-top-average", "passed": True, "passed_tests": 4,
                    "total_tests": 4, "verdicts": ["AC"] * 4}
    sol.write_text("def topAverage(nums, k):\n    return 0\n")
    data = json.loads(run_cli(sample_path, sol, "--problem-id", "ai-top-average", "--json").output)
    assert data["passed"] is False and data["verdicts"] == ["WA"] * 4


def test_bad_input_prints_one_line(tmp_path, sample_path, capsys):
    sol = tmp_path / "sol.py"
    sol.write_text("print(1)\n")
    for args in ([str(sample_path), str(sol), "--problem-id", "nope"],
                 [str(tmp_path / "missing.jsonl"), str(sol), "--problem-id", "x"],
                 [str(sample_path), str(tmp_path / "nosol.py"), "--problem-id", "ai-even-sum"]):
        with pytest.raises(SystemExit) as info:
            main(["judge", *args])
        assert info.value.code == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and "\n" not in err
