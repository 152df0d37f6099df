# SPDX-License-Identifier: GPL-2.0
"""Paired statistics: the slices of `rpcload slices` -> ratios, intervals
and verdicts per pair of targets, and the A/A arm that calibrates them.

rpcload slices moves one load from target to target in short slices,
round after round (each round every target once, in a Williams order
whose rounds come in mirror couples: userland-client/design.h).  Two
targets' slices of one round ran seconds apart, under nearly the same
host, so their ratio is little moved by the host's slow drift, which
moves today's runs by tens of percent between rounds and makes most of
today's unpaired verdicts (stats.ratio) a tie.

Per round, one log-ratio per pair
    d_r = log(ops_a,r / ops_b,r)
(a target with more than one slice in a round: the geometric mean of its
slices' ops/s; a slice without a positive rate, and so a round without a
usable slice of both targets, is left out; slices with some failed calls
count with the rate of their ok calls: errors are the caller's to flag).
The pair's ratio is exp(mean(d)), the geometric mean of the rounds'
ratios.

The interval: a Student t interval on the d_r, mean(d) +- t(1 - alpha/2,
n - 1) x sd(d) / sqrt(n), returned as [exp(lo), exp(hi)].  Why t and not
a bootstrap over rounds: a cell has few rounds (6 to 12), and at that size
a percentile bootstrap of a mean is too narrow (it takes the spread of the
sample for the spread of the population and has no t tail): measured on
normal data, a 95% bootstrap interval holds the true mean 87% of the time
with 6 rounds, 89% with 8, 91% with 12, so an A/A pair would be called
different 9 to 13 times in 100.  The t interval is exact when the d_r are
normal and independent, which log-ratios of rates taken seconds apart
nearly are.  What is left of the drift within a round (the host's speed
changing between the two targets' slices) changes sign between the two
rounds of a mirror couple, so it cancels in the mean and only widens the
interval: on synthetic cells whose host wanders by 2x (bench/tests,
synth.slices_doc, 5% noise on each slice), equal servers came out
different in 0.5% to 3.5% of cells (2 to 5 targets, 6 to 12 rounds);
with the Williams rows in their plain order, in up to 17% (5 targets,
10 rounds).  It needs no seed either: the same slices always give the
same interval.  Fewer than 2 rounds: no interval.

Each pair reports two intervals: ci95, its plain 95% interval (what a
reader compares with another run, or with the +-10% a cell should
resolve), and ci, the interval its verdict is read off, at the level
Holm's step gives it (below; `level` says which).  Without Holm, or with
one pair, the two are the same.

Verdicts, per pair, from the pair's verdict interval ci = [lo, hi] and
delta, the margin within which two targets are called equal:
    equal       the interval lies inside [1/(1+delta), 1+delta]
    faster      otherwise, a is faster: lo > 1 (and Holm rejected ratio 1)
    slower      otherwise, a is slower: hi < 1 (likewise)
    unresolved  otherwise (the interval holds 1 and reaches past delta)
"equal" goes first: a difference the interval shows to be smaller than
delta may be real, but it is below what the host resolves.  delta is
DELTA (5%) or, when the cell has an A/A arm and its 95% interval is
wider, that interval's half-width (exp(half-width of the log interval) -
1): a margin never narrower than the noise the A/A arm itself shows.
The same delta holds for every entry of the cell, the A/A arm's too.

Holm, per cell: the family is the cell's pairs but its A/A arm (the A/A
arm is a control, judged alone at 95%).  Each pair's two-sided p-value
for "ratio 1" comes from the same t statistic; sorted p(1) <= ... <= p(m),
the pair at step i is rejected while p(i) <= alpha / (m - i + 1), and the
steps stop at the first that is not.  Intervals follow the steps, so that
each verdict can be read off its interval: a rejected pair's interval is
taken at level 1 - alpha / (m - i + 1), that of its step (it excludes 1
exactly because the pair was rejected); every pair not rejected gets the
level of the step that stopped, 1 - alpha / (m - j + 1) (it holds 1).
The family-wise guarantee (the chance that any pair of equal targets of
a cell is called faster or slower is at most alpha) is that of Holm's
tests; the intervals are adjusted to match them, not simultaneous
intervals in the strict sense.  "equal" uses the same, wider, interval: an interval at
level 1 - a inside +-delta is two one-sided tests at a/2 each, so the
equivalence verdict is conservative too.  `level` in an entry says which
level its ci was taken at (0.95 with one pair, or without Holm).

The A/A arm: two targets that are the same server under two names
(cell["aa"] = [a, b], or a target NAME and its twin NAME-aa).  It is
paired like any pair but on its own, at 95%; `aa` over the cells that
have one: {cells, called_different (faster or slower), false_rate,
median_halfwidth (exp(half-width of the log interval) - 1)}.  Equal
servers should be called different in about 5% of cells at most.

Entries ("paired", one per pair per cell): {smp, workload, conns, a, b,
ratio, ci95: [lo, hi], ci: [lo, hi], verdict, rounds, level, p, delta,
aa}; ratios
rounded to 3 significant digits, as stats.ratio does.  A pair is a/b
with a the later of the two in the cell's target order (the lineage:
each build over the ones before it), the A/A twin only against its
original.

Standard library only.
"""

