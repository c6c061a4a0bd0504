"""The one entry point for development: lint, unit, interpreter, compile, integration, tests (CI),
gpu, bench, build. ``nox -l`` lists them; ``nox -s tests`` is what CI runs.

CI leaves out the ``slow``-marked tests (the whole product of CuTe DSL and Triton builds, the interpreter's
off-diagonal dtype x transform runs): each kernel family, flag and dtype still builds and runs there through a
fast lane. ``nox -s compile interpreter`` runs everything, slow tests included."""

from __future__ import annotations

import glob
import os

import nox

nox.options.default_venv_backend = "venv"
nox.options.reuse_existing_virtualenvs = True
nox.options.sessions = ["lint", "tests"]

PACKAGES = sorted(os.path.basename(p) for p in glob.glob("packages/topk-*"))
BACKENDS = [p for p in PACKAGES if p != "topk-core"]
CONSTRAINTS = ["-c", "constraints-cpu.txt"]
# The CPU test run: everything that needs no GPU; gpu-marked tests run on the device.
CPU_PYTEST = ["-q", "-m", "not gpu and not interpreter", "-p", "no:cacheprovider"]
#: CI's two phases: the CPU tests and the interpreter tests, both without the slow-marked ones (see above).
CI_CPU_PYTEST = ["-q", "-m", "not gpu and not interpreter and not slow", "-p", "no:cacheprovider"]
CI_INTERPRETER_PYTEST = ["-q", "-m", "interpreter and not slow", "-p", "no:cacheprovider"]
#: pytest-xdist: one worker per core (CI has two); the compile tests are one build list per dtype or part so they
#: spread; tests handed out one at a time, slow-marked first (conftest.py), so no long build runs alone at the end.
PARALLEL = ["-n", "auto", "--maxschedchunk", "1"]
#: Packages a package depends on that live in this repo (pip would look for them on an index otherwise).
LOCAL_DEPS = {"topk-radix": ["topk-radix-filter"], "topk-gvr": ["topk-sgl-fused"]}


def _install(session: nox.Session, packages: list[str], extras: tuple[str, ...] = ()) -> None:
    session.install(*CONSTRAINTS, "pytest>=8", "pytest-xdist", "torch", "numpy", *extras)
    session.install(*CONSTRAINTS, *[arg for p in packages for arg in ("-e", f"packages/{p}")])


@nox.session
def lint(session: nox.Session) -> None:
    session.install("ruff")
    session.run("ruff", "check", ".")


@nox.session
@nox.parametrize("package", PACKAGES)
def unit(session: nox.Session, package: str) -> None:
    """One package with topk-core only: catches undeclared dependencies."""
    _install(session, ["topk-core"] + ([package, *LOCAL_DEPS.get(package, [])] if package != "topk-core" else []))
    session.run("pytest", *CPU_PYTEST, f"packages/{package}/tests", *session.posargs)


@nox.session
def interpreter(session: nox.Session) -> None:
    """Triton kernels, exactly, under TRITON_INTERPRET=1 on small shapes."""
    _install(session, PACKAGES)
    session.run("pytest", "-q", "-m", "interpreter", "-p", "no:cacheprovider", "packages", *session.posargs,
                env={"TRITON_INTERPRET": "1"}, success_codes=[0, 5])


@nox.session
def compile(session: nox.Session) -> None:
    """Every kernel variant compiles for sm_90a on CPU (CuTe DSL and Triton)."""
    _install(session, PACKAGES)
    session.run("pytest", "-q", "-k", "compile", "-m", "not gpu and not interpreter", "-p", "no:cacheprovider",
                "packages", *session.posargs, env={"CUTE_DSL_ARCH": "sm_90a"}, success_codes=[0, 5])


@nox.session
def integration(session: nox.Session) -> None:
    """All packages together: discovery, auto ranking, cross-backend agreement."""
    _install(session, PACKAGES)
    session.run("pytest", *CPU_PYTEST, "tests", *session.posargs)


@nox.session
def tests(session: nox.Session) -> None:
    """What CI runs: lint-free code, the CPU tests of every package, the interpreter, integration (no slow tests)."""
    _install(session, PACKAGES, ("ruff",))
    session.run("ruff", "check", ".")
    session.run("pytest", *CI_CPU_PYTEST, *PARALLEL, "packages", "tests", *session.posargs,
                env={"CUTE_DSL_ARCH": "sm_90a"})
    session.run("pytest", *CI_INTERPRETER_PYTEST, *PARALLEL, "packages", "tests",
                env={"TRITON_INTERPRET": "1"}, success_codes=[0, 5])
    session.run("topk", "check")


@nox.session
def gpu(session: nox.Session) -> None:
    """GPU tests on a CUDA machine; a skipped GPU test fails (TOPK_REQUIRE_GPU=1)."""
    session.install("pytest>=8")
    session.install(*[arg for p in PACKAGES for arg in ("-e", f"packages/{p}")])
    session.run("pytest", "-q", "-m", "gpu", "packages", "tests", *session.posargs, env={"TOPK_REQUIRE_GPU": "1"})


@nox.session
def bench(session: nox.Session) -> None:
    """``topk bench`` (default grid; the reference on the CPU grid without a GPU)."""
    _install(session, PACKAGES, ("matplotlib", "tqdm"))
    session.run("topk", "bench", *session.posargs)


@nox.session
def build(session: nox.Session) -> None:
    """A wheel and an sdist of every package into dist/."""
    session.install("build")
    for package in PACKAGES:
        session.run("python", "-m", "build", "--outdir", "dist", f"packages/{package}")
