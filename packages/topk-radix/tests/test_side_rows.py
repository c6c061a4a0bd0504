"""Rows past the cluster wave (``side.py``): split, run beside the wave, exact, capturable.

On the H200, 30 clusters of 8 at 2 CTAs per SM fit at once, so 31-33 rows of (8, 512, 32) or
(4, 1024, 16) put 1-3 rows on radix_filter's one-CTA kernel on a forked stream.
"""

import pytest
import torch

from topk_core import top_k_varlen
from topk_core.testing import check_topk, make_logits, make_seq_lens, poison_like
from topk_radix import checks, launch, side

pytestmark = [pytest.mark.gpu]


def _needs_gpu():
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("needs thread-block clusters (sm_90)")


def _wave(rows, n, dtype="float32", next_n=1):
    """(geometry, clusters the GPU runs at once, rows the cluster kernel takes) for a call."""
    geo = checks.reg_geometry(rows, n, dtype)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    per_sm = checks.reg_ctas_per_sm(geo[1])
    active = side.active_clusters(0, geo[0], per_sm)
    return geo, active, checks.wave_split(rows, next_n, geo[0], per_sm, active, sms)


@pytest.mark.parametrize("rows,n", [(32, 131072), (33, 70000), (32, 65536)])
def test_the_split_happens_where_clusters_do_not_fit(rows, n):
    """The occupancy query answers, and rows beyond it leave the wave (132-SM parts: 30 clusters)."""
    _needs_gpu()
    torch.zeros(1, device="cuda")  # as in a call: tensors exist on the device
    geo, active, wave = _wave(rows, n)
    assert active > 0, f"no cluster occupancy for {geo}: {side.no_answer}"
    if active < rows:
        assert wave < rows and rows - wave <= torch.cuda.get_device_properties(0).multi_processor_count
    else:
        assert wave == rows


CASES = [  # rows, n, k, dtype, kind, next_n, values
    (32, 131072, 2048, torch.float32, "randn", 1, True),
    (33, 70000, 2048, torch.float32, "nan", 1, True),
    (32, 65536, 1024, torch.float32, "int_ties", 1, False),
    (32, 100000, 512, torch.bfloat16, "plateau", 2, True),
    (32, 131072, 3000, torch.float16, "inf", 4, True),
]


@pytest.mark.parametrize("rows,n,k,dtype,kind,next_n,values", CASES)
def test_side_rows_exact(rows, n, k, dtype, kind, next_n, values, monkeypatch):
    _needs_gpu()
    splits = []
    run_split = side.run_split
    monkeypatch.setattr(side, "run_split", lambda call, wave, fn: (splits.append(wave), run_split(call, wave, fn)))
    logits = make_logits(kind, rows, n, dtype, "cuda", seed=rows + n + k, k=k)
    lens = make_seq_lens(rows // next_n, n, next_n=next_n, seed=k, mode="mixed", device="cuda")
    lens[-1] = -2  # a side row with nothing to rank
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device="cuda"))
    val = poison_like(torch.empty(rows, k, dtype=dtype, device="cuda")) if values else None
    top_k_varlen(logits, lens, k, next_n=next_n, return_values=values, out_indices=idx, out_values=val,
                 backend="radix")
    torch.cuda.synchronize()
    check_topk(logits, lens, k, idx, val, next_n=next_n)
    _, active, wave = _wave(rows, n, str(dtype).removeprefix("torch."), next_n)
    assert active > 0, side.no_answer
    if active < rows:  # the side kernel ran (else every row fits one wave on this GPU)
        assert splits == [wave] and wave % next_n == 0 and wave < rows, (splits, active)


def test_side_rows_match_the_single_kernel():
    """Split and unsplit (launch.SIDE = False) give the same selection on distinct keys."""
    _needs_gpu()
    rows, n, k = 32, 131072, 2048
    logits = make_logits("randn", rows, n, torch.float32, "cuda", seed=5, k=k)
    lens = make_seq_lens(rows, n, seed=5, device="cuda")
    split = top_k_varlen(logits, lens, k, backend="radix")[0]
    launch.SIDE = False
    try:
        whole = top_k_varlen(logits, lens, k, backend="radix")[0]
    finally:
        launch.SIDE = True
    assert torch.equal(split.sort(dim=1).values, whole.sort(dim=1).values)


def test_side_rows_under_graph_capture():
    """Captured once (fork and join in the graph), replayed on new contents: exact every time."""
    _needs_gpu()
    rows, n, k = 32, 131072, 2048
    logits = make_logits("randn", rows, n, torch.float32, "cuda", seed=11, k=k)
    lens = make_seq_lens(rows, n, seed=11, device="cuda")
    idx = poison_like(torch.empty(rows, k, dtype=torch.int32, device="cuda"))
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        top_k_varlen(logits, lens, k, out_indices=idx, backend="radix")  # compile outside the capture
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        top_k_varlen(logits, lens, k, out_indices=idx, backend="radix")
    for seed in (1, 2, 3):
        logits.copy_(make_logits("int_ties" if seed == 2 else "randn", rows, n, torch.float32, "cuda", seed=seed,
                                 k=k))
        lens.copy_(make_seq_lens(rows, n, seed=seed, mode="mixed", device="cuda"))
        poison_like(idx)
        graph.replay()
        torch.cuda.synchronize()
        check_topk(logits, lens, k, idx)


def test_side_rows_on_two_streams_at_once():
    """Two calls that both split, on two streams at once (each gets its own side stream)."""
    _needs_gpu()
    rows, n, k = 32, 131072, 2048
    streams = [torch.cuda.Stream() for _ in range(2)]
    inputs = [(make_logits(kind, rows, n, torch.float32, "cuda", seed=s, k=k),
               make_seq_lens(rows, n, seed=s, mode="mixed", device="cuda")) for s, kind in ((31, "randn"), (32, "nan"))]
    torch.cuda.synchronize()
    results = []
    for _ in range(2):  # the first round compiles, the second runs at once
        results = []
        for stream, (logits, lens) in zip(streams, inputs):
            with torch.cuda.stream(stream):
                results.append(top_k_varlen(logits, lens, k, return_values=True, backend="radix"))
        torch.cuda.synchronize()
    for (logits, lens), (idx, vals) in zip(inputs, results):
        check_topk(logits, lens, k, idx, vals)
