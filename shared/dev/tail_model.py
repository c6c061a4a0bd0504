"""Dev (session 39, CPU): a toy model of a many-wave kernel's last wave, to size what a longest-first row order could
save before measuring it (``shared/device/tail_probe.py`` measures it).

Each of ``sms`` SMs holds up to ``slots`` CTAs; a free slot takes the next row from one queue (the hardware's
block scheduler); a row's work is its length (uniform in [1/2, 1], as the benchmark's seq_lens); an SM with n
resident CTAs does min(1, n / sat) units of work per unit time, shared equally (``sat``: the CTAs an SM needs to
hide latency; the real value is unknown, so the table spans it), and all SMs together at most ``bw`` x sms units
(DRAM: 1 never binds; a cell streaming near bandwidth has bw just above its full-occupancy rate, so an SM left alone
in the last wave speeds up). Prints, for each cell, time in the drawn order,
longest first, and the first wave as drawn with the rest longest first (a sort that runs beside the first wave).

Usage: python3 shared/dev/tail_model.py
"""

from __future__ import annotations

import numpy as np


def makespan(lengths, sms: int, slots: int, sat: float, bw: float = 1.0) -> float:
    queue = iter(lengths)
    resident = [[] for _ in range(sms)]
    for _ in range(slots):
        for sm in resident:
            sm.extend(x for x in [next(queue, None)] if x is not None)
    t = 0.0
    while any(resident):
        rates = [min(1.0, len(sm) / sat) / len(sm) if sm else 0.0 for sm in resident]
        total = sum(r * len(sm) for sm, r in zip(resident, rates))
        rates = [r * min(1.0, bw * sms / total) for r in rates]
        dt = min(min(sm) / r for sm, r in zip(resident, rates) if sm)
        t += dt
        for i, (sm, r) in enumerate(zip(resident, rates)):
            left = [x - dt * r for x in sm]
            done = sum(x <= 1e-9 for x in left)
            resident[i] = [x for x in left if x > 1e-9]
            resident[i].extend(x for x in (next(queue, None) for _ in range(done)) if x is not None)
    return t


def main():
    rng = np.random.default_rng(0)
    sms = 132
    print("cell (slots per SM, sat, bw): drawn / longest first / first wave drawn, rest longest first (saving %)")
    for name, rows, slots in (("4096x8K SHORT_MANY", 4096, 6), ("2048x8K SHORT_MANY", 2048, 6),
                              ("1024x64K LIGHT", 1024, 3), ("512x128K MANY_ROWS", 512, 2)):
        for sat, bw in sorted({(2.0, 1.0), (float(min(4, slots)), 1.0), (float(min(4, slots)), 0.8)}):
            lengths = list(rng.uniform(0.5, 1.0, rows))
            wave = sms * slots
            drawn = makespan(lengths, sms, slots, sat, bw)
            desc = makespan(sorted(lengths, reverse=True), sms, slots, sat, bw)
            split = makespan(lengths[:wave] + sorted(lengths[wave:], reverse=True), sms, slots, sat, bw)
            saved = [100 * (1 - t / drawn) for t in (desc, split)]
            print(f"{name:>20} ({slots}, {sat:.0f}, {bw}): {drawn:.2f} / {desc:.2f} ({saved[0]:.1f}%) / "
                  f"{split:.2f} ({saved[1]:.1f}%)")


if __name__ == "__main__":
    main()
