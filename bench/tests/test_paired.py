#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/comparelib/paired: on SYNTHETIC slices (synth.slices_doc: a host
whose speed wanders by 2x over the cell), the paired interval covers the
true ratio and resolves it where today's unpaired stats.ratio() calls a
tie; broken pairing loses that; equal servers (the A/A arm) are called
different at most ~5% of the time; Holm changes a borderline verdict;
Student's t is right."""
import math
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from comparelib import paired, stats  # noqa: E402
import synth  # noqa: E402

TRUE = 1.10                                  # a is 10% faster than b
RATES = {"b": 1000.0, "a": 1000.0 * TRUE}    # b first: entries are a/b
ROUNDS = 12
TRIALS = 60


def cell(doc, **kw):
    c = paired.cell_from_document(doc, smp=2, workload="null-tcp", conns=1)
    c.update(kw)
    return c


def entry(entries, a, b):
    return next(e for e in entries if (e["a"], e["b"]) == (a, b))


def resolves(doc):
    """What the paired comparison must get right on a's 10% over b: its
    interval holds the true ratio, and says "faster"."""
    e = entry(paired.analyse_cell(cell(doc)), "a", "b")
    lo, hi = e["ci95"]
    return lo <= TRUE <= hi and e["verdict"] == "faster"


def unpaired(doc, a="a", b="b"):
    """Today's stats.ratio(): each target's slices resampled on their own."""
    vals = {t: [s["ops_per_s"] for s in doc["slices"] if s["target"] == t]
            for t in (a, b)}
    return stats.ratio(a, b, vals[a], vals[b], "unpaired %s/%s" % (a, b))


class StudentT(unittest.TestCase):
    def test_quantiles(self):
        # tabled 97.5% points
        for df, want in ((1, 12.706), (2, 4.303), (5, 2.571), (7, 2.365),
                         (11, 2.201), (30, 2.042)):
            self.assertAlmostEqual(paired.t_ppf(0.975, df), want, places=3)
        # closed forms: df 1 is Cauchy, df 2 has t = (2p-1)/sqrt(2p(1-p))
        for p in (0.6, 0.9, 0.99, 0.999):
            self.assertAlmostEqual(paired.t_ppf(p, 1),
                                   math.tan(math.pi * (p - 0.5)), places=6)
            self.assertAlmostEqual(paired.t_ppf(p, 2),
                                   (2 * p - 1) / math.sqrt(2 * p * (1 - p)), places=6)
            self.assertAlmostEqual(paired.t_cdf(paired.t_ppf(p, 9), 9), p, places=9)
        self.assertEqual(paired.t_ppf(0.5, 4), 0.0)
        self.assertAlmostEqual(paired.t_ppf(0.025, 5), -paired.t_ppf(0.975, 5))


class Drift(unittest.TestCase):
    def test_paired_resolves_the_ratio_where_unpaired_calls_a_tie(self):
        """A 10% difference on a host whose speed wanders by 2x over the
        cell: the paired interval holds 1.10 and says faster; today's
        interval holds 1.10 too, but 1.0 with it: a tie, many times wider."""
        doc = synth.slices_doc(RATES, ROUNDS, seed=1)
        e = entry(paired.analyse_cell(cell(doc)), "a", "b")
        self.assertEqual(e["rounds"], ROUNDS)
        self.assertTrue(e["ci95"][0] <= TRUE <= e["ci95"][1], e)
        self.assertEqual(e["verdict"], "faster")
        u = unpaired(doc)
        self.assertEqual(u["verdict"], "tie", u)
        self.assertLessEqual(u["lo"], 1.0)
        self.assertGreater(math.log(u["hi"] / u["lo"]),
                           3 * math.log(e["ci95"][1] / e["ci95"][0]))
        # and so over many seeded cells (the host wanders differently in each)
        got = [resolves(synth.slices_doc(RATES, ROUNDS, seed=s)) for s in range(TRIALS)]
        self.assertGreaterEqual(sum(got), 0.9 * TRIALS)
        ties = sum(unpaired(synth.slices_doc(RATES, ROUNDS, seed=s))["verdict"] == "tie"
                   for s in range(TRIALS))
        self.assertGreaterEqual(ties, 0.9 * TRIALS)

    def test_broken_pairing_gives_the_wrong_answer(self):
        """The check above can fail: with b's rounds shuffled before
        pairing (a's round r against b's round s), the host's drift is no
        longer taken out, and the paired comparison no longer resolves
        the 10% (it says unresolved, or worse)."""
        doc = synth.slices_doc(RATES, ROUNDS, seed=1)
        self.assertTrue(resolves(doc))
        self.assertFalse(resolves(synth.shuffle_rounds(doc, "b", seed=1)))
        got = [resolves(synth.shuffle_rounds(synth.slices_doc(RATES, ROUNDS, seed=s),
                                             "b", seed=s)) for s in range(TRIALS)]
        self.assertLessEqual(sum(got), 0.2 * TRIALS)


