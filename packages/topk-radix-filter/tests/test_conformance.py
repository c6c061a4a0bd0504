"""radix_filter passes the conformance kit on the GPU, for every dtype and option it claims.

Test matrix: the kit (dtypes fp32/bf16/fp16 x kinds randn/ties/plateau/+-inf/NaN/sorted/
reversed/huge/denormals, k in {1, 7, 300}, next_n 1..4 x compress_ratio {1, 4}, k = N/2, N,
1.5N, out buffers 2-D/1-D with and without values, hint ignored, 1M-column rows, CUDA-graph
replay with lengths 0/negative/>N, two streams at once), plus, here:
- candidate-buffer overflow: 0.0 plateaus of 50K-300K columns straddling the k-th value;
- long rows through the sampled filter and its fallback, k from 1 to 16384;
- k = N and k = 1 on long rows; every kernel variant the benchmark compares;
- the sampled design's filter, its misses (plateaus, sorted rows, adversarial samples) and
  its fallback, on small rows through a small sample.
"""

import pytest
import torch

from topk_core.api import top_k_varlen
from topk_core.protocol import Call
from topk_core.testing import BackendConformance, Claims, GpuConformance, check_topk, make_logits, make_seq_lens

pytestmark = [pytest.mark.gpu]
DT = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class TestRadixFilter(BackendConformance, GpuConformance):
    backend = "radix_filter"
    device = "cuda"
    claims = Claims(max_k=16384)  # every dtype, next_n, compress_ratio, return_values
    # Its only scratch is the row order of the longest_first variants: capture 300 rows of MANY_ROWS_F32, then
    # 2200 rows of SHORT_MANY_LF eagerly (a larger order), then replay.
    scratch_growth_shapes = ((300, 70000, 2048), (2200, 8192, 2048))

    @pytest.mark.parametrize("dtype", list(DT))
    @pytest.mark.parametrize("n, k", [(65536, 2048), (300000, 16384), (50000, 1), (200000, 100)])
    def test_plateau_overflows_candidates(self, dtype, n, k):
        """Far more than 4096 zeros share the k-th value's bin: the row-streaming path runs."""
        self.run_case(3, n, k, dtype=dtype, kind="plateau", lens_mode="full", seed=n + k)
        self.run_case(4, n, k, dtype=dtype, kind="int_ties", lens_mode="uniform", seed=n - k)

    @pytest.mark.parametrize("kind", ["randn", "sorted", "reversed", "int_ties", "nan", "huge"])
    @pytest.mark.parametrize("k", [1, 100, 2048, 16384])
    def test_long_rows(self, kind, k):
        self.run_case(6, 150000, k, kind=kind, lens_mode="mixed", seed=k)

    @pytest.mark.parametrize("dtype", list(DT))
    def test_k_edges_on_long_rows(self, dtype):
        n = 16384
        self.run_case(3, n, n, dtype=dtype, lens_mode="full", seed=1)  # k = N: short path
        self.run_case(3, n, n - 1, dtype=dtype, lens_mode="full", seed=2)  # one column dropped
        self.run_case(3, 1 << 20, 1, dtype=dtype, lens_mode="uniform", seed=3)

    # Session 43's review of the sampled kernel (CPU, code only) found no bug; these reach paths no other test did.
    @pytest.mark.parametrize("dtype", list(DT))
    @pytest.mark.parametrize("kind", ["randn", "nan", "plateau", "constant"])
    @pytest.mark.parametrize("rows, n, k", [(3, 70000, 2048), (40, 70000, 300), (2, 600000, 2048)])
    def test_unaligned_long_rows(self, dtype, kind, rows, n, k):
        """The sampled path on unaligned rows (scalar loads: float32's kept columns one per word, 16-bit filters
        storing keys, cluster slices of 2 and 3 over scalar loads); the kit's unaligned rows are 5000 columns."""
        self.run_case(rows, n, k, dtype=dtype, kind=kind, layout="unaligned", lens_mode="mixed", seed=rows + k)

    @pytest.mark.parametrize("dtype", list(DT))
    @pytest.mark.parametrize("rows, n", [(7, 70000), (300, 40000)])
    def test_constant_long_rows(self, dtype, rows, n):
        """Every sampled key equal: the threshold bin holds one key (no candidates, or the whole row), so the
        fallback runs; NaN, -NaN and +inf rows put the threshold above +inf's key."""
        for k in (1, 2048, 16384):
            self.run_case(rows, n, k, dtype=dtype, kind="constant", lens_mode="full", seed=k)

    @pytest.mark.parametrize("next_n, ratio", [(2, 1), (4, 4), (3, 2)])
    def test_long_rows_next_n_ratio(self, next_n, ratio):
        for dtype in DT:
            self.run_case(4 * next_n, 70000, 2048, dtype=dtype, next_n=next_n, compress_ratio=ratio, seed=next_n)