import math
import statistics

from .stats import rnd

LEVEL = 0.95
DELTA = 0.05          # the stated margin of "equal": 5%
AA_SUFFIX = "-aa"     # NAME-aa: the same server as NAME (the A/A arm)
VERDICTS = ("faster", "slower", "equal", "unresolved")


# ---- Student's t, from the regularized incomplete beta function ---------

def _beta_cf(a, b, x):
    """The continued fraction of I_x(a, b) (evaluated by Lentz's method):
    1 / (1 + d1 / (1 + d2 / (1 + ...))) with
    d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)),
    d(2m)   = m (b-m) x / ((a+2m-1)(a+2m))."""
    tiny = 1e-300
    f, c, d = tiny, tiny, 0.0
    for k in range(0, 400):
        if k == 0:
            num = 1.0
        else:
            m = k // 2
            if k % 2:
                num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            else:
                num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        step = c * d
        f *= step
        if abs(step - 1.0) < 1e-15:
            break
    return f


def _ibeta(a, b, x):
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    # the fraction converges fast on this side; the other by symmetry
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_cf(a, b, x) / a
    return 1.0 - front * _beta_cf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _ibeta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_ppf(p, df):
    """The p-quantile of Student's t (0 < p < 1), by bisection."""
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


# ---- one pair ----------------------------------------------------------

def rounds_of(slices, target):
    """{round: log ops/s} of a target's slices (geometric mean of its
    slices in a round); slices without a positive rate are left out."""
    logs = {}
    for s in slices:
        ops = s.get("ops_per_s")
        if s.get("target") != target or not ops or ops <= 0:
            continue
        logs.setdefault(s["round"], []).append(math.log(ops))
    return {r: statistics.fmean(v) for r, v in logs.items()}


def log_ratios(slices, a, b):
    """[(round, log(ops_a / ops_b))] over the rounds that have both."""
    ra, rb = rounds_of(slices, a), rounds_of(slices, b)
    return [(r, ra[r] - rb[r]) for r in sorted(ra) if r in rb]


def pair_stats(d):
    """Mean, standard error, degrees of freedom and the two-sided p-value
    of "ratio 1" of per-round log-ratios d; None with fewer than 2."""
    n = len(d)
    if n < 2:
        return None
    mean = statistics.fmean(d)
    se = statistics.stdev(d) / math.sqrt(n)
    df = n - 1
    if se == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = 2.0 * (1.0 - t_cdf(abs(mean) / se, df))
    return {"n": n, "mean": mean, "se": se, "df": df, "p": min(1.0, p)}


def interval(st, level):
    """[lo, hi] of the ratio at this level (exp of the log interval)."""
    h = t_ppf(1.0 - (1.0 - level) / 2.0, st["df"]) * st["se"]
    return math.exp(st["mean"] - h), math.exp(st["mean"] + h)


def halfwidth(iv):
    """An interval's half-width as a ratio: exp(half the log width) - 1."""
    return math.sqrt(iv[1] / iv[0]) - 1.0


def verdict(iv, delta, rejected):
    """equal / faster / slower / unresolved (module docstring)."""
    if iv is None:
        return "unresolved"
    lo, hi = iv
    if lo >= 1.0 / (1.0 + delta) and hi <= 1.0 + delta:
        return "equal"
    if rejected and lo > 1.0:
        return "faster"
    if rejected and hi < 1.0:
        return "slower"
    return "unresolved"


def holm(pvals, alpha=1.0 - LEVEL):
    """Holm's step-down over {key: p}: {key: (rejected, level)}, level the
    confidence level of the key's interval (module docstring)."""
    order = sorted(pvals, key=lambda k: (pvals[k], str(k)))
    m = len(order)
    out = {}
    stopped = None
    for i, k in enumerate(order):
        step_alpha = alpha / (m - i)
        if stopped is None and pvals[k] <= step_alpha:
            out[k] = (True, 1.0 - step_alpha)
        else:
            if stopped is None:
                stopped = step_alpha
            out[k] = (False, 1.0 - stopped)
    return out


# ---- a cell ------------------------------------------------------------