class AA(unittest.TestCase):
    def aa_cells(self, n, swing, noise, first_seed=1000):
        # ref and ref-aa: the same server under two names; b another one
        rates = {"b": 800.0, "ref": 1000.0, "ref-aa": 1000.0}
        return [cell(synth.slices_doc(rates, 6, seed=first_seed + s, swing=swing,
                                      noise=noise)) for s in range(n)]

    def test_equal_servers_are_called_different_at_most_5_percent(self):
        res = paired.analyse(self.aa_cells(400, swing=2.0, noise=0.05))
        aa = res["aa"]
        self.assertEqual(aa["cells"], 400)
        self.assertLessEqual(aa["false_rate"], 0.07, aa)
        self.assertEqual(aa["called_different"],
                         sum(1 for e in res["paired"] if e["aa"] and
                             e["verdict"] in ("faster", "slower")))
        self.assertTrue(0 < aa["median_halfwidth"] < 0.2, aa)
        # the A/A twin is paired with its original only, as ref-aa/ref
        self.assertEqual({(e["a"], e["b"]) for e in res["paired"] if e["aa"]},
                         {("ref-aa", "ref")})
        self.assertEqual({(e["a"], e["b"]) for e in res["paired"] if not e["aa"]},
                         {("ref", "b")})

    def test_the_interval_is_calibrated(self):
        """Without drift (noise alone), the A/A interval excludes 1 about 5
        times in 100: neither too narrow nor far too wide."""
        res = paired.analyse(self.aa_cells(400, swing=1.0, noise=0.05, first_seed=5000))
        excluded = sum(1 for e in res["paired"] if e["aa"] and
                       not e["ci95"][0] <= 1.0 <= e["ci95"][1])
        self.assertTrue(0.02 * 400 <= excluded <= 0.08 * 400, excluded)

    def test_delta_is_never_narrower_than_the_aa_interval(self):
        # a noisy cell: its A/A interval is wider than 5%, and sets delta
        c = self.aa_cells(1, swing=2.0, noise=0.15, first_seed=7)[0]
        es = paired.analyse_cell(c)
        aa = next(e for e in es if e["aa"])
        hw = paired.halfwidth(aa["ci95"])
        self.assertGreater(hw, paired.DELTA)
        for e in es:
            self.assertAlmostEqual(e["delta"], hw, delta=0.002)
        # a quiet one keeps the stated 5%
        c = self.aa_cells(1, swing=1.0, noise=0.005, first_seed=7)[0]
        self.assertTrue(all(e["delta"] == paired.DELTA for e in paired.analyse_cell(c)))


class Holm(unittest.TestCase):
    def test_steps(self):
        steps = paired.holm({"a": 0.01, "b": 0.04, "c": 0.03})
        # 0.01 <= 0.05/3: rejected at its step; 0.03 > 0.05/2: the steps stop
        self.assertEqual(steps["a"], (True, 1 - 0.05 / 3))
        self.assertEqual(steps["c"], (False, 1 - 0.05 / 2))
        self.assertEqual(steps["b"], (False, 1 - 0.05 / 2))
        steps = paired.holm({"a": 0.001, "b": 0.02, "c": 0.04})
        self.assertEqual([steps[k][0] for k in "abc"], [True, True, True])
        self.assertAlmostEqual(steps["c"][1], 0.95)

    def test_holm_changes_a_borderline_verdict(self):
        """x is 6% faster than base, y and z, seen through 8 rounds of
        noise: alone, each of x's pairs would be called faster (p about
        0.02); among the cell's 6 pairs, Holm asks p <= 0.05/6 of the
        first, and x's pairs stay unresolved, their intervals wider."""
        host = [1.0, 1.9, 1.5, 1.2, 0.8, 1.7, 1.1, 1.4]   # any drift
        wobble = [0.05, -0.06, 0.06, -0.05, 0.04, -0.04, 0.05, -0.05]
        calm = {"base": [0.0] * 8, "y": [0.004, -0.003] * 4,
                "z": [-0.002, 0.003] * 4}
        slices = []
        for r in range(8):
            for name, base in (("base", 1000.0), ("x", 1060.0), ("y", 1000.0),
                               ("z", 1000.0)):
                e = wobble[r] if name == "x" else calm[name][r]
                slices.append({"round": r + 1, "target": name,
                               "ops_per_s": base * host[r] * math.exp(e)})
        c = {"smp": 2, "workload": "null-tcp", "conns": 1,
             "targets": ["base", "y", "z", "x"], "slices": slices}
        alone = paired.analyse_cell(c, use_holm=False)
        holm = paired.analyse_cell(c)
        self.assertEqual(len(holm), 6)
        for b in ("base", "y", "z"):
            e0, e1 = entry(alone, "x", b), entry(holm, "x", b)
            self.assertTrue(0.05 / 6 < e0["p"] < 0.05, e0)
            self.assertEqual(e0["verdict"], "faster")
            self.assertEqual(e0["level"], 0.95)
            self.assertEqual(e1["verdict"], "unresolved")
            self.assertGreater(e1["level"], 0.95)
            self.assertLess(e1["ci"][0], 1.0)
            self.assertLess(e1["ci"][0], e0["ci"][0])
            # the plain 95% interval is Holm's business-free one
            self.assertEqual(e1["ci95"], e0["ci95"])
            self.assertGreater(e1["ci95"][0], 1.0)
        # the three equal ones are equal either way
        for a, b in (("y", "base"), ("z", "base"), ("z", "y")):
            self.assertEqual(entry(holm, a, b)["verdict"], "equal")