@pytest.mark.parametrize("dtype", list(DT))
@pytest.mark.parametrize("nnan", [2047, 2048, 2049, 4000])
def test_nan_and_signed_zero_at_kth_long_rows(dtype, nnan):
    """NaNs of both signs around the k-th rank (a NaN-only threshold, or the k-th key in the clamped top bin), and
    +0.0 / -0.0 mixed at the k-th value, on rows long enough for the sampled path (session 43's review)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    dev, k, n, rows = torch.device("cuda"), 2048, 131072, 8
    g = torch.Generator().manual_seed(nnan)
    x = -torch.rand(rows, n, generator=g) - 1.0  # every other value negative
    for r in range(rows):
        cols = torch.randperm(n, generator=g)
        x[r, cols[:nnan // 2]] = float("nan")
        x[r, cols[nnan // 2:nnan]] = torch.tensor(float("nan")).neg()
        zeros = cols[nnan:nnan + 3000]  # straddle the k-th rank when nnan < k
        x[r, zeros] = 0.0
        x[r, zeros[::2]] = -0.0
    x = x.to(dev, DT[dtype])
    seq = torch.tensor([n, n - 1, n - 7, 20000, 16384, 16385, 2049, 2048], dtype=torch.int32, device=dev)
    idx, vals = top_k_varlen(x, seq, k, return_values=True, backend="radix_filter")
    check_topk(x, seq, k, idx, vals)


VARIANTS = [dict(), dict(sample=256), dict(sample=256, cand=1024, margin=1), dict(threads=512),
            dict(threads=512, cand=4096, first_bits=11), dict(unroll=8), dict(threads=256, cand=4096),
            dict(threads=512, unroll=8), dict(threads=512, cand=4096, first_bits=11, sampled=False),
            dict(fcmp=False), dict(prefetch=False), dict(unroll=8, group=2), dict(group=2), dict(group=4),
            dict(threads=512, group=2), dict(group=2, sample=256, cand=1024, margin=1),
            dict(group=2, prefetch=False), dict(pstore=False), dict(pstore=False, unroll=8, group=2),
            dict(threads=512, cand=4096, first_bits=11, pstore=False),
            dict(pstore=False, sample=256, cand=1024, margin=1), dict(interp=False, relsel=False),
            dict(interp=False), dict(relsel=False), dict(late=True), dict(unroll=8, group=3),
            dict(group=3, sample=256, cand=1024, margin=1), dict(unroll=8, group=2, interp=False, relsel=False),
            dict(threads=512, cand=4096, first_bits=11, late=True), dict(threads=512, unroll=8, late=True),
            dict(unroll=8, group=2, late=True), dict(late=True, sample=256, cand=1024, margin=1),
            dict(compact=True), dict(sample_bits=11), dict(unroll=8, compact=True, sample_bits=11),
            dict(unroll=8, group=3, compact=True, sample_bits=11),
            dict(threads=512, cand=4096, first_bits=11, late=True, compact=True, sample_bits=9),
            dict(late=True, compact=True, sample_bits=11),
            dict(threads=256, cand=4096, first_bits=11, late=True),
            dict(threads=256, cand=4096, sample=2048, first_bits=11, late=True),
            dict(threads=256, cand=4096, sample=2048, first_bits=11, late=True, unroll=8),
            dict(threads=256, cand=4096, first_bits=11, late=True, unroll=8),
            dict(threads=256, cand=4096, first_bits=11, late=True, unroll=8, sample_bits=9),
            dict(threads=256, cand=4096, first_bits=12, late=True, unroll=8),
            dict(threads=256, cand=4096, first_bits=12, late=True, unroll=8, compact=True, sample_bits=11),
            dict(threads=256, cand=4096, first_bits=11, sampled=False),
            dict(threads=256, cand=2048, first_bits=11, sampled=False),
            dict(threads=256, cand=1024, first_bits=11, sampled=False),
            dict(threads=128, cand=2048, first_bits=11, sampled=False),
            dict(root_pad=2), dict(unroll=8, group=3, compact=True, sample_bits=11, sample=8192),
            dict(unroll=8, group=3, compact=True, sample_bits=11, cand=16384)]
#: The two-read path with fastkey / pstore1 / early / vclear / unitdiv (session 12), at SHORT_MANY's and SHORT's
#: shapes and with a buffer small enough that plateaus and ties overflow it (``_key_candidates`` from the row).
TWO_READ = [dict(threads=256, cand=2048, first_bits=11, sampled=False, fastkey=True),
            dict(threads=256, cand=2048, first_bits=11, sampled=False, pstore1=True),
            dict(threads=256, cand=2048, first_bits=11, sampled=False, fastkey=True, pstore1=True),
            dict(threads=512, cand=4096, first_bits=11, sampled=False, fastkey=True, pstore1=True),
            dict(threads=256, cand=256, first_bits=11, sampled=False, fastkey=True, pstore1=True),
            dict(threads=256, cand=2048, first_bits=11, sampled=False, fastkey=True, pstore1=True, early=True),
            dict(threads=512, cand=4096, first_bits=11, sampled=False, early=True),
            dict(threads=256, cand=256, first_bits=11, sampled=False, fastkey=True, pstore1=True, early=True),
            dict(threads=256, cand=2048, first_bits=11, sampled=False, fastkey=True, pstore1=True, early=True,
                 vclear=False, unitdiv=False),
            dict(threads=512, cand=4096, first_bits=11, sampled=False, vclear=False, unitdiv=False)]
#: Every planned sampled variant with the filter's bit-loop writes (``sparse``, session 12).
SPARSE = [dict(sparse=True), dict(unroll=8, compact=True, sample_bits=11, sparse=True),
          dict(unroll=8, group=2, late=True, sparse=True),
          dict(unroll=8, group=3, compact=True, sample_bits=11, sparse=True),
          dict(unroll=8, group=3, compact=True, sample_bits=11, cand=16384, sparse=True),
          dict(threads=512, unroll=8, late=True, sparse=True),
          dict(threads=512, cand=4096, first_bits=11, late=True, sparse=True),
          dict(threads=256, cand=4096, first_bits=11, late=True, unroll=8, sample_bits=9, sparse=True),
          dict(late=True, compact=True, sample_bits=11, sparse=True),
          dict(sample=256, cand=1024, margin=1, sparse=True)]
#: The two-read path with pass 1's candidates written by a loop over their bits (``sparse1``, session 13): SHORT_MANY's
#: and SHORT_F32's flags, a buffer small enough to overflow, the order-key classification (fcmp off) and a sampled
#: variant whose fallback runs it.
_S1 = dict(first_bits=11, sampled=False, fastkey=True, pstore1=True, early=True, sparse1=True)
SPARSE1 = [dict(threads=256, cand=2048, **_S1), dict(threads=512, cand=4096, **_S1), dict(threads=256, cand=256, **_S1),
           dict(threads=256, cand=2048, first_bits=11, sampled=False, fcmp=False, pstore1=True, sparse1=True),
           dict(pstore1=True, sparse1=True)]
#: sparse1 with pass 0 counting raw bins of x + 0.0 (``rawbin``, session 13b): SHORT_MANY's and SHORT_F32's flags, the
#: small buffer, and a sampled variant whose fallback runs it.
RAWBIN = [dict(v, rawbin=True) for v in SPARSE1[:3]] + [dict(pstore1=True, sparse1=True, fastkey=True, rawbin=True)]
#: Registers capped for more CTAs per SM (``min_ctas``, session 14): SHORT_F32_WIDE and LIGHT_16 (shipped), and
#: SHORT_MANY's m8.
MINCTAS = [dict(threads=512, cand=4096, **_S1, min_ctas=4), dict(threads=256, cand=2048, **_S1, min_ctas=8),
           dict(threads=512, cand=4096, first_bits=11, late=True, min_ctas=4)]
#: The k-th key's bin ranked by one warp when it lists at most 32 keys (``wrank``, session 62): DEFAULT's, FEW_ROWS'
#: and FEW_LONG_ROWS_3's flags.
WRANK = [dict(late=True, compact=True, sample_bits=11, wrank=True), dict(unroll=8, compact=True, sample_bits=11,
                                                                          wrank=True),
         dict(unroll=8, group=3, compact=True, sample_bits=11, wrank=True)]
#: The two-read path with a smaller candidate buffer (session 64, prepared: more L1 for the rows in flight):
#: SHORT_MANY's flags with 512 and 1024 keys, SHORT_F32_WIDE's with 1024 and 2048.
SMALLCAND = [dict(threads=256, cand=512, **_S1), dict(threads=256, cand=1024, **_S1),
             dict(threads=512, cand=1024, **_S1, min_ctas=4), dict(threads=512, cand=2048, **_S1, min_ctas=4)]
VARIANTS += TWO_READ + SPARSE + SPARSE1 + RAWBIN + MINCTAS + WRANK


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{a}={b}" for a, b in v.items()) or "default")
@pytest.mark.parametrize("kind", ["randn", "plateau", "int_ties", "nan", "inf"])
def test_every_benchmarked_variant_is_exact(variant, kind):
    """Every launch.Variant that was benchmarked is exact (only the default ships)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    for rows, n, k in ((5, 3000, 64), (4, 140000, 2048), (3, 70000, 16384), (6, 20000, 300), (2, 1100, 7)):
        logits = make_logits(kind, rows, n, torch.float32, dev, seed=rows, k=k)
        seq_lens = make_seq_lens(rows, n, seed=rows, mode="mixed", device=dev)
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        # No values: the builds that were timed (values go through the shared code path).
        launch(Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx), Variant(**variant))
        check_topk(logits, seq_lens, k, idx)


