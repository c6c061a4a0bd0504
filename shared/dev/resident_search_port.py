"""Dev (CPU): a Python port of the float32 resident search (``resident._kth_key_secant`` with GUESS, as shipped)
and of session 57's packed count steps (``ResidentConfig.packed``, at commit c6e09d3 only; measured slower on an
H100 and removed), to count each one's block-wide reductions on randn rows of 4K-8K columns at k = 2048.
Prints the mean count-and-nearest ("near") and packed steps per row, and the cost chain57.py's per-step figures
would give (0.92 and 0.34 µs on 16 warps, H100). Session 57: shipped 3.41 near; PK=3 0.61 near + 2.79 packed.
``--end-k1`` (session 60): the shipped search also ending where a probe counts k + 1 keys (the bound is then the
(k + 1)-th key, and the placement's tie split takes k of them); prints the shipped search's steps beside it.
Usage: python3 shared/dev/resident_search_port.py [--end-k1]"""

import math
import sys

import numpy as np

F = np.float32


def okey(v):  # float32 -> order key
    u = np.array(v, dtype=np.float32).view(np.uint32).astype(np.int64)
    return np.where(u >= 0x80000000, u ^ 0xFFFFFFFF, u | 0x80000000)


def kval(k):
    k = int(k)
    b = (k ^ 0x80000000) if k >= 0x80000000 else (k ^ 0xFFFFFFFF)
    return float(np.array(b, dtype=np.uint32).view(np.float32))


def upper_z(q):
    pp = min(q, 1 - q)
    t = math.sqrt(-2 * math.log(pp))
    z = t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308)))
    return z if q < 0.5 else -z


def probe(lo, top, c_lo, c_hi, r, w_lo, w_hi, bad, GUARD=6):
    above = (c_lo - r) + 0.5
    below = (r - c_hi) - 0.5
    frac = above * w_lo / (above * w_lo + below * w_hi)
    lv, hv = kval(lo), kval(top)
    if lv * hv > 0 and abs(lv) < math.inf and abs(hv) < math.inf:
        p = int(okey(F(lv + (hv - lv) * frac)))
    else:
        p = lo + int((top - lo) * frac)
    if bad >= GUARD:
        p = lo + (top - lo) // 2 + 1
    return min(max(p, lo + 1), top)


