"""The packages' release metadata.

- `pip install topk-core[<backend>]` must accept the backend version this repo ships: each optional dependency of
  topk-core that names a package under packages/ must admit that package's `__version__` (a bump of a backend
  without the extra once broke this).
- Each package's CHANGELOG opens with its `__version__`, and each backend requires the topk-core minor version it is
  built against. topk-core once stayed at 0.1.0 for seventeen sessions of changes listed as unreleased, while the
  backends came to import kernel pieces that 0.1.0 lacks and still accepted any topk-core 0.1.x.
"""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _shipped_versions() -> dict[str, str]:
    versions = {}
    for about in ROOT.glob("packages/*/src/*/__about__.py"):
        match = re.search(r'__version__\s*=\s*"([^"]+)"', about.read_text())
        assert match, f"{about}: no __version__"
        versions[about.parents[2].name] = match.group(1)
    return versions


def _extra_requirements():
    meta = tomllib.loads((ROOT / "packages/topk-core/pyproject.toml").read_text())
    for extra, reqs in meta["project"]["optional-dependencies"].items():
        for req in reqs:
            yield extra, Requirement(req)


def test_every_backend_package_has_an_extra():
    named = {req.name for _, req in _extra_requirements()}
    missing = set(_shipped_versions()) - named - {"topk-core"}
    assert not missing, f"packages with no topk-core extra: {sorted(missing)}"


_IN_REPO = [(extra, req) for extra, req in _extra_requirements() if req.name in _shipped_versions()]


def test_extras_name_in_repo_backends():
    assert len(_IN_REPO) >= 8  # four backends, each in its own extra and in [all]


@pytest.mark.parametrize("extra,req", _IN_REPO, ids=lambda v: str(v))
def test_extra_admits_the_shipped_version(extra, req):
    shipped = _shipped_versions()
    assert req.specifier.contains(shipped[req.name], prereleases=True), (
        f"topk-core[{extra}] requires {req}, but packages/{req.name} is {shipped[req.name]}")


@pytest.mark.parametrize("pkg", sorted(_shipped_versions()))
def test_changelog_opens_with_the_version(pkg):
    version = _shipped_versions()[pkg]
    changelog = (ROOT / "packages" / pkg / "CHANGELOG.md").read_text()
    heading = next(line for line in changelog.splitlines() if line.startswith("## "))
    assert heading.split()[1] == version, (
        f"{pkg}: CHANGELOG opens with {heading!r}, but __version__ is {version}: "
        "release what the CHANGELOG lists (bump the version) or list it under the current version")


@pytest.mark.parametrize("pkg", sorted(set(_shipped_versions()) - {"topk-core"}))
def test_backend_requires_the_current_topk_core_minor(pkg):
    core = Version(_shipped_versions()["topk-core"])
    deps = tomllib.loads((ROOT / "packages" / pkg / "pyproject.toml").read_text())["project"]["dependencies"]
    (req,) = [Requirement(d) for d in deps if Requirement(d).name == "topk-core"]
    assert req.specifier.contains(str(core)), f"{pkg}: {req} excludes topk-core {core}"
    older = Version(f"{core.major}.{core.minor - 1}.999") if core.minor else None
    assert older is None or not req.specifier.contains(str(older)), (
        f"{pkg}: {req} admits topk-core {older}, older than the {core.major}.{core.minor} it is built against")
