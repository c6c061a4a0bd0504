"""Across packages: every package registers its backend by entry point, cheaply,
and every backend usable here agrees with the reference (up to ties)."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import torch

import topk_core
from topk_core import registry
from topk_core.testing import check_topk, make_logits, make_seq_lens

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(p for p in (ROOT / "packages").iterdir() if (p / "pyproject.toml").exists())


def _entry_points(pkg: Path) -> dict:
    meta = tomllib.loads((pkg / "pyproject.toml").read_text())["project"]
    return meta.get("entry-points", {}).get("topk.backends", {})


@pytest.mark.parametrize("pkg", PACKAGES, ids=lambda p: p.name)
def test_package_layout(pkg):
    for name in ("README.md", "CHANGELOG.md", "pyproject.toml"):
        assert (pkg / name).exists(), f"{pkg.name} lacks {name}"
    assert list(pkg.glob("src/*/__about__.py")), f"{pkg.name} lacks a version file"
    meta = tomllib.loads((pkg / "pyproject.toml").read_text())["project"]
    if pkg.name != "topk-core":
        core = [d for d in meta["dependencies"] if d.startswith("topk-core")]
        assert core and "==" not in core[0] and ">=" in core[0], f"{pkg.name} must depend on a range of topk-core"
        assert len(_entry_points(pkg)) == 1, f"{pkg.name} must register one backend"


@pytest.mark.parametrize("pkg", PACKAGES, ids=lambda p: p.name)
def test_entry_point_loads_without_kernel_toolchains(pkg):
    for name, target in _entry_points(pkg).items():
        module, attr = target.split(":")
        code = (f"import sys, {module} as m; b = m.{attr}; assert b.name == {name!r}, b.name; "
                "bad = [x for x in ('cutlass', 'triton') if x in sys.modules]; assert not bad, bad")
        subprocess.run([sys.executable, "-c", code], check=True)


def test_every_installed_package_is_discovered():
    names = {n for pkg in PACKAGES for n in _entry_points(pkg)}
    found = registry.entries()
    for name in names:
        assert name in found, f"{name} is not installed in this environment"
        assert found[name].backend is not None, found[name].error


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_usable_backends_agree_with_reference(dtype):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    logits = make_logits("int_ties", 8, 700, dtype, device, seed=5, k=40)
    lens = make_seq_lens(4, 700, next_n=2, seed=5, device=device)
    ran = []
    for name in topk_core.available_backends():
        verdict = topk_core.auto.judge(name, topk_core.api.make_problem(logits, 40, next_n=2))
        if not verdict.usable:
            continue
        idx, vals = topk_core.top_k_varlen(logits, lens, 40, next_n=2, return_values=True, backend=name)
        check_topk(logits, lens, 40, idx, vals, next_n=2)
        ran.append(name)
    assert "reference" in ran


@pytest.mark.parametrize("pkg", PACKAGES, ids=lambda p: p.name)
def test_readme_has_supports_table(pkg):
    from topk_core.testing.readme import ROWS, supports_table

    table = supports_table(pkg / "README.md")
    missing = [row for row in ROWS if not table.get(row)]
    assert not missing, f"{pkg.name} README Supports table lacks {missing}"


def test_entry_versions_are_the_packages_own():
    """``topk info`` and the bench's meta report each backend's package ``__version__`` (an editable install's
    metadata keeps the version it was installed at)."""
    import importlib
    import re

    for entry in registry.entries().values():
        if entry.backend is None:
            continue
        pkg = ROOT / "packages" / entry.dist
        about = (pkg / "src" / entry.dist.replace("-", "_") / "__about__.py")
        if entry.name == "reference":
            about = ROOT / "packages" / "topk-core" / "src" / "topk_core" / "__about__.py"
        if about.exists():
            want = re.search(r'__version__ = "([^"]+)"', about.read_text()).group(1)
            assert entry.version == want, entry.name
    assert registry.entries()["reference"].version == importlib.import_module("topk_core").__version__
