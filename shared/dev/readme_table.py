"""Dev: the root README's table and its summary numbers from one committed `topk bench` JSON.

Usage: python shared/dev/readme_table.py benchmarks/results/<run>.json
"Fastest of ours" lists every backend within 0.05 µs of the best one (plain calls, no transforms). An FI column
takes the faster of FlashInfer's own dispatch under graph capture and ``FLASHINFER_TOPK_ALGO=default``
(``fi.top_k[native]``, ``fi.ragged[native]``) where a run has both. Distances from the floor are given against
the issue's floor (all N columns of every row) and against the valid columns only (``floor_valid_us``, or the
bench's own seq_lens recomputed on CPU for runs that predate it: ``valid_floor``).
"""

import json
import sys

OURS = ("radix", "radix_filter", "radix_cutlass", "gvr", "gvr2", "sgl_fused")
FI = ("fi.top_k_varlen", "fi.top_k", "fi.ragged")
SIXTEEN_MB = 16 << 20


def fi_time(t: dict, name: str):
    """The faster of FlashInfer's graph-time dispatch and its native path, where both ran."""
    got = [t[n] for n in (name, name + "[native]") if n in t]
    return min(got) if got else None


def valid_floor(r: dict, copy_gbs: float) -> float:
    """The cell's one read of its valid columns (the bench's seq_lens are drawn on the CPU generator, so they can
    be drawn again here)."""
    if r.get("floor_valid_us") is not None:
        return r["floor_valid_us"]
    from topk_core.bench.timing import rotations
    from topk_core.keys import valid_lengths
    from topk_core.testing.inputs import make_seq_lens

    itemsize = 4 if r["dtype"] == "float32" else 2
    count = rotations(r["rows"] * r["n"] * itemsize)
    cols = 0.0
    for i in range(count):
        s = make_seq_lens(r["rows"] // r["next_n"], r["n"], next_n=r["next_n"], seed=i, mode="uniform")
        cols += float(valid_lengths(s, r["rows"], r["n"], r["next_n"]).double().sum())
    return cols / count * itemsize / (copy_gbs * 1e3)


def main(path: str) -> None:
    run = json.load(open(path))
    rows, copy_gbs = run["results"], run["meta"]["copy_gbs"]
    print("| rows × N | floor | auto | fastest of ours | torch.topk (masked) | FI top_k_varlen | FI top_k "
          "| FI ragged |")
    print("|---|---|---|---|---|---|---|---|")
    vs_varlen, vs_best, floor = [], [], []
    for r in rows:
        t = r["times_us"]
        ours = {n: t[n] for n in OURS if n in t}
        best = min(ours.values())
        names = ", ".join(n for n, v in sorted(ours.items(), key=lambda kv: kv[1]) if v - best <= 0.05)
        fi = [fi_time(t, n) for n in FI]
        cells = [f"{v:.1f}" if v is not None else "-" for v in [t.get("torch.topk"), *fi]]
        print(f"| {r['shape']} | {r['floor_us']:.1f} | {t['auto']:.1f} | {best:.1f} ({names}) | "
              + " | ".join(cells) + " |")
        if all(v is not None for v in fi):
            vs_varlen.append(fi[0] / t["auto"])
            vs_best.append(min(fi) / t["auto"])
        itemsize = 4 if r["dtype"] == "float32" else 2
        if r["rows"] * r["n"] * itemsize >= SIXTEEN_MB:  # the cells of 16 MB and more
            floor.append((t["auto"] / r["floor_us"], t["auto"] / valid_floor(r, copy_gbs), r["shape"]))
    print(f"\nauto vs FI top_k_varlen {min(vs_varlen):.2f}-{max(vs_varlen):.2f}x, vs the fastest FI "
          f"{min(vs_best):.2f}-{max(vs_best):.2f}x on {len(vs_best)} cells")
    print("auto / floor (all N; valid columns): "
          + ", ".join(f"{s} {x:.2f}x; {v:.2f}x" for x, v, s in sorted(floor)))


if __name__ == "__main__":
    main(sys.argv[1])
