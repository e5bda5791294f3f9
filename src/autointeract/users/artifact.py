"""Fitted user models on disk: ``user_models/<name>/``.

- ``behavior_prompt.md`` -- the fitted behavior prompt (what the simulator uses);
- ``seed_prompt.md`` -- the prompt the fit started from (fidelity compares the two);
- ``scores.json`` -- validation scores of the seed and the fitted prompt, and the search;
- ``provenance.json`` -- config, seed, models, sessions used (train / validation / held-out),
  package versions.

Files are written to a temporary name then renamed, so a killed run never leaves half a file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from autointeract.errors import ConfigError

PROMPT_FILE, SEED_FILE = "behavior_prompt.md", "seed_prompt.md"
SCORES_FILE, PROVENANCE_FILE = "scores.json", "provenance.json"


class UserModel(BaseModel):
    """A fitted user model as loaded from its folder."""

    name: str
    path: str
    behavior_prompt: str
    seed_prompt: str | None = None
    scores: dict[str, Any] = Field(default_factory=dict)
    provenance: dict[str, Any] = Field(default_factory=dict)

    @property
    def train_sessions(self) -> list[str]:
        """Ids of sessions whose turns the fit saw (train and validation)."""
        p = self.provenance.get("sessions", {})
        return [*p.get("train", []), *p.get("val", [])]


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def save_user_model(folder: str | Path, *, behavior_prompt: str, seed_prompt: str,
                    scores: dict[str, Any], provenance: dict[str, Any]) -> Path:
    """Write a user model folder (created if needed); returns the folder."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    _write(d / SEED_FILE, seed_prompt.rstrip() + "\n")
    _write(d / SCORES_FILE, json.dumps(scores, indent=2, default=str))
    _write(d / PROVENANCE_FILE, json.dumps(provenance, indent=2, default=str))
    _write(d / PROMPT_FILE, behavior_prompt.rstrip() + "\n")  # last: marks the folder complete
    return d


def load_user_model(folder: str | Path) -> UserModel:
    """Load a user model folder (or its ``behavior_prompt.md``).

    Raises:
        ConfigError: The folder or its prompt file is missing, or a JSON file is invalid.
    """
    d = Path(folder)
    if d.is_file() and d.name == PROMPT_FILE:
        d = d.parent
    prompt = d / PROMPT_FILE
    if not d.is_dir():
        raise ConfigError("user model folder not found", file=str(d))
    if not prompt.is_file():
        raise ConfigError(f"not a user model: no {PROMPT_FILE} (fit one with "
                          "'autointeract users fit')", file=str(d))

    def js(name: str) -> dict[str, Any]:
        p = d / name
        if not p.is_file():
            return {}
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ConfigError(f"invalid JSON: {exc.msg} (line {exc.lineno})", file=str(p)) from None
        return data if isinstance(data, dict) else {}

    seed = d / SEED_FILE
    return UserModel(name=d.name, path=str(d), behavior_prompt=prompt.read_text(encoding="utf-8"),
                     seed_prompt=seed.read_text(encoding="utf-8") if seed.is_file() else None,
                     scores=js(SCORES_FILE), provenance=js(PROVENANCE_FILE))
