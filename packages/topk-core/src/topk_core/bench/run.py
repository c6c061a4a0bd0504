"""Run a grid: check every candidate on every input set eagerly, time it, then check what the timed replays
wrote; returns plain result rows."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

import torch

from ..testing.check import TopKMismatch, check_topk
from ..testing.inputs import HINT_NOISE
from .candidates import Candidate, make_inputs
from .grids import Shape
from .timing import rotations, spread, time_graph_samples, time_wall_samples


@dataclass
class Row:
    shape: Shape
    floor_us: float | None
    times: dict[str, float] = field(default_factory=dict)  # µs, the median of the samples
    notes: dict[str, str] = field(default_factory=dict)  # why a cell is empty
    spreads: dict[str, dict] = field(default_factory=dict)  # per candidate: min, quartiles, max of the samples
    floor_valid_us: float | None = None  # one read of the valid columns only (seq_lens), at the copy rate
    rotations: int = 0  # input sets the timed graph rotates over
    set_bytes: int = 0  # logits bytes of one input set


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


def _check(shape: Shape, inputs, prepared, count: int, when: str) -> None:
    """Every input set's result, exactly (``when`` names the pass for the message)."""
    for i in range(count):
        seq = inputs.seq_lens[i]
        if prepared.full_rows:
            seq = torch.full_like(seq, shape.n + shape.next_n - 1)
        try:
            check_topk(inputs.logits[i], seq, shape.k, prepared.result(i), next_n=shape.next_n)
        except TopKMismatch as exc:
            raise TopKMismatch(f"{when}, input set {i}: {exc}") from None


def _valid_floor(shape: Shape, inputs, copy_gbs: float | None) -> float | None:
    """µs to read the valid columns once (the mean over the input sets), at the copy rate."""
    if not copy_gbs:
        return None
    cols = sum(float(lengths.to(torch.float64).sum()) for lengths in inputs.lengths) / len(inputs.lengths)
    return cols * shape.nbytes / (shape.rows * shape.n) / (copy_gbs * 1e3)


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
        count = rotations(shape.nbytes) if device == "cuda" else 2
        inputs = make_inputs(shape, count, device, hint=hint, hint_noise=hint_noise, kind=kind)
        row = Row(shape, floor, floor_valid_us=_valid_floor(shape, inputs, copy_gbs), rotations=count,
                  set_bytes=shape.nbytes)
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
                _check(shape, inputs, prepared, count, "eager")
                if device == "cuda":
                    samples = time_graph_samples(prepared.step, count, replays)
                    torch.cuda.synchronize()
                else:
                    samples = time_wall_samples(prepared.step, count)
                _check(shape, inputs, prepared, count, "after the timed replays")  # what the timed path wrote
                row.spreads[cand.name] = spread(samples)
                row.times[cand.name] = row.spreads[cand.name]["median"]
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