@pytest.mark.parametrize("variant", TWO_READ + SPARSE1 + RAWBIN + MINCTAS,
                         ids=lambda v: ",".join(f"{a}={b}" for a, b in v.items()))
@pytest.mark.parametrize("dtype", list(DT))
def test_two_read_flags_on_special_bits(variant, dtype):
    """fastkey ranks float32 by ``x + 0.0``'s bits: NaNs of any sign and payload (quiet, signalling,
    all-ones) must tie at the top, -0.0 with +0.0, denormals in order; pstore1's predicated writes with
    values, next_n = 2, scalar tails (odd N) and rows of length <= k (16-bit rows ignore fastkey)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    g = torch.Generator(device="cpu").manual_seed(12)
    special = torch.tensor([0x7FC00000, -0x400000, 0x7F800001, -1, 0x7FFFFFFF, -0x7F800001, 0, -0x80000000, 1,
                            -0x7FFFFFFF, 0x7F800000, -0x800000, 0x00400000, -0x7FC00000], dtype=torch.int32)
    for rows, n, k in ((6, 8191, 2048), (4, 12001, 300), (2, 3001, 1)):
        x = torch.randn(rows, n, generator=g) * 1e-38  # denormals and tiny normals near the k-th value
        bits = x.view(torch.int32)
        pick = torch.rand(rows, n, generator=g) < 0.08
        bits[pick] = special[torch.randint(0, len(special), (int(pick.sum()),), generator=g)]
        logits = bits.view(torch.float32).to(dev)
        if dtype != "float32":
            logits = torch.randn(rows, n, generator=g).to(dev, DT[dtype])
        seq_lens = make_seq_lens(rows // 2, n, next_n=2, seed=n, mode="mixed", device=dev)
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        vals = torch.full((rows, k), 7, dtype=DT[dtype], device=dev)
        launch(Call(logits=logits, seq_lens=seq_lens, top_k=k, next_n=2, indices=idx, values=vals), Variant(**variant))
        check_topk(logits, seq_lens, k, idx, vals, next_n=2)


@pytest.mark.parametrize("variant", SMALLCAND, ids=lambda v: f"t{v['threads']}c{v['cand']}")
@pytest.mark.parametrize("kind", ["randn", "plateau", "int_ties", "nan", "inf"])
def test_smallcand_variants_are_exact(variant, kind):
    """SMALLCAND through the benchmarked variants' cases (its own test, so ``-k smallcand`` selects it)."""
    test_every_benchmarked_variant_is_exact(variant, kind)


