"""Behavior metrics from trajectories (the reference paper's Table 4, defined as there).

- retrieval calls: read-only inspection commands (cat, grep, ls, find, git show, ...);
- repeated retrieved information: the share of lower-cased, overlapping 12-token spans of
  retrieval outputs already seen in an earlier retrieval output of the same run;
- reference-patch files touched: files changed by the final diff that the reference patch
  also changes;
- added lines: lines added by the final diff;
- formal test: whether the run contains a command invoking a standard test runner.

All functions are pure functions of saved trajectories.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from autointeract.types import Trajectory

SPAN = 12
READ_ONLY = frozenset({"cat", "grep", "egrep", "fgrep", "rg", "ag", "ls", "find", "head", "tail",
                       "less", "more", "wc", "tree", "stat", "file", "nl", "awk", "fd", "du",
                       "locate", "which", "pwd", "diff", "cut", "sort", "uniq", "xxd", "od"})
READ_ONLY_GIT = frozenset({"log", "show", "diff", "status", "grep", "blame", "ls-files"})
RETRIEVAL_TOOLS = frozenset({"read_file", "view", "open_file", "search", "grep", "list_files",
                             "find_file", "search_dir", "search_file", "str_replace_editor_view"})
NEUTRAL = frozenset({"cd", "pushd", "popd", "true", "export", "set"})  # neither read nor write
_FIND_ACTIONS = frozenset({"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fls"})
# a redirection that writes a file: ``> f``, ``>> f``, ``2> f`` (but not ``2>&1``, not /dev/null)
_WRITE_REDIRECT = re.compile(r"(^|[^>])>{1,2}\s*(?!&|/dev/null\b)[^\s]")
_TEST_RUNNERS = re.compile(
    r"^(pytest|py\.test|python[\d.]* -m (pytest|unittest)|tox|nox|npm (run )?test|"
    r"yarn test|pnpm test|npx (jest|vitest|mocha)|jest|vitest|mocha|go test|cargo test|"
    r"cargo nextest|mvn (-\S+ )*test|gradle(w)? test|\./gradlew test|make test|ctest|rspec|"
    r"phpunit|dotnet test|swift test|bun test|deno test)(\s|$)")
# launchers that run the command after them: ``timeout 60 pytest``, ``uv run pytest`` ...
_LAUNCHERS = {"timeout": 1, "time": 0, "env": 0, "sudo": 0, "nohup": 0, "exec": 0,
              "uv": -1, "poetry": -1, "pipenv": -1, "hatch": -1, "pdm": -1}
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_FENCE = re.compile(r"```(?:bash|sh|shell)?\s*\n(.*?)```", re.S)


@dataclass
class Action:
    command: str
    output: str
    tool: str


def actions(traj: Trajectory) -> list[Action]:
    """Commands the agent ran, paired with their outputs, in order.

    Tool calls are read from ``tool_calls`` (argument ``command``/``cmd``/``code``); for
    text-protocol agents without tool calls, fenced shell blocks in assistant messages.
    """
    outputs = {m.tool_call_id: m.content for m in traj.messages if m.role == "tool" and m.tool_call_id}
    out: list[Action] = []
    msgs = traj.messages
    for i, m in enumerate(msgs):
        if m.role != "assistant":
            continue
        if m.tool_calls:
            for tc in m.tool_calls:
                a = tc.arguments
                cmd = str(a.get("command") or a.get("cmd") or a.get("code") or a.get("path") or "")
                out.append(Action(cmd, outputs.get(tc.id, ""), tc.name))
            continue
        blocks = _FENCE.findall(m.content or "")
        if blocks:
            nxt = msgs[i + 1].content if i + 1 < len(msgs) and msgs[i + 1].role in ("tool", "user") else ""
            for b in blocks:
                out.append(Action(b.strip(), nxt, "bash"))
    return out


def _segments(command: str) -> list[list[str]]:
    parts = re.split(r"\|\||&&|;|\||\n", command)
    segs = []
    for p in parts:
        try:
            words = shlex.split(p, comments=True)
        except ValueError:
            words = p.split()
        if words:
            segs.append(words)
    return segs


def is_retrieval(action: Action) -> bool:
    """True for a read-only inspection: every piped/chained segment only reads."""
    if action.tool in RETRIEVAL_TOOLS:
        return True
    if action.tool not in ("bash", "shell", "run_shell", "execute_bash", "terminal"):
        return False
    segs = _segments(action.command)
    reads = 0
    for words in segs:
        head = words[0].rsplit("/", 1)[-1]
        if head in NEUTRAL:
            continue
        if head == "git" and len(words) > 1 and words[1] in READ_ONLY_GIT:
            reads += 1
            continue
        if head == "sed" and "-n" in words and not any(w.startswith("-i") for w in words):
            reads += 1
            continue
        if head == "find" and _FIND_ACTIONS.intersection(words):
            return False
        if head not in READ_ONLY:
            return False
        reads += 1
    if _WRITE_REDIRECT.search(action.command):  # writes through redirection
        return False
    return reads > 0


def _command_words(words: list[str]) -> list[str]:
    """The words of a shell segment from its actual command on (assignments and launchers
    such as ``timeout 60``, ``uv run`` or ``env X=1`` skipped)."""
    i = 0
    while i < len(words):
        w = words[i].rsplit("/", 1)[-1] if i == 0 or words[i].startswith("/") else words[i]
        if _ASSIGN.match(words[i]):
            i += 1
        elif w in _LAUNCHERS:
            skip = _LAUNCHERS[w]
            if skip == -1:  # "uv run X": skip the sub-command word "run"
                skip = 1 if i + 1 < len(words) and words[i + 1] == "run" else 0
            i += 1 + skip
            while i < len(words) and words[i].startswith("-"):
                i += 1
        else:
            break
    return words[i:]


def is_formal_test(command: str) -> bool:
    """True when a segment of ``command`` invokes a standard test runner (as its command,
    not as an argument: ``cat pytest.ini`` is not a test run)."""
    for words in _segments(command):
        cmd = _command_words(words)
        if cmd and _TEST_RUNNERS.match(" ".join([cmd[0].rsplit("/", 1)[-1], *cmd[1:]])):
            return True
    return False


def repeated_share(texts: Iterable[str], span: int = SPAN) -> tuple[int, int]:
    """(repeated spans, all spans) over retrieval outputs in order."""
    seen: set[tuple[str, ...]] = set()
    repeated = total = 0
    for text in texts:
        toks = text.lower().split()
        spans = [tuple(toks[i:i + span]) for i in range(len(toks) - span + 1)]
        repeated += sum(s in seen for s in spans)
        total += len(spans)
        seen.update(spans)
    return repeated, total


_DIFF_FILE = re.compile(r"^\+\+\+ (?:b/)?(\S+)", re.M)
_DIFF_GIT = re.compile(r"^diff --git a/(\S+) b/(\S+)", re.M)


def diff_files(diff: str) -> set[str]:
    files = {b for _, b in _DIFF_GIT.findall(diff or "")}
    files |= {f for f in _DIFF_FILE.findall(diff or "") if f != "/dev/null"}
    return files


def added_lines(diff: str) -> int:
    return sum(1 for ln in (diff or "").splitlines() if ln.startswith("+") and not ln.startswith("+++"))


def reference_files(reference_patch: Any) -> set[str]:
    """Files of a reference patch given as diff text or as a SWE-Together JSON object."""
    if isinstance(reference_patch, str):
        return diff_files(reference_patch)
    if isinstance(reference_patch, dict):
        files: set[str] = set()
        for key in ("files", "files_changed", "changed_files"):
            for f in reference_patch.get(key) or []:
                files.add(f["path"] if isinstance(f, dict) and "path" in f else str(f))
        for key in ("patch", "diff"):
            if isinstance(reference_patch.get(key), str):
                files |= diff_files(reference_patch[key])
        return files
    return set()


@dataclass
class RunBehavior:
    retrieval_calls: int
    repeated_spans: int
    retrieved_spans: int
    reference_files_touched: int | None
    added_lines: int | None
    formal_test: bool


def final_diff(traj: Trajectory) -> str | None:
    """The run's final diff: ``meta['final_diff']``, else the diff the final repository
    check recorded (``verifier.meta['diff']``, see :mod:`autointeract.eval.verify`)."""
    diff = traj.meta.get("final_diff")
    if diff is None and traj.verifier is not None:
        diff = traj.verifier.meta.get("diff")
    return diff if isinstance(diff, str) else None


def run_behavior(traj: Trajectory, *, reference_patch: Any = None) -> RunBehavior:
    """Behavior of one run. The final diff is read by :func:`final_diff`; the reference
    patch is ``reference_patch`` or ``traj.meta['reference_patch']``."""
    acts = actions(traj)
    retr = [a for a in acts if is_retrieval(a)]
    rep, tot = repeated_share(a.output for a in retr)
    diff = final_diff(traj)
    ref = reference_patch if reference_patch is not None else traj.meta.get("reference_patch")
    touched = (len(diff_files(diff) & reference_files(ref))
               if diff is not None and ref is not None else None)
    return RunBehavior(len(retr), rep, tot, touched,
                       added_lines(diff) if diff is not None else None,
                       any(is_formal_test(a.command) for a in acts))


def behavior_summary(trajs: Iterable[Trajectory], *,
                     references: Mapping[str, Any] | None = None) -> dict[str, float | None]:
    """Table-4 aggregates over a trajectory set (means over runs; repeated share pooled).

    Args:
        trajs: the runs.
        references: reference patches by task id (else ``traj.meta['reference_patch']``).
    """
    refs = references or {}
    runs = [run_behavior(t, reference_patch=refs.get(t.task_id)) for t in trajs]
    if not runs:
        return {"runs": 0}
    n = len(runs)
    rep = sum(r.repeated_spans for r in runs)
    tot = sum(r.retrieved_spans for r in runs)
    touched = [r.reference_files_touched for r in runs if r.reference_files_touched is not None]
    added = [r.added_lines for r in runs if r.added_lines is not None]
    return {
        "runs": n,
        "mean_retrieval_calls": sum(r.retrieval_calls for r in runs) / n,
        "repeated_retrieved_share": rep / tot if tot else 0.0,
        "mean_reference_files_touched": sum(touched) / len(touched) if touched else None,
        "mean_added_lines": sum(added) / len(added) if added else None,
        "formal_test_share": sum(r.formal_test for r in runs) / n,
    }


def per_run_dicts(trajs: Iterable[Trajectory], *,
                  references: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """One row of Table-4 quantities per run (with its task id and seed)."""
    refs = references or {}
    return [{"episode_id": t.episode_id, "task_id": t.task_id, "seed": t.seed,
             **asdict(run_behavior(t, reference_patch=refs.get(t.task_id)))} for t in trajs]
