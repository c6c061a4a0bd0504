"""Each package's version says what it ships, and each backend asks for the topk-core it was built against.

topk-core once stayed at 0.1.0 for seventeen sessions of changes listed as unreleased, while the backends came to
import kernel pieces that 0.1.0 lacks and still accepted any topk-core 0.1.x.
"""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(p for p in (ROOT / "packages").iterdir() if (p / "pyproject.toml").exists())
BACKENDS = [p for p in PACKAGES if p.name != "topk-core"]


def _version(pkg: Path) -> str:
    (about,) = pkg.glob("src/*/__about__.py")
    match = re.search(r'__version__\s*=\s*"([^"]+)"', about.read_text())
    assert match, f"{about}: no __version__"
    return match.group(1)


@pytest.mark.parametrize("pkg", PACKAGES, ids=lambda p: p.name)
def test_changelog_opens_with_the_version(pkg):
    heading = next(line for line in (pkg / "CHANGELOG.md").read_text().splitlines() if line.startswith("## "))
    assert heading.split()[1] == _version(pkg), (
        f"{pkg.name}: CHANGELOG opens with {heading!r}, but __version__ is {_version(pkg)}: "
        "release what the CHANGELOG lists (bump the version) or list it under the current version")


@pytest.mark.parametrize("pkg", BACKENDS, ids=lambda p: p.name)
def test_backend_requires_the_current_topk_core_minor(pkg):
    core = Version(_version(ROOT / "packages/topk-core"))
    deps = tomllib.loads((pkg / "pyproject.toml").read_text())["project"]["dependencies"]
    (req,) = [Requirement(d) for d in deps if Requirement(d).name == "topk-core"]
    floor = f"{core.major}.{core.minor}"
    assert req.specifier.contains(str(core)), f"{pkg.name}: {req} excludes topk-core {core}"
    older = Version(f"{core.major}.{core.minor - 1}.999") if core.minor else None
    assert older is None or not req.specifier.contains(str(older)), (
        f"{pkg.name}: {req} admits topk-core {older}, older than the {floor} it is built against")
