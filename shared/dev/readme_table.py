"""Dev: the root README's table and its summary numbers from one committed `topk bench` JSON.

Usage: python shared/dev/readme_table.py benchmarks/results/<run>.json
"Fastest of ours" lists every backend within 0.05 µs of the best one (plain calls, no transforms).
"""

import json
import sys

OURS = ("radix", "radix_filter", "radix_cutlass", "gvr", "gvr2", "sgl_fused")
FI = ("fi.top_k_varlen", "fi.top_k", "fi.ragged")


def main(path: str) -> None:
    rows = json.load(open(path))["results"]
    print("| rows × N | floor | auto | fastest of ours | torch.topk (masked) | FI top_k_varlen | FI top_k "
          "| FI ragged |")
    print("|---|---|---|---|---|---|---|---|")
    vs_varlen, vs_best, floor = [], [], []
    for r in rows:
        t = r["times_us"]
        ours = {n: t[n] for n in OURS if n in t}
        best = min(ours.values())
        names = ", ".join(n for n, v in sorted(ours.items(), key=lambda kv: kv[1]) if v - best <= 0.05)
        fi = [t.get(n) for n in FI]
        cells = [f"{v:.1f}" if v is not None else "-" for v in [t.get("torch.topk"), *fi]]
        print(f"| {r['shape']} | {r['floor_us']:.1f} | {t['auto']:.1f} | {best:.1f} ({names}) | "
              + " | ".join(cells) + " |")
        if all(v is not None for v in fi):
            vs_varlen.append(t["fi.top_k_varlen"] / t["auto"])
            vs_best.append(min(fi) / t["auto"])
        if r["floor_us"] >= 3.9:  # cells of 16 MB and more
            floor.append((t["auto"] / r["floor_us"], r["shape"]))
    print(f"\nauto vs FI top_k_varlen {min(vs_varlen):.2f}-{max(vs_varlen):.2f}x, vs the fastest FI "
          f"{min(vs_best):.2f}-{max(vs_best):.2f}x on {len(vs_best)} cells")
    print("auto / floor: " + ", ".join(f"{s} {x:.2f}x" for x, s in sorted(floor)))


if __name__ == "__main__":
    main(sys.argv[1])
