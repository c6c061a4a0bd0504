"""Dev: executed warp instructions per phase of a kernel, from an ncu `--page source --csv` dump.

A phase is the SASS between two block barriers (BAR.SYNC), so a row kernel's passes, bin searches
and clears show apart. Usage: python3 shared/device/ncu_phases.py FILE.csv
"""

import sys

from ncu_top import source_rows  # same folder


def main(path: str) -> None:
    rows = source_rows(path)
    if not rows:
        print("ncu_phases: no rows in", path)
        return
    cols = list(rows[0])
    inst = next((c for c in cols if c.strip() == "Instructions Executed"), None)
    src = next((c for c in cols if c.lower() in ("source", "sass")), cols[1])
    if inst is None:
        print("ncu_phases: columns", cols)
        return
    total = sum(float(r[inst] or 0) for r in rows)
    print(f"ncu_phases: {len(rows)} SASS lines, {total:.0f} warp instructions executed")
    phase, start, ops = 0.0, rows[0][cols[0]], {}
    for r in rows:
        n = float(r[inst] or 0)
        phase += n
        op = r[src].split()[0] if r[src].split() else "?"
        op = r[src].split()[1] if op.startswith("@") and len(r[src].split()) > 1 else op
        ops[op.split(".")[0]] = ops.get(op.split(".")[0], 0) + n
        if "BAR.SYNC" in r[src] or r is rows[-1]:
            if phase > 0.005 * total:
                top = sorted(ops.items(), key=lambda kv: -kv[1])[:6]
                print(f"{start:>6}-{r[cols[0]]:>6} {phase / total * 100:5.1f}%  " +
                      " ".join(f"{k}:{v / total * 100:.1f}" for k, v in top))
            phase, start, ops = 0.0, r[cols[0]], {}


if __name__ == "__main__":
    main(sys.argv[1])
