"""The variant generator: seed problem + user profile + knobs -> a checked multi-turn task.

The LLM step is a typed dspy module (:class:`VariantProgram` over :class:`WriteVariant`),
whose calls go through the project's LLM layer (``make_dspy_lm``: cache, retries, accounting),
so the generator itself can be optimized with dspy/GEPA like any program. Its output is a
:class:`~autointeract.calibrate.variant.VariantDraft`; a draft that fails the schema or does
not fit the seed and knobs is replaced by the deterministic knob-only draft (recorded in
``task.meta["generator"]``). Then the variant's verifier is run on the reference solution:
a variant it no longer agrees with is discarded. A firewall (any object with
``check(text) -> match | None``) refuses variants that match an evaluation benchmark.

    gen = Generator(GeneratorConfig(), client=client, model=ModelConfig(...))
    result = gen.generate(seed_task, profile, knobs, seed=7)
    result.task, result.status   # TaskSpec | None, "ok" | "reference_disagrees" | "firewalled"
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import ValidationError

from autointeract.calibrate.config import GeneratorConfig
from autointeract.calibrate.knobs import Knobs
from autointeract.calibrate.variant import (
    DraftError,
    VariantDraft,
    build_variant,
    examples_text,
    knob_draft,
    n_hidden,
)
from autointeract.rollout.seeding import derive_seed
from autointeract.types import TaskSpec, UserProfile, VerifierResult

if TYPE_CHECKING:
    from autointeract.config import ModelConfig
    from autointeract.llm.client import LLMClient


class Firewall(Protocol):
    """The evaluation firewall hook (``autointeract.eval.firewall.Firewall``): ``check`` takes a
    text or a TaskSpec and returns a match (refuse) or None."""

    def check(self, item: Any) -> Any:
        ...


@dataclass
class GenerationResult:
    """One generation attempt: the task (None when discarded) and why."""

    task: TaskSpec | None
    status: str  # ok | reference_disagrees | firewalled | no_requirements_fit
    source: str = "fallback"  # llm | fallback
    fallback_reason: str = ""
    reference: dict[str, Any] = field(default_factory=dict)
    firewall_match: str | None = None


def knob_instructions(seed: TaskSpec, knobs: Knobs) -> str:
    """The knobs as plain instructions for the generator model."""
    n = len(seed.requirements)
    vague = ["State the full problem clearly.", "Paraphrase the request briefly.",
             "Be brief and leave details out.", "One short, vague sentence only."][knobs.vagueness]
    return (f"{vague} Hide exactly {n_hidden(knobs, n)} of the {n} requirements (list their "
            f"indices in `hidden`, the rest in `stated` and mention those in the opening). "
            f"Add at most {knobs.constraints} edge-case constraints, each with one test input "
            f"and its exact expected output in the examples' format. "
            f"{'Show the examples.' if knobs.examples else 'Do not show examples.'}")


def profile_text(profile: UserProfile | None) -> str:
    if profile is None:
        return "an ordinary developer"
    traits = ", ".join(f"{p}={getattr(profile, p):.2f}" for p in UserProfile.PARAMS)
    return f"{profile.persona or 'a developer'} ({traits})"


def make_program() -> Any:
    """The dspy program (built lazily so importing this module does not import dspy)."""
    import dspy

    class WriteVariant(dspy.Signature):
        """Rewrite a coding problem as the opening of a realistic multi-turn conversation in
        which a developer asks a coding assistant for it, holding some requirements back."""

        problem: str = dspy.InputField(desc="the full problem statement")
        requirements: list[str] = dspy.InputField(desc="the requirements, index = position")
        examples: str = dspy.InputField(desc="public examples (may be empty)")
        user: str = dspy.InputField(desc="who the developer is and how they talk")
        difficulty: str = dspy.InputField(desc="difficulty settings to follow exactly")
        variant: VariantDraft = dspy.OutputField()

    class VariantProgram(dspy.Module):
        def __init__(self) -> None:
            super().__init__()
            self.write = dspy.Predict(WriteVariant)

        def forward(self, **kw: Any) -> Any:
            return self.write(**kw)

    return VariantProgram()


def reference_check(task: TaskSpec) -> VerifierResult | None:
    """The task's verifier on its reference solution (None when there is none). Blocking."""
    if not task.reference_solution or task.verifier.kind not in ("stdin", "functional"):
        return None
    from autointeract.verifiers import verify

    return verify(task.verifier, solution=task.reference_solution)


