"""Dataset writing: splits, schemas, SFT rejection sampling, RL rows, card, firewall, hub."""

import json

import pyarrow.parquet as pq
import pytest

from autointeract.dataset.rows import RLRow, SFTRow, read_rows
from autointeract.dataset.writer import hub_token, push_to_hub, write_datasets
from autointeract.errors import ConfigError, DataError
from autointeract.rollout.store import TrajectoryStore


def test_writes_every_split(cal_run, tmp_path):
    res = write_datasets(cal_run, tmp_path / "ds", provenance={"seed": 0, "config_hash": "abc"})
    c = res.counts
    assert c["tasks"] >= 1 and c["rl"] == c["tasks"]
    assert c["interactions"] == len(TrajectoryStore(cal_run / "interactions.jsonl").load())
    for split in ("tasks", "interactions", "sft", "rl"):
        assert pq.read_table(tmp_path / "ds" / f"{split}.parquet").num_rows == c[split]
    task = json.loads((tmp_path / "ds" / "tasks.jsonl").read_text().splitlines()[0])
    assert task["weak_rate"] <= 0.4 + 1e-9 or task["p_weak_in"] >= 0.8
    assert {"weak_n", "strong_n", "p_weak_in", "p_strong_in", "confidence"} <= set(task)
    prov = json.loads((tmp_path / "ds" / "provenance.json").read_text())
    assert prov["config_hash"] == "abc" and "python" in prov["versions"]
    card = (tmp_path / "ds" / "README.md").read_text()
    assert card.startswith("---\nconfigs:") and "No evaluation firewall" in card


def test_sft_rows_are_rejection_sampled(cal_run, tmp_path):
    write_datasets(cal_run, tmp_path, sft_threshold=0.9)
    rows = read_rows(tmp_path / "sft.jsonl", "sft")
    assert rows and all(isinstance(r, SFTRow) and r.reward > 0.9 for r in rows)
    first = rows[0].messages
    assert first[0].role == "system" and first[1].role == "user"
    assert any(m.tool_calls for m in first if m.role == "assistant")
    inter = [json.loads(x) for x in (tmp_path / "interactions.jsonl").read_text().splitlines()]
    assert len(rows) == sum(r["reward"] > 0.9 for r in inter)


def test_rl_rows_round_trip(cal_run, tmp_path):
    write_datasets(cal_run, tmp_path)
    rows = read_rows(tmp_path / "rl.jsonl", "rl")
    assert rows and all(isinstance(r, RLRow) for r in rows)
    r = rows[0]
    assert r.task().task_id == r.id and r.prompt[-1].content == r.task().initial_message
    assert r.meta["calibration"]["status"] == "accepted"
    assert r.user_model.profile is not None


def test_firewall_refusals_are_counted_and_stated(cal_run, tmp_path):
    class Wall:
        benchmarks = {"vowelbench": 1}

        def check(self, item):
            text = item if isinstance(item, str) else item.hidden_goal
            return "vowelbench:1" if "vowel" in text.lower() else None

    res = write_datasets(cal_run, tmp_path, firewall=Wall())
    assert res.refused["tasks"] >= 1
    rows = [json.loads(x) for x in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    assert all("vowel" not in r["hidden_goal"].lower() for r in rows)
    card = (tmp_path / "README.md").read_text()
    assert "vowelbench" in card and "Refused:" in card


def test_missing_run_is_a_data_error(tmp_path):
    with pytest.raises(DataError):
        write_datasets(tmp_path)


def test_push_without_token_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(ConfigError, match="no Hugging Face token"):
        hub_token()
    with pytest.raises(ConfigError, match="no Hugging Face token"):
        push_to_hub(tmp_path, "me/x")


def test_push_failure_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    with pytest.raises(ConfigError, match="push to 'me/x' failed"):
        push_to_hub(tmp_path, "me/x", token="hf_fake")
