"""Ranking the installed backends for one problem, and explaining the choice."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from . import env, registry
from .protocol import Problem

log = logging.getLogger("topk_core")


@dataclass(frozen=True)
class Verdict:
    """One backend's standing for a problem: a score, or the reason it cannot run."""

    name: str
    score: float | None
    reason: str | None

    @property
    def usable(self) -> bool:
        return self.reason is None


def judge(name: str, problem: Problem) -> Verdict:
    """Ask one backend about a problem. Never raises."""
    entry = registry.get(name)
    if entry is None:
        return Verdict(name, None, "not installed")
    if entry.backend is None:
        return Verdict(name, None, f"failed to load: {entry.error}")
    backend = entry.backend
    try:
        reason = backend.environment() or backend.supports(problem)
        if reason:
            return Verdict(name, None, reason)
        return Verdict(name, float(backend.score(problem)), None)
    except Exception as exc:  # a buggy checker must not break dispatch
        return Verdict(name, None, f"checker raised {type(exc).__name__}: {exc}")


def rank(problem: Problem) -> list[Verdict]:
    """Every installed backend: usable ones best first, then the refusals by name.

    ``reference`` is always usable and always ranks last among the usable ones.
    """
    verdicts = [judge(name, problem) for name in sorted(registry.entries())]
    usable = [v for v in verdicts if v.usable]
    refused = [v for v in verdicts if not v.usable]
    usable.sort(key=lambda v: (v.name == "reference", -(v.score or 0.0), v.name))
    return usable + refused


_decisions: dict[tuple, str] = {}


def choose(problem: Problem) -> str:
    """The backend ``auto`` runs for ``problem`` (cached per problem and registry state)."""
    key = (problem, registry.generation, env.dispatch_fingerprint())
    name = _decisions.get(key)
    if name is None:
        ranking = rank(problem)
        name = ranking[0].name
        _decisions[key] = name
        if env.log_dispatch():
            log.info("topk auto: %s -> %s (%s)", problem, name,
                     ", ".join(f"{v.name}={v.score:.3g}" for v in ranking if v.usable))
    return name


def explain_text(problem: Problem) -> str:
    """A readable table of the ranking, for ``topk explain`` and ``topk_core.explain``."""
    lines = [f"problem: {problem}"]
    ranking = rank(problem)
    for i, v in enumerate(ranking):
        if v.usable:
            mark = "->" if i == 0 else "  "
            lines.append(f"{mark} {v.name:<14} score {v.score:8.3f}")
        else:
            lines.append(f"   {v.name:<14} refused: {v.reason}")
    return "\n".join(lines)
