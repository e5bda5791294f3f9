"""The agent's action space: tool schemas, the two text protocols, observations. Pure.

Native mode uses :data:`TOOLS` (OpenAI function schemas). Models without tool calling use a
text protocol that :func:`parse_text_action` turns into the same :class:`ToolCall` objects:

* a line ``SUBMIT`` followed by a fenced code block submits that code;
* a fenced ``python`` block runs it (``run_python``); a fenced ``bash``/``sh`` block runs it
  (``bash``); only the first block counts; a block left open by a reply cut at
  ``max_tokens`` still counts (running it shows the agent its truncated code);
* anything else is a message to the user.

The repo protocol (:func:`parse_bash_action`, mini-swe-agent style) takes exactly one bash
block per reply; a command starting with ``echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT``
submits the working copy.
"""

from __future__ import annotations

import re
from typing import Any

from autointeract.sandbox.base import ExecResult
from autointeract.types import ToolCall

SUBMIT_MARKER = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
# a block may be left open at the end of a reply cut by max_tokens: it still counts
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.S)
_SUBMIT_LINE = re.compile(r"^\s*\**SUBMIT\**:?\s*$", re.M)
_PY = {"python", "py", "python3", ""}
_SH = {"bash", "sh", "shell", "console"}


def _fn(name: str, desc: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": desc,
        "parameters": {"type": "object", "properties": props, "required": required}}}


TOOLS: list[dict[str, Any]] = [
    _fn("run_python", "Run a Python program in the sandbox; returns exit code and output.",
        {"code": {"type": "string", "description": "Python source"},
         "stdin": {"type": "string", "description": "text fed to stdin"}}, ["code"]),
    _fn("bash", "Run a shell command in the sandbox work directory.",
        {"command": {"type": "string"}}, ["command"]),
    _fn("message_user", "Send a message (a question, a progress note, code) to the user.",
        {"content": {"type": "string"}}, ["content"]),
    _fn("submit", "Submit the final solution (complete Python source).",
        {"solution": {"type": "string"}}, ["solution"]),
]
TOOL_NAMES = frozenset(t["function"]["name"] for t in TOOLS)


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Fenced blocks of ``text`` as ``(language, body)`` pairs, in order."""
    return [(m.group(1).lower(), m.group(2)) for m in _FENCE.finditer(text or "")]


def extract_code(text: str) -> str | None:
    """The last Python-looking fenced block of a message (what a user would copy), if any."""
    py = [body for lang, body in code_blocks(text) if lang in _PY]
    return py[-1] if py else None


def parse_text_action(text: str) -> list[ToolCall]:
    """The text protocol: at most one action per reply; plain text yields no call."""
    submit = _SUBMIT_LINE.search(text or "")
    if submit:
        after = code_blocks(text[submit.end():])
        if after:
            return [ToolCall(id="t0", name="submit", arguments={"solution": after[0][1]})]
    blocks = code_blocks(text)
    if not blocks:
        return []
    lang, body = blocks[0]
    if lang in _SH:
        return [ToolCall(id="t0", name="bash", arguments={"command": body.strip()})]
    if lang in _PY:
        return [ToolCall(id="t0", name="run_python", arguments={"code": body})]
    return []


def parse_bash_action(text: str) -> list[ToolCall]:
    """The repo protocol: one bash block runs; the submit marker ends the work."""
    blocks = [body.strip() for lang, body in code_blocks(text) if lang in _SH | {""}]
    if len(blocks) != 1:
        return []
    cmd = blocks[0]
    if cmd.lstrip().startswith(f"echo {SUBMIT_MARKER}"):
        return [ToolCall(id="t0", name="submit", arguments={})]
    return [ToolCall(id="t0", name="bash", arguments={"command": cmd})]


def format_observation(res: ExecResult, *, max_chars: int = 2000) -> str:
    """What the agent sees of a command: exit status, capped output, where the rest lies."""
    head = [f"exit code: {res.exit_code}" + (f" (limit: {res.limit})" if res.limit else "")]
    if res.error:
        head.append(f"error: {res.error}")
    for name in ("stdout", "stderr"):
        text: str = getattr(res, name)
        size: int = getattr(res, f"{name}_bytes") or len(text.encode())
        if not text and not size:
            continue
        shown = text[:max_chars]
        head.append(f"{name}:\n{shown}")
        if len(text) > max_chars or getattr(res, f"{name}_truncated"):
            path = getattr(res, f"{name}_path") or "(not kept)"
            head.append(f"[{name} truncated: {size} bytes in total; the full output is in "
                        f"{path} — use bash (grep, head, tail) to read it]")
    return "\n".join(head)
