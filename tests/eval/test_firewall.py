"""The evaluation firewall: fingerprints, near-duplicates, the time split, and acceptance —
``generate`` refuses benchmark items as seeds, the dataset writer refuses a near-duplicate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autointeract.errors import ConfigError, DataError
from autointeract.eval.firewall import (
    BenchmarkItem,
    Firewall,
    FirewallConfig,
    build_firewall,
    split_by_date,
    task_item,
)
from autointeract.scenarios import load_tasks
from autointeract.types import TaskSpec

ROOT = Path(__file__).resolve().parents[2]
LCB = ROOT / "data" / "problems" / "lcb_sample.jsonl"
BUILTIN_FW = {"benchmarks": [{"name": "builtin", "family": "builtin"}]}


@pytest.fixture(scope="module")
def builtin() -> list[TaskSpec]:
    return load_tasks("builtin")


@pytest.fixture(scope="module")
def fw(builtin: list[TaskSpec]) -> Firewall:
    f = Firewall()
    f.register("builtin", [task_item(t) for t in builtin])
    return f


def paraphrase(task: TaskSpec) -> str:
    """A light rewording of a builtin statement: a few words changed, one sentence added."""
    text = task.hidden_goal.replace("Write a function", "Please implement a function")
    text = text.replace("returns", "gives back").replace("string", "text string")
    return "Hi! " + text + " Thanks a lot."


def test_exact_copy_and_case_or_punctuation_changes_match(fw: Firewall,
                                                          builtin: list[TaskSpec]) -> None:
    t = builtin[1]
    m = fw.check(t.hidden_goal.upper().replace(".", " . "))
    assert m is not None and m.exact and m.item_id == t.task_id and m.benchmark == "builtin"
    assert "builtin:" in str(m)


def test_paraphrase_is_caught_for_every_builtin(fw: Firewall, builtin: list[TaskSpec]) -> None:
    for t in builtin:
        m = fw.match([paraphrase(t)])
        assert m is not None and m.item_id == t.task_id, (t.task_id, m)


def test_distinct_problems_do_not_match_each_other(builtin: list[TaskSpec]) -> None:
    lcb = load_tasks("livecodebench", str(LCB))
    pool = builtin + lcb
    for i, t in enumerate(pool):
        f = Firewall()
        f.register("others", [task_item(x) for j, x in enumerate(pool) if j != i])
        assert f.match([x for x in task_item(t).texts]) is None, t.task_id


def test_boilerplate_and_short_texts_do_not_trigger(fw: Firewall) -> None:
    assert fw.check("Write a function that returns the answer.") is None
    assert fw.check("") is None
    assert fw.check([]) is None


def test_counts_and_card(builtin: list[TaskSpec]) -> None:
    f = Firewall()
    f.register("builtin", [task_item(t) for t in builtin])
    f.check(builtin[0])
    f.check("something entirely new about parsing dates from log files, written for this test")
    card = f.card_section()
    assert card["candidates_checked"] == 2 and card["refused"] == {"builtin": 1}
    assert card["benchmarks"] == {"builtin": len(builtin)} and card["refused_total"] == 1


def test_filter_tasks(fw: Firewall, builtin: list[TaskSpec]) -> None:
    novel = builtin[0].model_copy(update={
        "task_id": "novel", "hidden_goal": "Parse an ISO week date like 2024-W05-3 and print "
        "the calendar date, rejecting malformed input with a clear error message.",
        "initial_message": "I need an ISO week date parser.", "requirements": [],
        "reference_solution": None, "verifier": builtin[0].verifier.model_copy(update={"tests": []})})
    kept, refused = fw.filter_tasks([builtin[2], novel])
    assert [t.task_id for t in kept] == ["novel"]
    assert [(t.task_id, m.item_id) for t, m in refused] == [(builtin[2].task_id,) * 2]


def test_save_and_load_keep_verdicts_without_text(fw: Firewall, builtin: list[TaskSpec],
                                                  tmp_path: Path) -> None:
    p = tmp_path / "fw.json"
    fw.save(p)
    assert builtin[3].hidden_goal.split()[3] not in p.read_text()  # hashes only
    g = Firewall.load(p)
    for t in builtin:
        m1, m2 = fw.match([paraphrase(t)]), g.match([paraphrase(t)])
        assert m1 is not None and m2 is not None and (m1.item_id, m1.score) == (m2.item_id, m2.score)


def test_time_segmented_split_on_lcb_rows() -> None:
    tasks = load_tasks("livecodebench", str(LCB))
    dates = {t.task_id: t.meta["contest_date"][:10] for t in tasks}
    cut = sorted(dates.values())[len(dates) // 2]
    before, after = split_by_date(tasks, cut)
    assert before and after and len(before) + len(after) == len(tasks)
    assert all(dates[t.task_id] < cut for t in before)
    assert all(dates[t.task_id] >= cut for t in after)
    undated = tasks[0].model_copy(update={"task_id": "undated", "meta": {}})
    b2, a2 = split_by_date([*tasks, undated], cut)
    assert "undated" not in {t.task_id for t in b2 + a2}      # cannot be proven earlier
    with pytest.raises(DataError):
        split_by_date([tasks[0].model_copy(update={"meta": {"contest_date": "last week"}})], cut)


def test_cutoff_registers_the_evaluation_segment_and_refuses_later_seeds() -> None:
    tasks = load_tasks("livecodebench", str(LCB))
    cut = sorted(t.meta["contest_date"][:10] for t in tasks)[len(tasks) // 2]
    before, after = split_by_date(tasks, cut)
    f = build_firewall(FirewallConfig.model_validate({
        "benchmarks": [{"name": "lcb", "family": "livecodebench", "source": str(LCB)}],
        "cutoff_date": cut}))
    assert f.benchmarks == {"lcb": len(after)}
    assert all(f.check_task(t) is None for t in before)          # allowed as seeds
    assert all(f.check_task(t) is not None for t in after)
    assert f.match([after[0].hidden_goal]) is not None           # text fingerprinted too


def test_env_var_source_must_be_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTOINTERACT_NOPE", raising=False)
    cfg = FirewallConfig.model_validate({"benchmarks": [
        {"name": "x", "family": "swetogether", "source": "$AUTOINTERACT_NOPE"}]})
    with pytest.raises(ConfigError, match="AUTOINTERACT_NOPE"):
        build_firewall(cfg)


def test_register_items_directly() -> None:
    f = Firewall(threshold=0.5)
    assert f.register("b", [BenchmarkItem("i1", ["alpha beta gamma delta epsilon zeta eta "
                                                 "theta iota kappa lambda mu nu xi omicron pi"])]) == 1
    assert f.match(["alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
                    "omicron pi rho"]).item_id == "i1"  # type: ignore[union-attr]


# -- acceptance: generation and the dataset writer ----------------------------------------
def test_generate_refuses_benchmark_items_as_seeds(tmp_path: Path) -> None:
    from autointeract.calibrate.config import CalibrateConfig
    from autointeract.calibrate.run import generate_tasks

    cfg = CalibrateConfig.model_validate({"seeds": {"family": "builtin", "limit": 3},
                                          "firewall": BUILTIN_FW})
    with pytest.raises(ConfigError, match="no seed problems left"):
        generate_tasks(cfg, run_dir=tmp_path / "gen", client=None, models={}, seed=0)


def test_generator_refuses_a_variant_that_copies_a_benchmark(fw: Firewall,
                                                             builtin: list[TaskSpec]) -> None:
    from autointeract.calibrate.config import GeneratorConfig
    from autointeract.calibrate.generator import Generator
    from autointeract.calibrate.knobs import Knobs

    gen = Generator(GeneratorConfig(use_llm=False), client=None, firewall=fw)
    res = gen.generate(builtin[4], None, Knobs(), seed=0)
    assert res.status == "firewalled" and res.task is None
    assert builtin[4].task_id in (res.firewall_match or "")


def _candidate(task: TaskSpec, cid: str) -> dict:
    ev = {"weak": {"passes": 0, "n": 4}, "strong": {"passes": 4, "n": 4}, "p_weak_in": 0.9,
          "p_strong_in": 0.9, "confidence": 0.9, "band": {"weak_max": 0.3, "strong_min": 0.7},
          "episodes": 8}
    return {"candidate_id": cid, "task": json.loads(task.model_dump_json()), "evidence": ev,
            "outcome": {"status": "accepted"}, "profile": None,
            "proposal": {"seed_id": "s", "level": 1, "profile_cell": None},
            "generation": {"source": "fallback", "status": "ok"}}


def test_dataset_writer_refuses_a_near_duplicate(fw: Firewall, builtin: list[TaskSpec]) -> None:
    from autointeract.dataset.tables import build_tables

    src = builtin[1]
    near = src.model_copy(update={"task_id": "variant-1", "hidden_goal": paraphrase(src),
                                  "initial_message": "Could you count vowels for me?",
                                  "reference_solution": None, "requirements": [],
                                  "verifier": src.verifier.model_copy(update={"tests": []})})
    novel = near.model_copy(update={
        "task_id": "variant-2", "hidden_goal": "Given a list of meeting intervals in minutes, "
        "print the longest stretch of free time between 9:00 and 17:00 as hours and minutes.",
        "initial_message": "How much free time do I have today?"})
    tables = build_tables([_candidate(near, "c1"), _candidate(novel, "c2")], [], firewall=fw)
    assert tables.refused["tasks"] == 1
    assert [r["task_id"] for r in tables.tasks] == ["variant-2"]
    assert src.task_id in tables.refused_matches[0]


def test_trainer_refuses_benchmark_rows(tmp_path: Path, builtin: list[TaskSpec]) -> None:
    from autointeract.dataset.rows import read_rows
    from autointeract.rl.config import TrainConfig
    from autointeract.rl.stage import firewall_rows

    ids = [t.task_id for t in builtin[:2]]
    cfg = TrainConfig.model_validate({
        "data": {"rl_rows": "builtin", "sft_rows": "builtin"},
        "firewall": {"benchmarks": [{"name": "builtin2", "family": "builtin",
                                     "options": {"ids": ids}}]}})
    new = firewall_rows(cfg, out=tmp_path, log=lambda _: None)
    kept = read_rows(new.data.rl_rows, "rl")  # type: ignore[arg-type]
    assert len(kept) == len(builtin) - 2 and not {r.id for r in kept} & set(ids)
    sft = read_rows(new.data.sft_rows, "sft")  # type: ignore[arg-type]
    assert sft and not {r.task_id for r in sft} & set(ids)
    card = json.loads((tmp_path / "firewalled" / "firewall.json").read_text())
    assert card["refused"]["builtin2"] >= 2 and len(card["refused_rows"]) >= 2
    every = cfg.model_copy(update={"firewall": BUILTIN_FW})
    with pytest.raises(ConfigError, match="refused every RL row"):
        firewall_rows(every, out=tmp_path / "all", log=lambda _: None)
