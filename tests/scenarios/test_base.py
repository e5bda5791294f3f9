from __future__ import annotations

import json

import pytest

from autointeract.errors import ConfigError, DataError
from autointeract.scenarios import SCENARIOS, get_scenario, load_tasks
from autointeract.scenarios.base import iter_rows


def test_registry_names_every_family():
    assert set(SCENARIOS) == {"builtin", "livecodebench", "lcbpro", "swetogether", "swebench"}
    for name in SCENARIOS:
        sc = get_scenario(name)
        assert sc.name == name


def test_unknown_family_and_option_are_config_errors():
    with pytest.raises(ConfigError, match="unknown scenario 'nope'"):
        load_tasks("nope")
    with pytest.raises(ConfigError) as exc:
        load_tasks("builtin", colour="red")
    assert exc.value.field == "colour"


def test_limit_and_ids_select_in_source_order():
    all_ids = [t.task_id for t in load_tasks("builtin")]
    assert [t.task_id for t in load_tasks("builtin", limit=3)] == all_ids[:3]
    picked = load_tasks("builtin", ids=[all_ids[4], all_ids[1]])
    assert [t.task_id for t in picked] == [all_ids[1], all_ids[4]]


def test_iter_rows_errors_name_file_and_row(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text('{"a": 1}\n\n{"a": \n')
    with pytest.raises(DataError) as exc:
        list(iter_rows(p))
    assert exc.value.file == str(p) and exc.value.field == "row 3"
    (tmp_path / "x.csv").write_text("a")
    with pytest.raises(DataError, match="unsupported file type"):
        list(iter_rows(tmp_path / "x.csv"))
    with pytest.raises(DataError, match="file not found"):
        list(iter_rows(tmp_path / "missing.jsonl"))


def test_iter_rows_reads_parquet_and_json(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist([{"x": 1}, {"x": 2}]), tmp_path / "r.parquet")
    assert [r for _, r in iter_rows(tmp_path / "r.parquet")] == [{"x": 1}, {"x": 2}]
    (tmp_path / "r.json").write_text(json.dumps([{"x": 3}]))
    assert list(iter_rows(tmp_path / "r.json")) == [(1, {"x": 3})]