class Generator:
    """Generates checked task variants (see the module docstring).

    Args:
        config: generator settings.
        client: the LLM client (None: knob-only variants).
        model: the generator's model.
        firewall: optional evaluation firewall; matching variants are refused.
        program: a (possibly optimized) dspy program; default :func:`make_program`.
    """

    def __init__(self, config: GeneratorConfig | None = None, *, client: LLMClient | None = None,
                 model: ModelConfig | str | None = None, firewall: Firewall | None = None,
                 program: Any = None):
        self.config = config or GeneratorConfig()
        self.client, self.model, self.firewall = client, model, firewall
        self._program = program

    @property
    def use_llm(self) -> bool:
        return self.config.use_llm and self.client is not None and self.model is not None

    def draft(self, seed_task: TaskSpec, profile: UserProfile | None, knobs: Knobs, *,
              seed: int) -> tuple[VariantDraft | None, str]:
        """The LLM's draft, or ``(None, reason)`` when it failed or was invalid."""
        import dspy

        from autointeract.llm.dspy_lm import make_dspy_lm

        if self._program is None:
            self._program = make_program()
        lm = make_dspy_lm(self.client, self.model, stage="calibrate.generator")  # type: ignore[arg-type]
        try:
            with dspy.context(lm=lm, adapter=dspy.ChatAdapter(use_json_adapter_fallback=False)):
                pred = self._program(
                    problem=seed_task.hidden_goal, examples=examples_text(seed_task),
                    requirements=[r.text for r in seed_task.requirements],
                    user=profile_text(profile), difficulty=knob_instructions(seed_task, knobs),
                    config={"seed": seed, "max_tokens": self.config.max_tokens,
                            "temperature": self.config.temperature})
            out = pred.variant
            draft = out if isinstance(out, VariantDraft) else VariantDraft.model_validate(out)
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            return None, f"invalid output: {type(exc).__name__}: {str(exc)[:160]}"
        except Exception as exc:  # dspy parse errors, LLM errors: fall back, never crash
            return None, f"{type(exc).__name__}: {str(exc)[:160]}"
        return draft, ""

    def generate(self, seed_task: TaskSpec, profile: UserProfile | None, knobs: Knobs, *,
                 seed: int, meta: dict[str, Any] | None = None) -> GenerationResult:
        """One variant, checked against the reference solution and the firewall. Blocking.

        An LLM variant the reference solution fails is discarded (counted in
        ``meta["generator"]["discarded"]``) and the knob-only variant is tried instead.
        """
        task, source, reason = None, "fallback", "llm disabled"
        if self.use_llm:
            draft, reason = self.draft(seed_task, profile, knobs, seed=seed)
            if draft is not None:
                try:
                    task, source = build_variant(seed_task, draft, knobs, meta=meta), "llm"
                except DraftError as exc:
                    reason = f"draft does not fit: {exc}"
        discarded: list[dict[str, Any]] = []
        while True:
            if task is None:
                rng = random.Random(derive_seed(seed, "fallback", seed_task.task_id))
                task = build_variant(seed_task, knob_draft(seed_task, knobs, rng=rng), knobs,
                                     meta=meta)
            res = self._check(task, source, reason, profile, discarded)
            if res.status == "reference_disagrees" and source == "llm":
                discarded.append({"task_id": task.task_id, "reference": res.reference})
                task, source, reason = None, "fallback", "llm variant failed the reference"
                continue
            return res

    def _check(self, task: TaskSpec, source: str, reason: str, profile: UserProfile | None,
               discarded: list[dict[str, Any]]) -> GenerationResult:
        task.meta["generator"] = {"source": source,
                                  "fallback_reason": "" if source == "llm" else reason,
                                  "profile_id": profile.id if profile else None,
                                  "discarded": list(discarded)}
        res = GenerationResult(task=task, status="ok", source=source,
                               fallback_reason=task.meta["generator"]["fallback_reason"])
        if self.firewall is not None:
            hit = self.firewall.check(task)
            if hit is not None:
                res.task, res.status, res.firewall_match = None, "firewalled", str(hit)[:200]
                return res
        if self.config.check_reference:
            check = reference_check(task)
            res.reference = ({"checked": False} if check is None else
                             {"checked": True, "passed": check.passed, "score": check.score})
            task.meta["reference_check"] = res.reference
            if check is not None and not check.passed:
                res.task, res.status = None, "reference_disagrees"
        return res


__all__ = ["Firewall", "GenerationResult", "Generator", "knob_instructions", "make_program",
           "profile_text", "reference_check"]