def search(x, k, PK=0, END_K1=False):
    key = okey(x)
    L = len(x)
    steps = {"near": 0, "packed": 0}

    def count_near(p):
        steps["near"] += 1
        d = key - p
        ge = d >= 0
        cnt = int(ge.sum())
        dmin = int(d[ge].min()) if ge.any() else None
        dmax = int(d[~ge].max()) if (~ge).any() else None
        return cnt, dmin, dmax

    lo, top = int(key.min()), int(key.max())
    x0 = float(x[0])
    d = x.astype(np.float64) - x0
    s1, s2, s3 = d.sum(), (d * d).sum(), (d**3).sum()
    c_lo, c_hi, w_lo, w_hi, side, bad = L, 0, 1.0, 1.0, 0, 0
    done = c_lo == k or lo == top

    def advance(p, cnt, dmin, dmax):
        nonlocal lo, top, c_lo, c_hi, w_lo, w_hi, side, bad
        span = c_lo - c_hi
        hit = cnt >= k
        s = 1 if hit else -1
        lo = p + dmin if hit else (p + dmax if cnt == k - 1 else lo)
        c_lo = cnt if hit else c_lo
        top = top if hit else p + dmax
        c_hi = c_hi if hit else cnt
        w_lo = (w_lo if hit else w_lo * 0.5) if s == side else 1.0
        w_hi = (w_hi * 0.5 if hit else w_hi) if s == side else 1.0
        bad = bad + 1 if (c_lo - c_hi) * 2 > span else 0
        side = s
        return c_lo == k or lo == top or (END_K1 and c_lo == k + 1)

    inv = 1.0 / L
    m = s1 * inv
    var = max(s2 * inv - m * m, 0)
    sd = math.sqrt(var)
    mu3 = s3 * inv - 3 * m * (s2 * inv) + 2 * m**3
    skew = mu3 / (var * sd) if var > 0 else 0
    skew = min(max(skew, -2), 2)
    q = k / L
    z = upper_z(q)
    z = z + (z * z - 1) * skew / 6
    if PK:
        for step in range(PK):
            if done:
                break
            steps["packed"] += 1
            span = c_lo - c_hi
            if step == 0:
                dens = L * math.exp(-0.5 * z * z) * 0.3989422804 / sd
                half = 2 * math.sqrt(k * (1 - q)) / dens
                v = x0 + m + sd * z
                p1 = min(max(int(okey(F(v - half))), lo + 1), top)
                p2 = max(p1, min(max(int(okey(F(v + half))), lo + 1), top))
                p3 = p2
                three = False
            else:
                three = span <= 1023
                s = 0.25 * math.sqrt(max(span, 1))
                p1 = probe(lo, top, c_lo, c_hi, k + s, 1, 1, 0)
                p3 = probe(lo, top, c_lo, c_hi, k - s, 1, 1, 0)
                p2 = probe(lo, top, c_lo, c_hi, k, 1, 1, 0) if three else p3
            cs = [int((key >= p).sum()) for p in (p1, p2, p3)]
            ps = [p1, p2, p3]
            nl = lo
            ncl = c_lo
            for p, c in zip(ps, cs):
                if c >= k:
                    nl, ncl = p, c
            nt, nch = top, c_hi
            for p, c in reversed(list(zip(ps, cs))):
                if c < k:
                    nt, nch = p - 1, c
            lo, c_lo, top, c_hi = nl, ncl, nt, nch
            done = c_lo == k or lo == top
        w_lo = w_hi = 1.0
        side = 0
        bad = 0
    else:
        if 0 < sd < math.inf and not done:
            v = x0 + m + sd * z
            p = min(max(int(okey(F(v))), lo + 1), top)
            cnt, a, b = count_near(p)
            done = advance(p, cnt, a, b)
            if not done:
                dens = L * math.exp(-0.5 * z * z) * 0.3989422804 / sd
                v = v + ((cnt - k) + 0.5) / dens
                p = min(max(int(okey(F(v))), lo + 1), top)
                cnt, a, b = count_near(p)
                done = advance(p, cnt, a, b)
    while not done:
        p = probe(lo, top, c_lo, c_hi, k, w_lo, w_hi, bad)
        cnt, a, b = count_near(p)
        done = advance(p, cnt, a, b)
        if steps["near"] > 64:
            raise RuntimeError("no end")
    # check
    xs = np.sort(key)[::-1]
    assert xs[k - 1] >= lo and (c_lo != k or (key >= lo).sum() == k), "wrong"
    return steps


rng = np.random.default_rng(3)
PAIRED = "--end-k1" in sys.argv  # both searches on the same 2000 rows
RUNS = ((0, False), (0, True)) if PAIRED else tuple((pk, False) for pk in range(5))
for PK, END_K1 in RUNS:
    tot = {"near": [], "packed": []}
    if PAIRED:
        rng = np.random.default_rng(3)
    for _ in range(2000 if PAIRED else 300):
        L = int(rng.integers(4096, 8193))
        x = rng.standard_normal(L).astype(np.float32)
        st = search(x, 2048, PK, END_K1)
        for kk in tot:
            tot[kk].append(st[kk])
    print(
        PK,
        "end at k + 1" if END_K1 else "",
        {kk: round(float(np.mean(v)), 2) for kk, v in tot.items()},
        "est us (0.92 near, 0.34 packed):",
        round(0.92 * np.mean(tot["near"]) + 0.34 * np.mean(tot["packed"]), 2),
    )