@pytest.mark.parametrize("variant", SMALLCAND, ids=lambda v: f"t{v['threads']}c{v['cand']}")
@pytest.mark.parametrize("dtype", list(DT))
def test_smallcand_variants_on_special_bits(variant, dtype):
    """SMALLCAND through the two-read flags' special-bit cases."""
    test_two_read_flags_on_special_bits(variant, dtype)


@pytest.mark.parametrize("variant", SPARSE1[:2] + RAWBIN[:2], ids=["sparse1_short_many", "sparse1_short_f32",
                                                                  "rawbin_short_many", "rawbin_short_f32"])
@pytest.mark.parametrize("kind", ["randn", "int_ties", "plateau", "zeros_denormals", "sorted", "reversed", "huge"])
def test_sparse1_on_batches(variant, kind):
    """``sparse1`` at the shapes it is for (many rows of 4K-8K columns, k a third of a row: most tiles hold
    candidates), aligned rows (16-byte vectors, values) and rows one column shifted (scalar loads), lengths
    uniform, mixed (0, <= k, > N) and full."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    for rows, n, k, mode, shift in ((300, 8192, 2048, "uniform", 0), (37, 8192, 2048, "mixed", 1),
                                    (64, 4096, 1024, "full", 0), (9, 5003, 700, "mixed", 0)):
        full = make_logits(kind, rows, n + shift, torch.float32, dev, seed=rows + n, k=k)
        logits = full[:, shift:]  # shift 1: rows 4 bytes past 16-byte alignment
        seq_lens = make_seq_lens(rows, n, seed=rows, mode=mode, device=dev)
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        vals = torch.full((rows, k), 7.0, dtype=torch.float32, device=dev) if shift == 0 else None
        launch(Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx, values=vals), Variant(**variant))
        check_topk(logits, seq_lens, k, idx, vals)


@pytest.mark.parametrize("variant", SMALLCAND[::2], ids=lambda v: f"t{v['threads']}c{v['cand']}")
@pytest.mark.parametrize("kind", ["randn", "int_ties", "plateau", "zeros_denormals", "huge"])
def test_smallcand_on_batches(variant, kind):
    """SMALLCAND's smallest buffers through ``test_sparse1_on_batches``' shapes (most tiles hold candidates)."""
    test_sparse1_on_batches(variant, kind)


@pytest.mark.parametrize("rows, n, kind", [(450, 20000, "randn"), (400, 65536, "int_ties"), (2100, 3000, "nan"),
                                           (2048, 16000, "plateau")])
def test_batch_shapes_reach_the_256_thread_variants(rows, n, kind):
    """Through the public API, with values and next_n=2: float32 batches that plan() sends to
    LIGHT_ONE_WAVE (397-528 rows of 16K-64K on 132 SMs) and SHORT_MANY (2048+ rows of N < 16K; SHORT_MANY_LF,
    its longest-first order, up to 24 rows per SM)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import LIGHT_ONE_WAVE, SHORT_MANY, SHORT_MANY_LF, _sms, plan

    dev = torch.device("cuda")
    if _sms(dev.index or 0) == 132:
        assert plan(rows, n, sms=132) in (LIGHT_ONE_WAVE, SHORT_MANY, SHORT_MANY_LF)
    k = 2048 if n > 3000 else 300
    logits = make_logits(kind, rows, n, torch.float32, dev, seed=rows, k=k)
    seq_lens = make_seq_lens(rows // 2, n, next_n=2, seed=n, mode="mixed", device=dev)
    idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
    vals = torch.full((rows, k), 7.0, dtype=torch.float32, device=dev)
    top_k_varlen(logits, seq_lens, k, next_n=2, return_values=True, out_indices=idx, out_values=vals,
                 backend="radix_filter")
    check_topk(logits, seq_lens, k, idx, vals, next_n=2)


@pytest.mark.parametrize("rows, n, dtype, kind, which", [
    (300, 70000, torch.float32, "randn", "MANY_ROWS_F32"), (600, 40000, torch.float32, "plateau", "LIGHT"),
    (2200, 8192, torch.float32, "nan", "SHORT_MANY_LF"), (300, 70000, torch.bfloat16, "int_ties", "MANY_ROWS"),
    (600, 8000, torch.float32, "int_ties", "SHORT_F32_WIDE_8K"), (1000, 8192, torch.float32, "plateau",
                                                                  "SHORT_F32_WIDE_8K")])
@pytest.mark.parametrize("balance", [True, False], ids=["balanced", "per_row"])
def test_planned_longest_first_through_the_api(rows, n, dtype, kind, which, balance):
    """Through the public API, the shapes plan() sends to the shipped ``longest_first`` variants (and to bf16's
    MANY_ROWS and SHORT_F32_WIDE_8K, which have none; int_ties' threshold bin fits the 2048 candidates, the plateau
    overflows them): next_n 2, values, eager and then a CUDA graph replayed with new lengths and new logits in
    place; ``load_balance=False`` takes the plain entry."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter import launch as rf

    dev = torch.device("cuda")
    variant = rf.PLANNED[which]
    if rf._sms(dev.index or 0) == 132:
        assert rf.plan(rows, n, dtype=str(dtype).removeprefix("torch.")) == variant
    assert (variant.longest_first > 0) == (which not in ("MANY_ROWS", "SHORT_F32_WIDE_8K"))
    k = 2048
    logits = make_logits(kind, rows, n, dtype, dev, seed=rows + 1, k=k)
    seq = make_seq_lens(rows // 2, n, next_n=2, seed=n, mode="mixed", device=dev)
    idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
    vals = torch.full((rows, k), 7.0, dtype=dtype, device=dev)

    def call():
        top_k_varlen(logits, seq, k, next_n=2, return_values=True, out_indices=idx, out_values=vals,
                     backend="radix_filter", load_balance=balance)

    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        call()  # eager: compiles and makes the order's scratch
        stream.synchronize()
        check_topk(logits, seq, k, idx, vals, next_n=2)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, stream=stream):
            call()
        seq.copy_(make_seq_lens(rows // 2, n, next_n=2, seed=n + 1, mode="uniform", device=dev))
        logits.copy_(make_logits("randn", rows, n, dtype, dev, seed=rows + 2, k=k))
        idx.fill_(-7)
        vals.fill_(7.0)
        graph.replay()
        stream.synchronize()
    check_topk(logits, seq, k, idx, vals, next_n=2)


@pytest.mark.parametrize("dtype, kind", [(torch.float32, "randn"), (torch.float32, "plateau"),
                                         (torch.bfloat16, "randn"), (torch.float16, "int_ties")])
def test_rows_over_512k_reach_the_huge_variant(dtype, kind):
    """Through the public API, with values: rows of N > 512K go to FEW_HUGE_ROWS (16384 candidates)."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import FEW_HUGE_ROWS, plan

    dev = torch.device("cuda")
    rows, n, k = 3, 600_000, 2048
    assert plan(rows, n, dtype=str(dtype).removeprefix("torch.")) == FEW_HUGE_ROWS
    logits = make_logits(kind, rows, n, dtype, dev, seed=11, k=k)
    seq_lens = make_seq_lens(rows, n, seed=11, mode="uniform", device=dev)
    idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
    vals = torch.full((rows, k), 7.0, dtype=dtype, device=dev)
    top_k_varlen(logits, seq_lens, k, return_values=True, out_indices=idx, out_values=vals, backend="radix_filter")
    check_topk(logits, seq_lens, k, idx, vals)


def test_api_smoke_many_rows():
    """The DSA decode shape through the public API, with auto picking whatever it picks."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    dev = torch.device("cuda")
    logits = make_logits("randn", 64, 32768, torch.bfloat16, dev, seed=5)
    seq_lens = make_seq_lens(32, 32768, next_n=2, seed=5, mode="uniform", device=dev)
    idx, vals = top_k_varlen(logits, seq_lens, 2048, next_n=2, return_values=True, backend="radix_filter")
    check_topk(logits, seq_lens, 2048, idx, vals, next_n=2)


SMALL = [dict(), dict(group=2), dict(pstore=False), dict(group=2, pstore=False), dict(group=3),
         dict(interp=False, relsel=False), dict(group=2, interp=False, relsel=False),
         dict(compact=True, sample_bits=11), dict(group=3, compact=True, sample_bits=11),
         dict(threads=256, first_bits=11, late=True, unroll=8, sample_bits=9),
         dict(threads=256, first_bits=12, late=True, unroll=8, compact=True, sample_bits=11),
         dict(bf16cmp=False, f16cmp=False, rel16=False), dict(group=2, bf16cmp=False, f16cmp=False),
         dict(vclear=False, unitdiv=False), dict(group=3, vclear=False, unitdiv=False), dict(sparse=True),
         dict(group=2, sparse=True), dict(group=3, compact=True, sample_bits=11, sparse=True)]


@pytest.mark.parametrize("opts", SMALL, ids=lambda v: ",".join(f"{a}={b}" for a, b in v.items()) or "default")
@pytest.mark.parametrize("kind", ["randn", "sorted", "reversed", "int_ties", "plateau", "nan", "inf", "huge"])
@pytest.mark.parametrize("dtype", list(DT))
def test_sampled_design_with_a_small_sample(kind, dtype, opts):
    """sample=256 puts rows from 1024 columns through the sampled filter; margin 0 makes it miss often.
    group=2/3: CTAs per row (a cluster), rank 0 pulling the others' candidates; pstore=False: the
    filter's branch per kept key (float32; 16-bit rows always take it); interp/relsel off: the
    threshold's second sampled digit and the three-digit candidate select; bf16cmp/f16cmp/rel16 off:
    16-bit rows' order-key filter and key-digit select (0.6.0's); pstore=False on 16-bit rows: the word
    filter's branch per kept key."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    for margin in (0, 4):
        for rows, n, k in ((7, 1500, 1), (5, 5000, 100), (3, 40000, 2048)):
            logits = make_logits(kind, rows, n, DT[dtype], dev, seed=rows + margin, k=k)
            seq_lens = make_seq_lens(rows, n, seed=rows, mode="mixed", device=dev)
            idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
            vals = torch.full((rows, k), 7, dtype=DT[dtype], device=dev)
            launch(Call(logits=logits, seq_lens=seq_lens, top_k=k, indices=idx, values=vals),
                   Variant(sample=256, cand=2048, margin=margin, **opts))
            check_topk(logits, seq_lens, k, idx, vals)


