"""run_eval end to end on builtin tasks with scripted agents; docker-bound tasks unverified."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from autointeract.errors import ConfigError, SandboxUnavailable
from autointeract.eval.config import BenchmarkSource, EvalConfig, UserSpec
from autointeract.eval.runner import load_trajectories, make_eval_user, run_eval
from autointeract.eval.verify import HideUnverified, docker_bound, docker_reachable
from autointeract.rollout.fakes import ScriptedAgent
from autointeract.rollout.protocols import UserObservation
from autointeract.scenarios import load_tasks
from autointeract.types import VerifierResult, VerifierSpec

ROOT = Path(__file__).resolve().parents[2]
QUIET = {"progress": False, "log": lambda _: None}


def cfg(**kw: object) -> EvalConfig:
    base = {"benchmarks": [{"family": "builtin", "limit": 2}], "k": 2,
            "agent": {"max_turns": 2}, "user": {"prompted": {"max_user_turns": 2}}}
    base.update(kw)
    return EvalConfig.model_validate(base)


def test_eval_writes_a_report_and_resumes(tmp_path: Path, make_solver: Callable) -> None:
    first = load_tasks("builtin")[0].initial_message
    agent = ScriptedAgent([make_solver(solve=lambda o: o == first)], name="half")
    res = run_eval(cfg(), client=None, out_dir=tmp_path, agent=agent, **QUIET)
    ov = res.report["overall"]
    assert (ov["tasks"], ov["runs"], ov["unverified_runs"]) == (2, 4, 0)
    assert ov["pass@1"] == 0.5 and ov["pass^k"] == 0.5
    assert res.report["per_task"]["balanced-brackets"]["pass@1"] == 1.0
    assert res.report["by_benchmark"]["builtin"]["pass@1"] == 0.5
    assert set(res.report["by_difficulty"]) == {t.difficulty or "-" for t in
                                                load_tasks("builtin")[:2]}
    assert res.report["meta"]["seeds"] == [0, 1] and res.report["meta"]["agent"] == "half"
    for name in ("trajectories.jsonl", "tasks.jsonl", "behavior_runs.jsonl", "report.json"):
        assert (tmp_path / name).is_file()
    assert json.loads((tmp_path / "report.json").read_text())["overall"]["pass@1"] == 0.5
    assert res.new == 4 and len(load_trajectories(tmp_path)) == 4
    again = run_eval(cfg(), client=None, out_dir=tmp_path, agent=agent, **QUIET)
    assert again.new == 0 and again.skipped == 4
    assert again.report["overall"]["pass@1"] == 0.5
    more = run_eval(cfg(k=3), client=None, out_dir=tmp_path, agent=agent, **QUIET)
    assert more.new == 2 and more.report["overall"]["runs"] == 6       # only seed 2 is new


def docker_task(tmp_path: Path) -> Path:
    task = load_tasks("builtin")[0].model_copy(update={
        "task_id": "docker-only", "family": "swetogether",
        "verifier": VerifierSpec(kind="repo", docker_image="example/image:1",
                                 test_command="bash /tests/test.sh", meta={"runnable": False})})
    p = tmp_path / "tasks.jsonl"
    p.write_text(task.model_dump_json() + "\n")
    return p


@pytest.mark.skipif(docker_reachable()[0], reason="a docker engine answers here")
def test_docker_bound_tasks_without_docker_are_unverified(tmp_path: Path,
                                                          good_agent: ScriptedAgent) -> None:
    src = docker_task(tmp_path)
    c = cfg(benchmarks=[{"family": "builtin", "limit": 1},
                        {"name": "swe", "family": "taskspec", "source": str(src)}], k=1)
    logs: list[str] = []
    res = run_eval(c, client=None, out_dir=tmp_path / "out", agent=good_agent, progress=False,
                   log=logs.append)
    assert len(logs) == 1 and "no docker engine" in logs[0] and "unverified" in logs[0]
    ov = res.report["overall"]
    assert ov["unverified_runs"] == 1 and ov["pass@1"] == 1.0     # the docker task is left out
    assert res.report["by_benchmark"]["swe"]["pass@1"] is None
    assert res.report["by_benchmark"]["swe"]["turns"] > 0         # the conversation still ran
    t = next(t for t in load_trajectories(tmp_path / "out") if t.task_id == "docker-only")
    assert t.verifier is not None and not t.verifier.verified
    with pytest.raises(SandboxUnavailable):
        run_eval(c.model_copy(update={"docker": "require"}), client=None,
                 out_dir=tmp_path / "out2", agent=good_agent, **QUIET)


def test_docker_bound_detection() -> None:
    t = load_tasks("builtin")[0]
    assert not docker_bound(t)
    local = load_tasks("swetogether", str(ROOT / "scenarios" / "swetogether_local"))[0]
    assert not docker_bound(local)
    assert docker_bound(local.model_copy(update={"verifier": local.verifier.model_copy(
        update={"meta": {"runnable": False}})}))


def test_user_never_sees_an_unverified_check() -> None:
    seen: list[UserObservation] = []

    class Spy:
        name = "spy"

        def init_state(self, task, *, seed):  # noqa: ANN001, ANN201
            return None

        async def first_turn(self, state):  # noqa: ANN001, ANN201
            raise NotImplementedError

        async def respond(self, obs, state):  # noqa: ANN001, ANN201
            seen.append(obs)
            return None, state

    user = HideUnverified(Spy())
    asyncio.run(user.respond(UserObservation(agent_message="x", check=VerifierResult(
        verified=False), failing_requirements=[0]), None))
    ok = VerifierResult()
    asyncio.run(user.respond(UserObservation(agent_message="y", check=ok), None))
    assert seen[0].check is None and seen[0].failing_requirements == []
    assert seen[1].check is ok and user.name == "spy"


def test_local_repo_task_records_its_diff(tmp_path: Path) -> None:
    edit = ("```bash\nsed -i 's/_NON_ALNUM = /_NON_ALNUM  = /' "
            "slugkit/__init__.py && grep -n NON_ALNUM slugkit/__init__.py\n```")
    agent = ScriptedAgent([edit, "```bash\npython -m pytest -q\n```",
                           "Done."], name="editor")
    c = cfg(benchmarks=[{"family": "swetogether",
                         "source": str(ROOT / "scenarios" / "swetogether_local")}], k=1,
            user={"kind": "replay"}, agent={"max_turns": 4})
    res = run_eval(c, client=None, out_dir=tmp_path, agent=agent, **QUIET)
    (t,) = load_trajectories(tmp_path)
    assert t.user_model == "replay" and t.verifier is not None and t.verifier.verified
    diff = t.verifier.meta["diff"]
    assert "a/slugkit/__init__.py" in diff and "+_NON_ALNUM  = " in diff
    b = res.report["behavior"]
    assert b["mean_added_lines"] == 1 and b["mean_reference_files_touched"] == 1
    assert b["formal_test_share"] == 1.0 and b["mean_retrieval_calls"] == 0


def test_duplicate_task_ids_across_benchmarks_are_an_error(tmp_path: Path,
                                                           good_agent: ScriptedAgent) -> None:
    c = cfg(benchmarks=[{"family": "builtin", "limit": 1}, {"name": "again", "family": "builtin",
                                                             "limit": 1}])
    with pytest.raises(ConfigError, match="balanced-brackets"):
        run_eval(c, client=None, out_dir=tmp_path, agent=good_agent, **QUIET)


def test_env_var_source_unset_is_a_config_error(tmp_path: Path, good_agent: ScriptedAgent,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AUTOINTERACT_NOPE", raising=False)
    c = cfg(benchmarks=[{"family": "swetogether", "source": "$AUTOINTERACT_NOPE"}])
    with pytest.raises(ConfigError, match="AUTOINTERACT_NOPE"):
        run_eval(c, client=None, out_dir=tmp_path, agent=good_agent, **QUIET)


def test_make_eval_user_kinds(tmp_path: Path) -> None:
    from autointeract.config import LLMConfig
    from autointeract.eval.replay import ReplayUser
    from autointeract.llm import LLMClient
    from autointeract.rollout.prompted_user import PromptedUser
    from autointeract.users.artifact import save_user_model
    from autointeract.users.simulator import LearnedUser

    client = LLMClient(LLMConfig(cache_dir=None))
    assert isinstance(make_eval_user(UserSpec(), None), PromptedUser)
    assert isinstance(make_eval_user(UserSpec(kind="replay"), None), ReplayUser)
    with pytest.raises(ConfigError, match="path"):
        make_eval_user(UserSpec(kind="learned", model="scripted/x"), client)
    folder = save_user_model(tmp_path / "terse", behavior_prompt="Be terse.",
                             seed_prompt="Be a user.", scores={}, provenance={})
    user = make_eval_user(UserSpec(kind="learned", path=str(folder), model="weak"), client,
                          resolve=lambda m: f"resolved/{m}")
    assert isinstance(user, LearnedUser) and user.name == "learned:terse"
    assert user.behavior_prompt.strip() == "Be terse." and user.model == "resolved/weak"


def test_benchmark_source_label() -> None:
    assert BenchmarkSource(family="lcbpro").label() == "lcbpro"
    assert BenchmarkSource(name="x", family="lcbpro").label() == "x"
    assert EvalConfig(seed=5, k=3).seed_list() == [5, 6, 7]
    assert EvalConfig(seeds=[1, 9], k=3).seed_list() == [1, 9]


def test_livecodebench_and_lcbpro_rows_run(tmp_path: Path, bad_agent: ScriptedAgent) -> None:
    c = cfg(benchmarks=[
        {"name": "lcb", "family": "livecodebench",
         "source": str(ROOT / "data" / "problems" / "lcb_sample.jsonl"), "limit": 1},
        {"name": "lcbpro", "family": "lcbpro", "source": str(ROOT / "scenarios" / "lcbpro_sample"),
         "limit": 1}], k=1)
    res = run_eval(c, client=None, out_dir=tmp_path, agent=bad_agent, **QUIET)
    assert set(res.report["by_benchmark"]) == {"lcb", "lcbpro"}
    assert res.report["overall"]["pass@1"] == 0.0 and res.report["overall"]["unverified_runs"] == 0
    rows = [json.loads(x) for x in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    assert all(r["contest_date"] for r in rows)


def test_with_docker_bound_tasks_run_in_their_image(tmp_path: Path) -> None:
    from autointeract.eval.runner import _sandbox_groups
    from autointeract.rollout.tasks import read_taskspecs

    (dock,) = read_taskspecs(str(docker_task(tmp_path)))
    plain = load_tasks("builtin")[:2]
    c = cfg()
    groups = _sandbox_groups(c, [*plain, dock], docker_ok=True)
    assert [(g[0].sandbox, [t.task_id for t in g[1]]) for g in groups] == [
        ({"kind": "local"}, [t.task_id for t in plain]),
        ({"kind": "docker", "image": "example/image:1"}, ["docker-only"])]
    assert len(_sandbox_groups(c, [*plain, dock], docker_ok=False)) == 1


def test_learned_user_from_a_folder(tmp_path: Path, bad_agent: ScriptedAgent) -> None:
    from autointeract.config import LLMConfig
    from autointeract.llm import LLMClient, ScriptedModel
    from autointeract.users.artifact import save_user_model

    folder = save_user_model(tmp_path / "terse", behavior_prompt="Be terse.",
                             seed_prompt="Be a user.", scores={}, provenance={})
    talk = ScriptedModel(["no thats still wrong"], cycle=True)
    c = cfg(k=1, benchmarks=[{"family": "builtin", "limit": 1}],
            user={"kind": "learned", "path": str(folder), "model": "sim"},
            models={"sim": {"model": talk.model}})
    client = LLMClient(LLMConfig(cache_dir=None, max_retries=0))
    res = run_eval(c, client=client, out_dir=tmp_path / "out", agent=bad_agent, **QUIET)
    (t,) = load_trajectories(tmp_path / "out")
    assert t.user_model == "learned:terse" and res.report["meta"]["user"] == "learned:terse"
    assert talk.requests and any(m.role == "user" and "wrong" in m.content for m in t.messages)


@pytest.mark.skipif(not __import__("os").environ.get("AUTOINTERACT_SWE_TOGETHER"),
                    reason="set AUTOINTERACT_SWE_TOGETHER to the SWE-Together task folders")
@pytest.mark.skipif(docker_reachable()[0], reason="a docker engine answers here")
def test_shared_swetogether_tasks_with_the_replay_user(tmp_path: Path) -> None:
    agent = ScriptedAgent(["```bash\nls\n```", "I looked around; what should I change?"],
                          name="looker")
    c = cfg(k=1, user={"kind": "replay"}, agent={"max_turns": 4},
            benchmarks=[{"name": "swe-together", "family": "swetogether",
                         "source": "$AUTOINTERACT_SWE_TOGETHER", "limit": 2}])
    res = run_eval(c, client=None, out_dir=tmp_path, agent=agent, **QUIET)
    ov = res.report["overall"]
    assert ov["runs"] == 2 and ov["unverified_runs"] == 2 and ov["pass@1"] is None
    assert ov["turns"] > 1 and res.report["behavior"]["mean_retrieval_calls"] >= 1
    for t in load_trajectories(tmp_path):
        users = [m for m in t.messages if m.role == "user"]
        assert users[0].meta["replay_source"].startswith("session:")