def targets_of(cell):
    """The cell's targets in order: cell["targets"] (names, or the
    {name: ...} objects of rpcload's document), else as the slices first
    name them."""
    names = []
    for t in cell.get("targets") or []:
        names.append(t["name"] if isinstance(t, dict) else t)
    for s in cell["slices"]:
        if s["target"] not in names:
            names.append(s["target"])
    return names


def aa_pair(cell, names):
    """The cell's A/A arm (twin, original), or None."""
    if cell.get("aa"):
        a, b = cell["aa"]
        return (a, b) if a in names and b in names else None
    for n in names:
        if n.endswith(AA_SUFFIX) and n[:-len(AA_SUFFIX)] in names:
            return (n, n[:-len(AA_SUFFIX)])
    return None


def pairs_of(names, aa):
    """Every target over each one before it; the A/A twin only over its
    original."""
    twin = aa[0] if aa else None
    plain = [n for n in names if n != twin]
    return [(plain[j], plain[i]) for j in range(len(plain)) for i in range(j)]


def entry(cell, a, b, d, st, iv, level, delta, rejected, is_aa):
    """One entry of "paired" (module docstring); d: the log-ratios, iv
    the verdict's interval at `level`."""
    iv95 = interval(st, LEVEL) if st else None
    return {"smp": cell.get("smp"), "workload": cell.get("workload"),
            "conns": cell.get("conns"), "a": a, "b": b,
            "ratio": rnd(math.exp(statistics.fmean(d)), 3) if d else None,
            "ci95": [rnd(iv95[0], 3), rnd(iv95[1], 3)] if iv95 else None,
            "ci": [rnd(iv[0], 3), rnd(iv[1], 3)] if iv else None,
            "verdict": verdict(iv, delta, rejected),
            "rounds": len(d),
            "level": rnd(level, 4) if st else None,
            "p": rnd(st["p"], 3) if st else None,
            "delta": rnd(delta, 3), "aa": is_aa}


def analyse_cell(cell, delta=DELTA, level=LEVEL, use_holm=True):
    """The entries of one cell {smp, workload, conns, slices[, targets,
    aa]}: the A/A arm's first when it has one."""
    names = targets_of(cell)
    aa = aa_pair(cell, names)
    out = []
    if aa:
        d = [x for _, x in log_ratios(cell["slices"], *aa)]
        st = pair_stats(d)
        iv = interval(st, level) if st else None
        if iv:
            delta = max(delta, halfwidth(iv))
        out.append(entry(cell, aa[0], aa[1], d, st, iv, level, delta,
                         st is not None and st["p"] < 1.0 - level, True))
    per_pair = {}
    for a, b in pairs_of(names, aa):
        d = [x for _, x in log_ratios(cell["slices"], a, b)]
        per_pair[(a, b)] = (d, pair_stats(d))
    tested = {k: st["p"] for k, (_, st) in per_pair.items() if st}
    steps = (holm(tested, 1.0 - level) if use_holm else
             {k: (p < 1.0 - level, level) for k, p in tested.items()})
    for (a, b), (d, st) in per_pair.items():
        rejected, lvl = steps.get((a, b), (False, level))
        iv = interval(st, lvl) if st else None
        out.append(entry(cell, a, b, d, st, iv, lvl, delta, rejected, False))
    return out


def aa_summary(entries):
    """{cells, called_different, false_rate, median_halfwidth} over the
    A/A entries (median_halfwidth: exp(half the log width) - 1)."""
    aa = [e for e in entries if e["aa"]]
    diff = sum(1 for e in aa if e["verdict"] in ("faster", "slower"))
    widths = [halfwidth(e["ci95"]) for e in aa if e["ci95"]]
    return {"cells": len(aa), "called_different": diff,
            "false_rate": rnd(diff / len(aa), 3) if aa else None,
            "median_halfwidth": rnd(statistics.median(widths), 3) if widths else None}


def analyse(cells, delta=DELTA, level=LEVEL, use_holm=True):
    """{"paired": every cell's entries, "aa": aa_summary of them}."""
    entries = []
    for c in cells:
        entries.extend(analyse_cell(c, delta, level, use_holm))
    return {"paired": entries, "aa": aa_summary(entries)}


def cell_from_document(doc, smp=None, workload=None, conns=None, aa=None):
    """A cell from rpcload slices' JSON document (conns: its params'
    unless given)."""
    cell = {"smp": smp, "workload": workload,
            "conns": conns if conns is not None else doc.get("params", {}).get("conns"),
            "targets": doc.get("targets") or [], "slices": doc.get("slices") or []}
    if aa:
        cell["aa"] = list(aa)
    return cell
