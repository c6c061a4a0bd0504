"""Run a grid: check every candidate once, then time it; returns plain result rows."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import torch

from ..testing.check import TopKMismatch, check_topk
from ..testing.inputs import HINT_NOISE
from .candidates import Candidate, make_inputs
from .grids import Shape
from .timing import rotations, time_graph, time_wall


@dataclass
class Row:
    shape: Shape
    floor_us: float | None
    times: dict[str, float] = field(default_factory=dict)  # µs
    notes: dict[str, str] = field(default_factory=dict)  # why a cell is empty


def _progress(total: int):
    try:
        from tqdm import tqdm

        return tqdm(total=total, file=sys.stderr, desc="topk bench", leave=False)
    except ImportError:
        class Plain:
            n = 0

            def update(self, k=1):
                self.n += k
                print(f"topk bench: {self.n}/{total}", file=sys.stderr, flush=True)

            def set_postfix_str(self, s):
                pass

            def close(self):
                pass

        return Plain()


def _check(shape: Shape, inputs, prepared) -> None:
    idx = prepared.result(0)
    seq = inputs.seq_lens[0]
    if prepared.full_rows:
        seq = torch.full_like(seq, shape.n + shape.next_n - 1)
    check_topk(inputs.logits[0], seq, shape.k, idx, next_n=shape.next_n)


def run_grid(shapes: list[Shape], candidates: list[Candidate], device: str, copy_gbs: float | None,
             replays: int = 20, hint: str | None = None, hint_noise: float = HINT_NOISE,
             kind: str = "randn") -> list[Row]:
    """Everything runs on one side stream: graphs cannot be captured on the default stream,
    and per-stream scratch must be created (eagerly) on the stream that captures.
    ``hint``: a ``make_hint`` mode; every input set then carries a ``pre_idx`` that candidates pass (``hint_noise``:
    its ``noise``). ``kind``: the rows' values (``make_inputs``)."""
    if device == "cuda":
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            rows = _run_grid(shapes, candidates, device, copy_gbs, replays, hint, hint_noise, kind)
        stream.synchronize()
        return rows
    return _run_grid(shapes, candidates, device, copy_gbs, replays, hint, hint_noise, kind)


def _run_grid(shapes, candidates, device, copy_gbs, replays, hint=None, hint_noise=HINT_NOISE,
              kind="randn") -> list[Row]:
    rows: list[Row] = []
    bar = _progress(len(shapes) * len(candidates))
    for shape in shapes:
        floor = shape.nbytes / (copy_gbs * 1e3) if copy_gbs else None
        row = Row(shape, floor)
        count = rotations(shape.nbytes) if device == "cuda" else 2
        inputs = make_inputs(shape, count, device, hint=hint, hint_noise=hint_noise, kind=kind)
        for cand in candidates:
            bar.set_postfix_str(f"{shape.label} {cand.name}")
            try:
                prepared = cand.prepare(shape, inputs)
                if isinstance(prepared, str):
                    row.notes[cand.name] = prepared
                    continue
                for i in range(count):  # eager pass: compiles, creates scratch
                    prepared.step(i)
                if device == "cuda":
                    torch.cuda.synchronize()
                _check(shape, inputs, prepared)
                if device == "cuda":
                    row.times[cand.name] = time_graph(prepared.step, count, replays)
                else:
                    row.times[cand.name] = time_wall(prepared.step, count)
            except TopKMismatch as exc:
                row.notes[cand.name] = f"WRONG: {exc}"
            except Exception as exc:  # one candidate's failure must not end the run
                row.notes[cand.name] = f"error: {type(exc).__name__}: {str(exc)[:200]}"
            finally:
                bar.update(1)
        rows.append(row)
        del inputs
        if device == "cuda":
            torch.cuda.empty_cache()
    bar.close()
    return rows
