"""Dev: the SASS lines with the most warp-stall samples in an ncu `--page source --csv` dump.

Usage: python3 shared/device/ncu_top.py FILE.csv [N]
"""

import csv
import sys


def main(path: str, top: int) -> None:
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    rows = list(csv.DictReader(lines))
    if not rows:
        print("ncu_top: no rows in", path)
        return
    cols = list(rows[0])
    stall = next((c for c in cols if "Warp Stall Sampling (All" in c), None)
    if stall is None:
        print("ncu_top: columns", cols[:30])
        return
    total = sum(float(r[stall] or 0) for r in rows)
    print(f"ncu_top: {len(rows)} SASS lines, {total:.0f} stall samples; columns: {cols[:12]}")
    src = next((c for c in cols if c.lower() in ("source", "sass")), cols[1])
    addr = cols[0]
    ranked = sorted(rows, key=lambda r: -float(r[stall] or 0))[:top]
    for r in ranked:
        print(f"{r[addr]:>6} {float(r[stall] or 0) / total * 100:5.1f}%  {r[src][:90]}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
