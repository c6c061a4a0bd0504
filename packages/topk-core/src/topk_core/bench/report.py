"""Tables, JSON, CSV and a PNG plot of a benchmark run."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from .run import Row

PEERS = ("torch.topk", "fi.top_k_varlen", "fi.top_k", "fi.top_k[native]", "fi.ragged", "fi.ragged[native]")


def table(rows: list[Row], names: list[str], lead: str = "auto") -> str:
    """Fixed-width table: µs per candidate, the floor, and the lead's speed-up over each peer."""
    peers = [p for p in PEERS if p in names]
    head = ["shape", "floor"] + names + [f"x{p}" for p in peers]
    lines = [head]
    for row in rows:
        cells = [row.shape.label, f"{row.floor_us:.1f}" if row.floor_us is not None else "-"]
        for name in names:
            t = row.times.get(name)
            cells.append(f"{t:.1f}" if t is not None else ("WRONG" if row.notes.get(name, "").startswith("WRONG")
                                                            else "-"))
        ours = row.times.get(lead)
        for p in peers:
            t = row.times.get(p)
            cells.append(f"{t / ours:.2f}" if ours and t else "-")
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = ["  ".join(c.rjust(w) for c, w in zip(line, widths)) for line in lines]
    out.insert(1, "-" * len(out[0]))
    grouped: dict[tuple[str, str], list[str]] = {}
    for row in rows:
        for name, why in row.notes.items():
            grouped.setdefault((name, why), []).append(row.shape.label)
    if grouped:
        out += ["", "not timed:"]
        out += [f"  {name} on {', '.join(shapes) if len(shapes) < len(rows) else 'every shape'}: {why}"
                for (name, why), shapes in grouped.items()]
    return "\n".join(out)


def write(rows: list[Row], names: list[str], meta: dict, stem: Path) -> list[Path]:
    stem.parent.mkdir(parents=True, exist_ok=True)
    records = [
        dict(shape=r.shape.label, rows=r.shape.rows, n=r.shape.n, k=r.shape.k, dtype=r.shape.dtype,
             next_n=r.shape.next_n, floor_us=r.floor_us, floor_valid_us=r.floor_valid_us, rotations=r.rotations,
             set_bytes=r.set_bytes, times_us=r.times, spreads_us=r.spreads, notes=r.notes)
        for r in rows
    ]
    paths = [stem.with_suffix(".json"), stem.with_suffix(".csv")]
    paths[0].write_text(json.dumps(dict(meta=meta, results=records), indent=1))
    with paths[1].open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["# " + json.dumps(meta)])
        w.writerow(["shape", "floor_us", "floor_valid_us"] + names)
        for r in rows:
            w.writerow([r.shape.label, r.floor_us, r.floor_valid_us] + [r.times.get(n, "") for n in names])
    png = _plot(rows, names, meta, stem.with_suffix(".png"))
    if png:
        paths.append(png)
    return paths


def _plot(rows: list[Row], names: list[str], meta: dict, path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.9), 5))
    width = 0.8 / max(len(names), 1)
    colors = plt.get_cmap("tab20").colors
    for j, name in enumerate(names):
        xs = [i + j * width for i, r in enumerate(rows) if name in r.times]
        ys = [r.times[name] for r in rows if name in r.times]
        ax.bar(xs, ys, width, label=name, color=colors[j % len(colors)],
               hatch="//" if name in PEERS else None, edgecolor="white", linewidth=0)
    floors = [(i + 0.4, r.floor_us) for i, r in enumerate(rows) if r.floor_us]
    if floors:
        ax.scatter(*zip(*floors), marker="_", s=400, color="black", label="one-read floor", zorder=3)
    ax.set_yscale("log")
    ax.set_ylabel("µs (CUDA-graph replay)" if meta.get("device") == "cuda" else "µs (wall clock)")
    ax.set_xticks([i + 0.4 for i in range(len(rows))])
    ax.set_xticklabels([r.shape.label for r in rows], rotation=45, ha="right")
    rows_kind = "" if meta.get("kind", "randn") == "randn" else f", {meta['kind']} rows"
    ax.set_title(f"topk bench on {meta.get('gpu', meta.get('device'))} ({meta.get('date')}{rows_kind})")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
