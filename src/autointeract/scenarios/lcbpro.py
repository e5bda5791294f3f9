"""Multi-turn LiveCodeBench-Pro: Codeforces/ICPC-style stdin problems with test archives.

Rows have ``problem_id``, ``problem_title``, ``difficulty``, ``problem_statement`` (and, when
present, ``contest_date``/``date``, ``time_limit``, ``memory_limit``, ``platform``). Each
problem has one test archive. Local layout::

    <root>/
      problems.jsonl             # or any .jsonl/.json/.parquet files of rows
      testcases/
        <problem_id>.zip         # or .tar/.tar.gz/.tgz, or a folder <problem_id>/
                                 # holding 1.in/1.out, input/1.txt+output/1.txt, ...

``source`` may also be the rows file itself (archives then come from ``testcases_dir``, by
default ``testcases/`` next to it). From the hub, rows come from ``hub_dataset`` and each
archive ``<problem_id>.zip`` from the ``hub_testcases`` dataset repo (downloaded to the
hub cache). A problem without an archive is skipped when ``skip_missing_tests`` is set,
else it is an error. Tests are read in natural order and cut to ``max_tests``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar

from autointeract.errors import DataError
from autointeract.scenarios.archives import find_archive, read_test_pairs
from autointeract.scenarios.base import ScenarioConfig, require, select
from autointeract.scenarios.hub import is_local, rows
from autointeract.scenarios.lcb import statement_task
from autointeract.types import TaskSpec, TestCase, VerifierSpec

REQUIRED = ("problem_id", "problem_statement")


class LCBProConfig(ScenarioConfig):
    """Options of the LiveCodeBench-Pro scenario.

    Attributes:
        testcases_dir: folder of per-problem archives (default ``<root>/testcases``).
        hub_dataset: hub id of the problem rows (used when ``source`` is None).
        hub_split: split of the hub dataset (releases are published as splits).
        hub_testcases: hub dataset repo holding ``<problem_id>.zip`` archives.
        after: keep problems with a date ``>= after`` (ISO; rows without a date are kept).
        difficulties: keep only these difficulties (empty: all).
        max_tests: keep at most this many tests per problem (natural order).
        time_limit_s: per-test limit when the row gives none.
        memory_mb: memory limit when the row gives none.
        skip_missing_tests: skip (instead of failing on) problems with no archive.
        max_details: most legend sentences held back as separate requirements.
    """

    testcases_dir: str | None = None
    hub_dataset: str = "QAQAQAQAQ/LiveCodeBench-Pro"
    hub_split: str = "test"
    hub_testcases: str = "QAQAQAQAQ/LiveCodeBench-Pro-Testcase"
    after: str | None = None
    difficulties: list[str] = []
    max_tests: int = 30
    time_limit_s: float = 4.0
    memory_mb: int = 512
    skip_missing_tests: bool = False
    max_details: int = 3


def _seconds(raw: Any, default: float) -> float:
    """``2``, ``"2 seconds"``, ``"2000 ms"``, ``2000`` (ms, when > 100) -> seconds."""
    if raw in (None, ""):
        return default
    m = re.search(r"[\d.]+", str(raw))
    if not m:
        return default
    value = float(m.group())
    return value / 1000 if "ms" in str(raw).lower() or value > 100 else value


def _megabytes(raw: Any, default: int) -> int:
    m = re.search(r"\d+", str(raw or ""))
    return int(m.group()) if m else default


def _hub_archive(repo: str, problem_id: str) -> Path | None:
    from huggingface_hub import hf_hub_download

    try:
        return Path(hf_hub_download(repo, f"{problem_id}.zip", repo_type="dataset"))
    except Exception:  # noqa: BLE001 - missing file, offline, auth: all mean "no archive"
        return None


class LCBProScenario:
    """LiveCodeBench-Pro rows plus per-problem test archives (local layout or the hub)."""

    name: ClassVar[str] = "lcbpro"
    config_cls: ClassVar[type[ScenarioConfig]] = LCBProConfig

    def __init__(self, config: LCBProConfig | None = None) -> None:
        self.config = config or LCBProConfig()

    def _tests_dir(self, source: str | Path | None) -> Path | None:
        if self.config.testcases_dir:
            return Path(self.config.testcases_dir)
        if source is None or not is_local(source):
            return None
        p = Path(source)
        return (p if p.is_dir() else p.parent) / "testcases"

    def _rows_source(self, source: str | Path | None) -> str | Path:
        if source is None:
            return self.config.hub_dataset
        p = Path(source)
        if p.is_dir() and not any(p.glob("*.jsonl")) and not any(p.glob("*.parquet")) \
                and not any(p.glob("*.json")):
            raise DataError("no problem rows (.jsonl/.json/.parquet) in the folder", file=str(p))
        return source

    def task(self, row: dict[str, Any], *, file: str, index: int,
             tests_dir: Path | None) -> TaskSpec | None:
        """One row as a TaskSpec; None when its archive is missing and skipping is on.

        Raises:
            DataError: a missing field, a missing archive (unless skipped) or a bad archive.
        """
        cfg = self.config
        where = f"row {index}"
        require(row, REQUIRED, file=file, where=where)
        pid = str(row["problem_id"])
        archive = find_archive(tests_dir, pid) if tests_dir else _hub_archive(cfg.hub_testcases, pid)
        if archive is None:
            if cfg.skip_missing_tests:
                return None
            raise DataError(f"no test archive for problem '{pid}' in {tests_dir or cfg.hub_testcases}",
                            file=file, field=f"{where}.problem_id")
        pairs = read_test_pairs(archive)[: cfg.max_tests]
        spec = VerifierSpec(
            kind="stdin", tests=[TestCase(input=i, output=o) for i, o in pairs],
            time_limit_s=_seconds(row.get("time_limit"), cfg.time_limit_s),
            memory_mb=_megabytes(row.get("memory_limit"), cfg.memory_mb),
            meta={"question_id": pid, "n_public": 0, "archive": str(archive)})
        date = str(row.get("contest_date") or row.get("date") or "")
        return statement_task(
            task_id=pid, family="lcbpro", title=str(row.get("problem_title") or ""),
            statement=str(row["problem_statement"]), spec=spec, n_public=0, seed=cfg.seed,
            difficulty=str(row.get("difficulty") or "") or None, max_details=cfg.max_details,
            meta={"contest_date": date, "platform": str(row.get("platform") or "codeforces"),
                  "source": "lcbpro"})

    def load(self, source: str | Path | None = None) -> list[TaskSpec]:
        """Tasks of ``source`` (a rows file or a root folder; None: the hub).

        Raises:
            DataError: malformed rows or archives (file, row and field named), no hub access.
        """
        cfg = self.config
        tests_dir = self._tests_dir(source)
        tasks = []
        for file, i, row in rows(self._rows_source(source), split=cfg.hub_split):
            if cfg.ids and isinstance(row, dict) and str(row.get("problem_id")) not in cfg.ids:
                continue
            date = str(row.get("contest_date") or row.get("date") or "") if isinstance(row, dict) else ""
            if cfg.after and date and date[:10] < cfg.after:
                continue
            if cfg.difficulties and isinstance(row, dict) and row.get("difficulty") not in cfg.difficulties:
                continue
            task = self.task(row, file=file, index=i, tests_dir=tests_dir)
            if task is not None:
                tasks.append(task)
        return select(tasks, cfg)
