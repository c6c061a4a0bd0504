"""Dev only: rewrite every backend's measured table from committed benchmark JSONs.

Each table maps (rows, N) to torch.topk µs / backend µs on the fp32, k=2048, next_n=1 cells
(what ``auto`` ranks by). Later files win where cells repeat.
Usage: python3 shared/device/update_scores.py RESULTS.json [...] [--write]
Without --write it prints the tables.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: (checks.py, table name, benchmark column) per table.
TABLES = [
    ("packages/topk-radix/src/topk_radix/checks.py", "MEASURED_SPEEDUP", "radix"),
    ("packages/topk-radix-cutlass/src/topk_radix_cutlass/checks.py", "MEASURED_SPEEDUP", "radix_cutlass"),
    ("packages/topk-radix-filter/src/topk_radix_filter/checks.py", "MEASURED", "radix_filter"),
    ("packages/topk-sgl-fused/src/topk_sgl_fused/checks.py", '"none"', "sgl_fused"),
    ("packages/topk-sgl-fused/src/topk_sgl_fused/checks.py", '"page_table"', "sgl_fused:page"),
    ("packages/topk-sgl-fused/src/topk_sgl_fused/checks.py", '"ragged"', "sgl_fused:ragged"),
    # gvr runs only with a hint: its column comes from a `topk bench --hint` run (session 40)
    ("packages/topk-gvr/src/topk_gvr/checks.py", "MEASURED", "gvr"),
]


def speedups(paths, column):
    table = {}
    for path in paths:
        for cell in json.loads(Path(path).read_text())["results"]:
            if cell["dtype"] != "float32" or cell["k"] != 2048 or cell["next_n"] != 1:
                continue
            times = cell["times_us"]
            if times.get(column) and times.get("torch.topk"):
                table[(cell["rows"], cell["n"])] = round(times["torch.topk"] / times[column], 2)
    return dict(sorted(table.items()))


def literal(table, indent):
    items = [f"({r}, {n}): {v}" for (r, n), v in table.items()]
    lines, line = [], ""
    for item in items:
        if line and len(line) + len(item) + 2 > 112 - indent:
            lines.append(line.rstrip())
            line = ""
        line += item + ", "
    lines.append(line.rstrip())
    pad = " " * (indent + 4)
    return "{\n" + "\n".join(pad + x for x in lines) + "\n" + " " * indent + "}"


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    for rel, name, column in TABLES:
        table = speedups(args, column)
        print(f"{rel} {name} ({column}): {table}")
        if "--write" not in sys.argv or not table:
            continue
        path = ROOT / rel
        src = path.read_text()
        pattern = re.compile(r"(^( *)" + re.escape(name) + r"(?:: [^=\n]+)?(?: =|:) )\{.*?\n\2\}", re.S | re.M)
        match = pattern.search(src)
        assert match, (rel, name)
        new = match.group(1) + literal(table, len(match.group(2)))
        path.write_text(src[:match.start()] + new + src[match.end():])


if __name__ == "__main__":
    main()
