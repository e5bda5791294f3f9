"""Probe episodes: a fixed scripted agent talks to a simulated user, so only the user costs calls.

The probe agent says the same three things in every episode, chosen to draw out the
behaviors the archive is organised by:

1. a clarifying question (does the user answer, how much, does it reveal requirements);
2. a partially wrong solution, with the check showing one failing requirement (pushback?);
3. a claim of completion while one requirement still fails (does the user accept it?).

Probe tasks are small, self-contained :class:`~autointeract.types.TaskSpec` objects shipped
here; they are never graded, only talked about.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autointeract.rollout.protocols import UserObservation, UserSimulator
from autointeract.types import CriterionResult, Requirement, TaskSpec, VerifierResult, VerifierSpec


def _task(task_id: str, first: str, goal: str, reqs: list[str], solution: str) -> TaskSpec:
    return TaskSpec(task_id=task_id, family="probe", initial_message=first, hidden_goal=goal,
                    requirements=[Requirement(text=r) for r in reqs],
                    verifier=VerifierSpec(kind="functional"), reference_solution=solution)


PROBE_TASKS: tuple[TaskSpec, ...] = (
    _task("probe-dates", "I need a function that parses dates from log lines.",
          "A function parse_date(line) returning a datetime.date for lines like "
          "'2024-03-01 12:00 INFO ...' or '01/03/2024 ...' (day first), None otherwise.",
          ["Support both ISO and day-first slash formats.", "Return None for lines without a date.",
           "Do not use third-party libraries."],
          "def parse_date(line):\n    from datetime import date\n    y, m, d = line[:10].split('-')\n"
          "    return date(int(y), int(m), int(d))\n"),
    _task("probe-cache", "Can you add caching to the fetch_user function in api.py?",
          "Wrap fetch_user(user_id) with an in-memory cache that expires entries after 60 s and "
          "can be cleared by a clear_cache() function.",
          ["Entries expire after 60 seconds.", "Provide clear_cache().",
           "The cache must be safe to use from several threads."],
          "_cache = {}\ndef fetch_user(user_id):\n    if user_id not in _cache:\n"
          "        _cache[user_id] = _fetch(user_id)\n    return _cache[user_id]\n"),
    _task("probe-cli", "Add a --dry-run flag to our deploy script.",
          "deploy.py gets a --dry-run flag that prints every command it would run without "
          "running any, and exits 0.",
          ["Print each command prefixed with 'DRY RUN:'.", "Run nothing in dry-run mode.",
           "Keep the existing flags working."],
          "parser.add_argument('--dry-run', action='store_true')\nif args.dry_run:\n"
          "    print(cmd)\n"),
)


@dataclass(frozen=True)
class ProbeTurn:
    """One canned agent move and the verdict the user is shown with it."""

    message: str
    submitted: bool = False
    failing_requirement: int | None = None


def probe_turns(task: TaskSpec) -> list[ProbeTurn]:
    """The probe agent's three moves for ``task``."""
    sol = task.reference_solution or "# (solution)\n"
    return [
        ProbeTurn("Before I start, a quick question: are there edge cases or constraints I "
                  "should know about, and do you have a preferred style for this?"),
        ProbeTurn(f"Here is a first version:\n```python\n{sol}```\nI tried it on one example "
                  "and it looks right.", submitted=True, failing_requirement=0),
        ProbeTurn("I have finished the task and everything works now. Anything else?",
                  submitted=True, failing_requirement=len(task.requirements) - 1),
    ]


def _check(task: TaskSpec, failing: int | None) -> VerifierResult | None:
    if failing is None:
        return None
    return VerifierResult(criteria=[CriterionResult(name=f"requirement {i}", passed=i != failing)
                                    for i in range(len(task.requirements))])


@dataclass
class ProbeTranscript:
    """What one probe episode produced: the user's turns, in order, and the agent's moves."""

    task_id: str
    seed: int
    user_turns: list[str] = field(default_factory=list)
    agent_turns: list[str] = field(default_factory=list)
    stopped_early: bool = False


async def run_probe(sim: UserSimulator, task: TaskSpec, *, seed: int,
                    max_agent_turns: int = 3) -> ProbeTranscript:
    """Play one probe episode of ``task`` with ``sim``.

    Args:
        sim: The user simulator (already conditioned on a profile).
        task: The probe task.
        seed: The episode seed (passed to ``sim.init_state``).
        max_agent_turns: Use only the first this-many probe agent moves (1 to 3).

    Returns:
        The transcript; the user stopping early ends it.
    """
    state = sim.init_state(task, seed=seed)
    turn, state = await sim.first_turn(state)
    out = ProbeTranscript(task_id=task.task_id, seed=seed, user_turns=[turn.content])
    for i, move in enumerate(probe_turns(task)[:max_agent_turns], start=1):
        if turn.stop:
            out.stopped_early = True
            break
        obs = UserObservation(agent_message=move.message, submitted=move.submitted,
                              solution=task.reference_solution if move.submitted else None,
                              check=_check(task, move.failing_requirement),
                              failing_requirements=[] if move.failing_requirement is None
                              else [move.failing_requirement], turn=i)
        out.agent_turns.append(move.message)
        turn, state = await sim.respond(obs, state)
        out.user_turns.append(turn.content)
    return out
