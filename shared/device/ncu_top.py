"""Dev: the SASS lines with the most warp-stall samples in an ncu `--page source --csv` dump.

Usage: python3 shared/device/ncu_top.py FILE.csv [N]
"""

import csv
import sys


def source_rows(path: str) -> list:
    """The per-SASS-line rows of an ncu ``--page source --csv`` dump (ncu_phases.py reads them too)."""
    with open(path, newline="") as f:
        lines = [ln for ln in f if ln.startswith('"')]
    if lines and lines[0].startswith('"Kernel Name"'):  # a line naming the kernel precedes the header
        lines = lines[1:]
    return list(csv.DictReader(lines))


def main(path: str, top: int) -> None:
    rows = source_rows(path)
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
    regions(rows, stall, src)


def regions(rows, stall: str, src: str, size: int = 100) -> None:
    """Executed warp instructions and stall samples per block of ``size`` SASS lines (in code
    order), with the block's most executed opcodes: where the instructions go."""
    executed = "Instructions Executed"
    tot_i = sum(float(r[executed] or 0) for r in rows) or 1.0
    tot_s = sum(float(r[stall] or 0) for r in rows) or 1.0
    print(f"per {size} SASS lines: % of {tot_i:.0f} warp instructions executed, % of stall samples, top opcodes")
    for b in range(0, len(rows), size):
        block = rows[b:b + size]
        ins = sum(float(r[executed] or 0) for r in block)
        smp = sum(float(r[stall] or 0) for r in block)
        if ins / tot_i < 0.01 and smp / tot_s < 0.01:
            continue
        ops = {}
        for r in block:
            words = (r[src] or "").split()
            op = words[1] if words and words[0].startswith("@") and len(words) > 1 else (words[0] if words else "")
            ops[op.split(".")[0]] = ops.get(op.split(".")[0], 0) + float(r[executed] or 0)
        top = " ".join(f"{k}:{int(v)}" for k, v in sorted(ops.items(), key=lambda x: -x[1])[:5])
        print(f"  lines {b:5d}+ instr {ins / tot_i * 100:5.1f}% stalls {smp / tot_s * 100:5.1f}%  {top}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
