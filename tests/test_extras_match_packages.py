"""`pip install topk-core[<backend>]` must accept the backend version this repo ships.

Each optional dependency of topk-core that names a package under packages/ must admit
that package's `__version__` (a bump of a backend without the extra once broke this).
"""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

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