@pytest.mark.parametrize("dtype", list(DT))
@pytest.mark.parametrize("variant", [dict(), dict(unroll=8, group=3), dict(sample=256, cand=2048),
                                     dict(compact=True, sample_bits=11), dict(sparse=True), WRANK[0]],
                         ids=["default", "group3", "small_sample", "compact", "sparse", "wrank"])
def test_kth_key_far_above_the_threshold(variant, dtype):
    """relsel (rel16 for 16-bit keys) ranks candidates on ``key - t`` with a clamped top bin: rows whose
    top-k sits far above the sampled threshold (a few huge scores over randn) put the k-th key in that
    bin, and the digit select must take over; interp's threshold on integer scores can land above the k-th
    key, and the exact fallback must take over; a plateau of 5000 equal keys at the k-th value
    overflows compact's list of the k-th key's bin, and the full last pass must take over."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    g = torch.Generator(device="cpu").manual_seed(8)
    # bfloat16 needs a wider gap than 1000 for its k-th key to sit 2047+ keys above t; float16's max is 65504
    big = 1e20 if dtype == "bfloat16" else 1000.0
    for rows, n, k in ((4, 131072, 2048), (3, 40000, 300), (2, 70000, 16384)):
        logits = torch.randn(rows, n, generator=g)
        for r in range(rows):  # k + 50 scores near `big` (the k-th among them), the rest randn
            cols = torch.randperm(n, generator=g)[:k + 50]
            logits[r, cols] = big * (1 + torch.randn(k + 50, generator=g) / 1000)
        ints = torch.randint(0, 64, (rows, n), generator=g).float()
        few = torch.randint(0, n // 5000, (rows, n), generator=g).float()  # ~5000 copies of each value
        for x in (logits, ints, few):
            x = x.to(dev, DT[dtype])
            seq_lens = torch.full((rows,), n, dtype=torch.int32, device=dev)
            idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
            vals = torch.full((rows, k), 7, dtype=DT[dtype], device=dev)
            launch(Call(logits=x, seq_lens=seq_lens, top_k=k, indices=idx, values=vals), Variant(**variant))
            check_topk(x, seq_lens, k, idx, vals)


@pytest.mark.parametrize("variant", WRANK, ids=["default", "few_rows", "group3"])
@pytest.mark.parametrize("step", [2 ** -9, 2 ** -8, 2 ** -7, 2 ** -6])
def test_wrank_ties_in_the_kth_bin(variant, step):
    """``wrank`` ranks the k-th key's bin in one warp when it lists at most 32 keys. randn rounded to ``step`` puts
    one value in each level-one bin near the k-th key (2**-12 or 2**-11 wide there), in ~2 to ~80 copies (32K
    columns: ~8 / 16 / 32 / 63): equal keys the lane order must split, and lists on both sides of 32."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import Variant, launch

    dev = torch.device("cuda")
    g = torch.Generator(device="cpu").manual_seed(62)
    for rows, n, k in ((6, 32768, 2048), (3, 131072, 2048), (4, 40000, 300)):
        x = (torch.randn(rows, n, generator=g) / step).round().mul(step).to(dev)
        seq_lens = torch.tensor([n, n - 5, n // 2 + 3, n, n - 1000, n][:rows], dtype=torch.int32, device=dev)
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        vals = torch.full((rows, k), 7.0, device=dev)
        launch(Call(logits=x, seq_lens=seq_lens, top_k=k, indices=idx, values=vals), Variant(**variant))
        check_topk(x, seq_lens, k, idx, vals)


@pytest.mark.parametrize("dtype", list(DT))
@pytest.mark.parametrize("name", ["DEFAULT", "SHORT_MANY", "FEW_LONG_ROWS_3", "LIGHT"])
@pytest.mark.parametrize("late", [True, False], ids=["above_last", "above_first"])
def test_plateau_fallback_stops_only_when_every_slot_is_taken(name, dtype, late):
    """The guard of the gather exit (topk-core 0.2.6, ``RadixTopK._slots_filled``: the overflow path's gather stops
    streaming the row once its k slots are taken). On a plateau of 1.0 the tie slots fill within the first
    columns; keys just above 1.0 (in the same first-digit bin, so found only by the gather) are placed in the row's
    last columns (``above_last``: the gather must read to the end) or its first ones. Keys far above the plateau
    are spread over the row; every answer is checked exactly."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from topk_radix_filter.launch import PLANNED, launch

    dev = torch.device("cuda")
    g = torch.Generator(device="cpu").manual_seed(47)
    tdt = DT[dtype]
    step = torch.finfo(tdt).eps  # 1 + j * eps for j < 16 shares 1.0's first digit in every dtype
    for rows, n, k in ((3, 131072, 2048), (4, 20000, 512)):
        x = torch.ones(rows, n)
        for r in range(rows):
            near = k // 4  # just above the plateau
            cols = torch.arange(n - near, n) if late else torch.arange(near)
            x[r, cols] = 1 + step * torch.randint(1, 16, (near,), generator=g).float()
            far = torch.randperm(n, generator=g)[: k // 4]
            far = far[(far < n - near) if late else (far >= near)]
            x[r, far] = 4 + torch.rand(far.numel(), generator=g)
        x = x.to(dev, tdt)
        seq_lens = torch.full((rows,), n, dtype=torch.int32, device=dev)
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        vals = torch.full((rows, k), 7, dtype=tdt, device=dev)
        launch(Call(logits=x, seq_lens=seq_lens, top_k=k, indices=idx, values=vals), PLANNED[name])
        check_topk(x, seq_lens, k, idx, vals)
        idx2 = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        launch(Call(logits=x, seq_lens=seq_lens, top_k=k, indices=idx2), PLANNED[name])
        check_topk(x, seq_lens, k, idx2, None)


#: ``longest_first`` (session 42; SHORT_MANY_LF, LIGHT and MANY_ROWS_F32 ship it since session 45): the many-wave
#: variants' ordered entry at one first-wave CTA per SM, N per variant.
LONGEST_FIRST = {"SHORT_MANY": 8192, "SHORT_F32_WIDE": 8192, "LIGHT": 32768, "LIGHT_16": 32768, "MANY_ROWS": 70000}


@pytest.mark.parametrize("name", list(LONGEST_FIRST))
@pytest.mark.parametrize("pdl", [True, False], ids=["pdl", "serial"])
@pytest.mark.parametrize("kind", ["randn", "plateau", "nan"])
def test_longest_first_is_exact(name, pdl, kind):
    """Rows past the first wave taken by falling length (``row_order``): one first-wave CTA per SM, so most rows
    are ordered; every row selected once and exactly, eager and replayed from a CUDA graph with new lengths (mixed:
    0, negative numerators, <= k, > N), next_n 2 with compress_ratio 4, values; ``load_balance=False`` runs the plain
    entry on the same variant."""
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from dataclasses import replace

    from topk_core import workspace as ws
    from topk_core.keys import valid_lengths
    from topk_radix_filter import launch as rf

    dev = torch.device("cuda")
    sms = rf._sms(dev.index or 0)
    v = replace(getattr(rf, name), longest_first=1, order_pdl=pdl)
    dtype = torch.bfloat16 if name == "LIGHT_16" else torch.float32
    n, k = LONGEST_FIRST[name], 2048
    rows = 2 * sms + 38  # even: next_n 2
    assert rf.first_wave(v, rows, sms) == sms
    for next_n, ratio in ((1, 1), (2, 4)):
        logits = make_logits(kind, rows, n, dtype, dev, seed=rows + next_n, k=k)
        lens = [make_seq_lens(rows // next_n, n, next_n=next_n, compress_ratio=ratio, seed=s, mode="mixed",
                              device=dev) for s in (1, 2)]
        idx = torch.full((rows, k), -7, dtype=torch.int32, device=dev)
        vals = torch.full((rows, k), 7.0, dtype=dtype, device=dev)
        seq = lens[0].clone()
        call = Call(logits=logits, seq_lens=seq, top_k=k, next_n=next_n, compress_ratio=ratio, indices=idx,
                    values=vals)
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            rf.launch(call, v)  # eager (compiles, makes the order's scratch)
            stream.synchronize()
            check_topk(logits, seq, k, idx, vals, next_n=next_n, compress_ratio=ratio)
            # the order itself: rows past the first wave, each once, by band of falling length
            order = ws.scratch("radix_filter.order", logits.device, 4 * rows)[:4 * rows]
            order = order.view(torch.int32)[sms:].long().cpu()
            assert sorted(order.tolist()) == list(range(sms, rows))
            bands = (n - valid_lengths(seq, rows, n, next_n, ratio).cpu()[order]) * 32 // (n + 1)
            assert bool((bands[1:] >= bands[:-1]).all())
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                rf.launch(call, v)
        for s in lens[::-1]:  # new lengths, outputs poisoned, before each replay
            seq.copy_(s)
            idx.fill_(-7)
            vals.fill_(7.0)
            graph.replay()
            torch.cuda.synchronize()
            check_topk(logits, seq, k, idx, vals, next_n=next_n, compress_ratio=ratio)
        idx.fill_(-7)
        rf.launch(replace(call, load_balance=False), v)  # the plain entry
        torch.cuda.synchronize()
        check_topk(logits, seq, k, idx, vals, next_n=next_n, compress_ratio=ratio)
