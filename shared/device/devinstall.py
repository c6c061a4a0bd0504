"""Make every package under packages/ importable with its entry points, offline.

The device machine has no hatchling and no network, so instead of pip this
writes one ``<name>.dist-info`` per package (METADATA + entry_points.txt, read
from its pyproject.toml) into a folder and prints a PYTHONPATH that holds that
folder and every ``packages/*/src``. Usage: ``export PYTHONPATH=$(python3 shared/device/devinstall.py DIR)``.
"""

import re
import sys
import tomllib
from pathlib import Path

root = Path(__file__).resolve().parents[2]
site = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/topk-site")
site.mkdir(parents=True, exist_ok=True)
paths = [str(site)]
for pyproject in sorted(root.glob("packages/*/pyproject.toml")):
    meta = tomllib.loads(pyproject.read_text())["project"]
    src = pyproject.parent / "src"
    about = next(src.glob("*/__about__.py"))
    version = re.search(r'__version__\s*=\s*"([^"]+)"', about.read_text()).group(1)
    info = site / f"{meta['name'].replace('-', '_')}-{version}.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {version}\n")
    lines = []
    for group, eps in meta.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines += [f"{k} = {v}" for k, v in eps.items()]
    if "scripts" in meta:
        lines.append("[console_scripts]")
        lines += [f"{k} = {v}" for k, v in meta["scripts"].items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    paths.append(str(src))
print(":".join(paths))
