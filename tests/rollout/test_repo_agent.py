"""The mini-swe-agent style repo agent: bash commands in the sandbox, echo-marker submit."""

import asyncio
import textwrap
from pathlib import Path

import pytest

from autointeract.llm import ScriptedModel
from autointeract.rollout.agent import LLMAgent
from autointeract.rollout.config import AgentConfig, EpisodeConfig
from autointeract.rollout.episode import run_episode
from autointeract.rollout.prompted_user import PromptedUser
from autointeract.types import Requirement, TaskSpec, VerifierSpec

CHECK = textwrap.dedent("""\
    python3 - <<'PY'
    import json, os
    try:
        from calc import add, mul
        gates = {"add": add(2, 3) == 5, "mul": mul(2, 3) == 6}
    except Exception:
        gates = {"add": False, "mul": False}
    json.dump(gates, open(os.path.join(os.environ["AUTOINTERACT_VERIFIER_DIR"], "gates.json"), "w"))
    PY
    """)


@pytest.fixture
def repo_task(tmp_path: Path) -> TaskSpec:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "calc.py").write_text("def add(a, b):\n    return a - b\n\ndef mul(a, b):\n"
                                  "    return a * b\n")
    (repo / "tests" / "check.sh").write_text(CHECK)
    return TaskSpec(task_id="repo-calc", family="mock-repo",
                    initial_message="The calculator in calc.py gives wrong sums, can you fix it?",
                    hidden_goal="add() must add.",
                    requirements=[Requirement(text="add(2, 3) has to give 5", tests=[0])],
                    verifier=VerifierSpec(kind="repo", repo_dir=str(repo),
                                          test_command="sh tests/check.sh"))


def _agent(client, outputs):
    model = ScriptedModel(outputs)
    return LLMAgent(AgentConfig(model=model.model, tool_mode="bash", max_turns=4), client), model


def test_repo_agent_fixes_and_submits(repo_task, client):
    agent, model = _agent(client, [
        "Let me look.\n```bash\ncat calc.py\n```",
        "```bash\nsed -i 's/a - b/a + b/' calc.py\n```",
        "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"])
    t = asyncio.run(run_episode(repo_task, agent, PromptedUser(), seed=0,
                                config=EpisodeConfig()))
    assert t.finish_reason == "submitted" and t.verifier.passed and t.reward == 1.0
    first_obs = [m.content for m in t.messages if m.role == "tool"][0]
    assert "return a - b" in first_obs
    assert "tools" not in model.requests[0]  # text protocol: no native tools sent


def test_repo_agent_early_submit_gets_requirement(repo_task, client):
    agent, _ = _agent(client, ["```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
                               "Which behaviour is wrong?", "Sorry, no idea.", "still nothing"])
    t = asyncio.run(run_episode(repo_task, agent, PromptedUser(), seed=0,
                                config=EpisodeConfig()))
    assert not t.verifier.passed and t.verifier.score == 0.5
    assert t.user_acts[1] == "new_requirement"  # the failing gate maps to requirement 0
    assert t.finish_reason == "max_turns" and t.reward == 0.5


def test_agent_sees_the_workspace_not_the_task_folder(client):
    """A SWE-Together-format task: the agent's sandbox holds environment/repo only — the
    reference patch, the recorded session and the hidden tests stay out of reach."""
    from autointeract.scenarios import load_tasks

    root = Path(__file__).resolve().parents[2]
    task = load_tasks("swetogether", str(root / "scenarios" / "swetogether_local"))[0]
    agent, _ = _agent(client, ["```bash\nls -a . tests\n```",
                               "```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"])
    t = asyncio.run(run_episode(task, agent, PromptedUser(), seed=0, config=EpisodeConfig()))
    listing = [m.content for m in t.messages if m.role == "tool"][0]
    assert "slugkit" in listing
    for secret in ("reference_patch.json", "original_session.json", "oracle_intents.json",
                   "test.sh", "canonical_goals.json"):
        assert secret not in listing
    assert t.verifier is not None and t.verifier.verified