class Entries(unittest.TestCase):
    def test_shape_order_and_verdicts(self):
        rates = {"lock": 1000.0, "bitflag": 1300.0, "slow": 800.0}
        doc = synth.slices_doc(rates, ROUNDS, seed=3)
        res = paired.analyse([cell(doc)])
        self.assertEqual(set(res), {"paired", "aa"})
        self.assertEqual(res["aa"], {"cells": 0, "called_different": 0,
                                     "false_rate": None, "median_halfwidth": None})
        es = res["paired"]
        # every target over each one before it
        self.assertEqual([(e["a"], e["b"]) for e in es],
                         [("bitflag", "lock"), ("slow", "lock"), ("slow", "bitflag")])
        for e in es:
            for k in ("smp", "workload", "conns", "a", "b", "ratio", "ci95", "verdict"):
                self.assertIn(k, e)
            self.assertEqual((e["smp"], e["workload"], e["conns"]), (2, "null-tcp", 1))
            self.assertIn(e["verdict"], paired.VERDICTS)
            self.assertTrue(e["ci95"][0] <= e["ratio"] <= e["ci95"][1])
        v = {(e["a"], e["b"]): e for e in es}
        self.assertEqual(v[("bitflag", "lock")]["verdict"], "faster")
        lo, hi = v[("bitflag", "lock")]["ci95"]
        self.assertTrue(lo <= 1.3 <= hi and hi / lo < 1.15, (lo, hi))
        self.assertEqual(v[("slow", "lock")]["verdict"], "slower")
        self.assertEqual(v[("slow", "bitflag")]["verdict"], "slower")
        # the same slices, the same entries
        self.assertEqual(paired.analyse([cell(doc)]), res)

    def test_equal_and_unresolved(self):
        # equal servers, quiet host, many rounds: equal within 5%
        doc = synth.slices_doc({"a": 1000.0, "b": 1000.0}, 24, seed=4, noise=0.01)
        self.assertEqual(paired.analyse_cell(cell(doc))[0]["verdict"], "equal")
        # 3% apart on a noisy host: not resolved either way
        doc = synth.slices_doc({"b": 1000.0, "a": 1030.0}, 6, seed=4, noise=0.1)
        self.assertEqual(paired.analyse_cell(cell(doc))[0]["verdict"], "unresolved")
        # one round: no interval
        doc = synth.slices_doc({"b": 1000.0, "a": 1300.0}, 1, seed=4)
        e = paired.analyse_cell(cell(doc))[0]
        self.assertEqual((e["verdict"], e["ci95"], e["rounds"]), ("unresolved", None, 1))

    def test_rounds_without_both_targets_are_left_out(self):
        doc = synth.slices_doc({"b": 1000.0, "a": 1300.0}, 8, seed=5)
        for s in doc["slices"]:
            if s["target"] == "a" and s["round"] == 3:
                s["ops_per_s"] = 0.0        # a slice whose every call failed
        e = paired.analyse_cell(cell(doc))[0]
        self.assertEqual(e["rounds"], 7)
        self.assertEqual([r for r, _ in paired.log_ratios(doc["slices"], "a", "b")],
                         [1, 2, 4, 5, 6, 7, 8])

    def test_aa_named_in_the_cell(self):
        doc = synth.slices_doc({"x": 1000.0, "y": 1000.0}, 6, seed=6)
        es = paired.analyse_cell(cell(doc, aa=["y", "x"]))
        self.assertEqual(len(es), 1)
        self.assertTrue(es[0]["aa"])
        self.assertEqual((es[0]["a"], es[0]["b"]), ("y", "x"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
