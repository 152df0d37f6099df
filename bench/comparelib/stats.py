# SPDX-License-Identifier: GPL-2.0
"""Statistics: how sure each figure is.

- summary(): median, min, max and spread (100 x (max - min) / median) of
  a cell's runs.
- ratio(): the ratio of two cells' medians with a 95% bootstrap interval:
  the runs of each cell are resampled with replacement (independently:
  the two cells ran at different moments), the ratio of the resampled
  medians taken BOOT_N times, and the 2.5th and 97.5th percentiles kept.
  The generator is seeded from the pair's name, so the same runs give
  the same interval every time.  With 3 runs per cell the interval is
  exactly [min(a)/max(b), max(a)/min(b)]: a difference is only called
  when every run of one cell beat every run of the other, which two equal
  cells do 1 time in 10 (about 1 in 30 with 5 runs).  The verdict is
  "faster" (the interval is above 1), "slower" (below 1) or "tie" (it
  holds 1.0); with fewer than 2 runs on a side there is no interval and
  no verdict.
- log2_percentile(): a percentile of a power-of-two histogram (bucket K
  counts values in [2^K, 2^(K+1))), interpolated linearly inside the
  bucket that holds it.
"""

import math
import random
import statistics
import zlib

BOOT_N = 2000
LEVEL = 0.95
MIN_RUNS = 2


def rnd(x, digits=4):
    """x to `digits` significant digits (ints unchanged)."""
    if x is None:
        return None
    if x == 0:
        return 0
    if isinstance(x, int):
        return x
    mag = int(math.floor(math.log10(abs(x))))
    return round(x, max(0, digits - 1 - mag))


def summary(vals):
    """{median, min, max, spread_pct, values} of the numbers, or None."""
    vals = [v for v in vals if v is not None]
    if not vals:
        return None
    med = statistics.median(vals)
    lo, hi = min(vals), max(vals)
    return {"median": rnd(med), "min": rnd(lo), "max": rnd(hi),
            "spread_pct": rnd(100.0 * (hi - lo) / med) if med else None,
            "values": [rnd(v) for v in vals]}


def seed_of(name):
    """A seed that depends only on the text (not on PYTHONHASHSEED)."""
    return zlib.crc32(name.encode())


def bootstrap_interval(num, den, seed, n=BOOT_N, level=LEVEL,
                       den_exact=False):
    """(lo, hi) of median(num*)/median(den*) over n resamples, or None
    when a side has fewer than MIN_RUNS values.  den_exact: den is one
    exact number (an ideal rate), not resampled."""
    num = [v for v in num if v is not None]
    den = [v for v in den if v is not None]
    if len(num) < MIN_RUNS or not den:
        return None
    if den_exact:
        den = den[:1]
    elif len(den) < MIN_RUNS:
        return None
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a = statistics.median(rng.choices(num, k=len(num)))
        b = statistics.median(rng.choices(den, k=len(den))) if len(den) > 1 else den[0]
        if b:
            out.append(a / b)
    if not out:
        return None
    out.sort()
    tail = (1.0 - level) / 2.0
    lo = out[int(math.floor(tail * len(out)))]
    hi = out[min(len(out) - 1, int(math.ceil((1.0 - tail) * len(out))) - 1)]
    return lo, hi


def verdict(interval):
    """faster / slower / tie for an interval of a ratio, None without one."""
    if interval is None:
        return None
    lo, hi = interval
    if lo > 1.0:
        return "faster"
    if hi < 1.0:
        return "slower"
    return "tie"


def ratio(num_name, den_name, num_vals, den_vals, seed_text, den_exact=False):
    """The ratio entry of compare.json: {num, den, value, lo, hi, verdict,
    n_num, n_den}; None when either median is missing.  seed_text names
    the pair (and its row): it seeds the bootstrap."""
    num_vals = [v for v in num_vals if v is not None]
    den_vals = [v for v in den_vals if v is not None]
    if not num_vals or not den_vals:
        return None
    a, b = statistics.median(num_vals), statistics.median(den_vals)
    if not b:
        return None
    iv = bootstrap_interval(num_vals, den_vals, seed_of(seed_text),
                            den_exact=den_exact)
    return {"num": num_name, "den": den_name, "value": rnd(a / b, 3),
            "lo": rnd(iv[0], 3) if iv else None,
            "hi": rnd(iv[1], 3) if iv else None,
            "verdict": verdict(iv), "n_num": len(num_vals),
            "n_den": len(den_vals)}


def log2_percentile(buckets, q):
    """The q-quantile (0 < q <= 1) of a log2 histogram: buckets[K] counts
    values in [2^K, 2^(K+1)); linear interpolation inside the bucket.
    None for an empty histogram."""
    total = sum(buckets)
    if total <= 0:
        return None
    target = q * total
    cum = 0
    for k, n in enumerate(buckets):
        if n <= 0:
            continue
        if cum + n >= target:
            frac = (target - cum) / n
            return (2.0 ** k) * (1.0 + frac)
        cum += n
    return 2.0 ** len(buckets)
